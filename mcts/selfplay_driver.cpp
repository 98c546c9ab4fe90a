#include "mcts/selfplay_driver.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "env/rng.h"
#include "mcts/search_tree.h"

namespace quax {

std::string check_move_choice(const MoveChoice& m) {
  if (!(m.full_search_fraction >= 0.0f && m.full_search_fraction <= 1.0f)) return "full_search_fraction must be in [0, 1]";
  if (m.full_search_fraction < 1.0f && m.fast_simulations < 1)
    return "fast_simulations must be at least 1 when full_search_fraction < 1";
  if (!(m.temperature_early >= 0.0f) || !(m.temperature_final >= 0.0f)) return "temperatures must be >= 0";
  return "";
}

namespace {

void check_options(const DriverOptions& o, size_t num_evaluators) {
  auto fail = [](const std::string& m) { throw std::invalid_argument(m); };
  if (auto err = check_spec(o.spec); !err.empty()) fail(err);
  if (o.parallel_games < 1) fail("parallel_games must be at least 1");
  if (o.players.empty()) fail("players must not be empty");
  for (size_t i = 0; i < o.players.size(); ++i) {
    const PlayerSettings& p = o.players[i];
    const std::string where = "players[" + std::to_string(i) + "]: ";
    if (auto err = check_settings(p.search); !err.empty()) fail(where + err);
    if (p.evaluator < 0 || static_cast<size_t>(p.evaluator) >= num_evaluators)
      fail(where + "evaluator index " + std::to_string(p.evaluator) + " out of range (" +
           std::to_string(num_evaluators) + " evaluators)");
    if (auto err = check_move_choice(p); !err.empty()) fail(where + err);
  }
  if (o.resign.enabled && (o.resign.consecutive < 1 || !(o.resign.playout_fraction >= 0.0f) ||
                           !(o.resign.playout_fraction <= 1.0f)))
    fail("resign: consecutive must be >= 1 and playout_fraction in [0, 1]");
  if (o.max_moves < 0) fail("max_moves must be >= 0");
}

}  // namespace

struct GameDriver::Slot {
  explicit Slot(const GameSpec& spec) : state(new_game(spec)), trees{SearchTree(spec), SearchTree(spec)} {}
  std::unique_ptr<GameState> state;
  // One tree per colour when the two colours use different settings (arena), so a tree
  // only ever holds one player's search; self-play uses trees[0] for both colours.
  SearchTree trees[2];
  Rng rng;
  GameRecord record;
  bool active = false, searching = false, full_search = true;
  int low_value_moves[2] = {0, 0};
  int turns = 0;  // turns completed: the times the player to move changed

  bool shared_tree() const { return record.seats.first == record.seats.second; }
  int tree_of(Player p) const { return shared_tree() ? 0 : index_of(p); }
  int seat_of(Player p) const { return p == Player::kBlack ? record.seats.first : record.seats.second; }
};

GameDriver::GameDriver(const DriverOptions& options, std::vector<Evaluator*> evaluators)
    : options_(options), evaluators_(std::move(evaluators)) {
  check_options(options_, evaluators_.size());
  for (Evaluator* e : evaluators_)
    if (!e) throw std::invalid_argument("null evaluator");
  if (options_.max_moves == 0) options_.max_moves = 4 * new_game(options_.spec)->num_actions();
  for (int i = 0; i < options_.parallel_games; ++i) slots_.push_back(std::make_unique<Slot>(options_.spec));
  batches_.resize(evaluators_.size());
}

GameDriver::~GameDriver() = default;

int GameDriver::active_games() const {
  int n = 0;
  for (const auto& s : slots_) n += s->active ? 1 : 0;
  return n;
}

void GameDriver::start_game(Slot& slot) {
  const int64_t index = games_started_++;
  slot.record = GameRecord();
  slot.record.spec = options_.spec;
  slot.record.game_index = index;
  if (options_.seats_for_game) slot.record.seats = options_.seats_for_game(index);
  const int np = static_cast<int>(options_.players.size());
  auto& seats = slot.record.seats;
  if (seats.first < 0 || seats.first >= np || seats.second < 0 || seats.second >= np)
    throw std::invalid_argument("seats_for_game(" + std::to_string(index) + ") names a player out of range");
  slot.rng.seed_with(derive_seed(options_.seed, static_cast<uint64_t>(index)));
  slot.state = new_game(options_.spec);
  slot.record.resign_disabled =
      options_.resign.enabled && slot.rng.uniform() < static_cast<double>(options_.resign.playout_fraction);
  slot.low_value_moves[0] = slot.low_value_moves[1] = 0;
  slot.turns = 0;
  slot.trees[0].set_root(*slot.state);
  if (!slot.shared_tree()) slot.trees[1].set_root(*slot.state);
  slot.active = true;
  slot.searching = false;
}

void GameDriver::set_simulations(int player, int simulations) {
  if (player < 0 || player >= static_cast<int>(options_.players.size()))
    throw std::invalid_argument("set_simulations: no player " + std::to_string(player));
  if (simulations < 1) throw std::invalid_argument("set_simulations: simulations must be >= 1");
  options_.players[player].search.simulations = simulations;
}

bool GameDriver::step() {
  for (auto& s : slots_)
    if (!s->active && (options_.games_to_play < 0 || games_started_ < options_.games_to_play)) start_game(*s);
  if (active_games() == 0) return false;

  for (EvaluationBatch& batch : batches_) batch.clear();
  for (auto& s : slots_) {
    Slot& slot = *s;
    if (!slot.active) continue;
    const Player mover = slot.state->to_move();
    const PlayerSettings& ps = options_.players[slot.seat_of(mover)];
    SearchTree& tree = slot.trees[slot.tree_of(mover)];
    if (!slot.searching) {
      slot.full_search = ps.full_search_fraction >= 1.0f ||
                         slot.rng.uniform() < static_cast<double>(ps.full_search_fraction);
      const int sims = slot.full_search ? ps.search.simulations : ps.fast_simulations;
      // Fast searches get no Dirichlet noise (KataGo); Gumbel keeps its sample, which is
      // how it chooses among actions.
      const bool noise = ps.search.root_rule == RootRule::kGumbel || slot.full_search;
      tree.start_search(ps.search, sims, noise, &slot.rng);
      slot.searching = true;
    }
    tree.collect();
    batches_[ps.evaluator].add_leaves(tree);
  }
  for (size_t e = 0; e < evaluators_.size(); ++e) {
    const size_t evaluated = batches_[e].run(*evaluators_[e]);
    if (evaluated == 0) continue;
    ++stats_.steps;
    stats_.evaluations += static_cast<int64_t>(evaluated);
  }

  for (auto& s : slots_) {
    if (!s->active) continue;
    if (s->trees[s->tree_of(s->state->to_move())].done()) finish_move(*s);
  }
  return true;
}

void GameDriver::finish_move(Slot& slot) {
  GameState& state = *slot.state;
  const Player mover = state.to_move();
  const PlayerSettings& ps = options_.players[slot.seat_of(mover)];
  SearchTree& tree = slot.trees[slot.tree_of(mover)];
  stats_.simulations += tree.simulations_done();
  stats_.terminal_hits += tree.terminal_hits();
  stats_.collisions += tree.collisions();
  slot.searching = false;

  MoveRecord move;
  move.mover = mover;
  move.full_search = slot.full_search;
  move.root_value = tree.root_value();
  move.simulations = tree.simulations_done();
  if (ps.record_policy && slot.full_search) tree.policy_target(&move.policy);

  GameRecord& rec = slot.record;
  const ResignSettings& rs = options_.resign;
  if (rs.enabled && state.move_number() >= rs.min_moves) {
    int& low = slot.low_value_moves[index_of(mover)];
    low = move.root_value < rs.threshold ? low + 1 : 0;
    if (low >= rs.consecutive) {
      if (!rec.resign_disabled) {
        rec.resigned = true;
        rec.resigner = mover;
        rec.outcome = win_for(opponent(mover));
        finish_game(slot);
        return;
      }
      if (!rec.would_have_resigned) {
        rec.would_have_resigned = true;
        rec.would_resign_player = mover;
        rec.would_resign_move = static_cast<int>(rec.moves.size());
      }
    }
  }

  const int moves_so_far = ps.temperature_counts_turns ? slot.turns : state.move_number();
  const float temperature = moves_so_far < ps.temperature_moves ? ps.temperature_early : ps.temperature_final;
  move.action = tree.choose_action(temperature, slot.rng);
  rec.moves.push_back(std::move(move));
  state.apply(rec.moves.back().action);
  if (state.to_move() != mover) ++slot.turns;
  ++stats_.moves;
  if (state.is_over()) {
    rec.outcome = state.outcome();
    finish_game(slot);
    return;
  }
  if (state.move_number() >= options_.max_moves) {
    rec.outcome = Outcome::kDraw;
    rec.truncated = true;
    finish_game(slot);
    return;
  }
  const int trees = slot.shared_tree() ? 1 : 2;
  for (int t = 0; t < trees; ++t) {
    // trees[0] belongs to black's seat (or both), trees[1] to white's.
    const SearchSettings& s = options_.players[t == 0 ? rec.seats.first : rec.seats.second].search;
    slot.trees[t].advance(rec.moves.back().action, state, s.reuse_tree && s.root_rule == RootRule::kPuct);
  }
}

void GameDriver::finish_game(Slot& slot) {
  slot.active = false;
  slot.searching = false;
  ++stats_.games_finished;
  finished_.push_back(std::move(slot.record));
  slot.record = GameRecord();
}

std::vector<GameRecord> GameDriver::take_finished() {
  std::vector<GameRecord> out;
  out.swap(finished_);
  return out;
}

void GameDriver::run(int64_t games, const std::function<void(GameRecord&&)>& on_game) {
  int64_t done = 0;
  while (done < games) {
    const bool more = step();
    for (GameRecord& g : take_finished()) {
      ++done;
      if (on_game) on_game(std::move(g));
    }
    if (!more) break;
  }
}

}  // namespace quax
