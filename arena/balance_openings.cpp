#include "arena/balance_openings.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

#include "arena/balance_games.h"
#include "arena/strength_curve.h"
#include "mcts/evaluation_batch.h"
#include "core/steady_time.h"
#include "mcts/search_agent.h"
#include "mcts/search_schema.h"
#include "mcts/search_tree.h"
#include "solve/proof_search.h"

namespace quax {

std::vector<std::vector<int>> first_move_classes(const GameSpec& spec) {
  const auto start = new_game(spec);
  const int n = start->num_actions();
  std::vector<int> actions;
  start->legal_actions(&actions);
  // Union-find over the actions: a move and its image under each symmetry of the network
  // frame. Those keep the mover and the goals, and the start position is its own image, so a
  // move's image leads to the image of its position, of equal value.
  std::vector<int> parent(static_cast<size_t>(n));
  for (int a = 0; a < n; ++a) parent[a] = a;
  auto root = [&](int a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  std::vector<uint8_t> one(static_cast<size_t>(n)), image(static_cast<size_t>(n)), legal(static_cast<size_t>(n));
  start->legal_mask(legal.data());
  for (int sym = 1; sym < start->num_net_symmetries(); ++sym)
    for (int a : actions) {
      std::fill(one.begin(), one.end(), 0);
      one[start->to_net_action(a)] = 1;
      start->transform_net_mask(sym, one.data(), image.data());
      const auto at = std::find(image.begin(), image.end(), 1);
      if (at == image.end()) continue;
      const int b = start->from_net_action(static_cast<int>(at - image.begin()));
      if (b >= 0 && b < n && legal[b]) parent[root(a)] = root(b);
    }
  std::vector<std::vector<int>> classes;
  std::map<int, size_t> class_of;
  for (int a : actions) {
    const auto [it, fresh] = class_of.emplace(root(a), classes.size());
    if (fresh) classes.emplace_back();
    classes[it->second].push_back(a);
  }
  return classes;
}

GameSpec opening_game(const GameSpec& spec) {
  GameSpec g = spec;
  g.swap = false;
  return g;
}

namespace {

// The value for `opener` of a position that is over.
double final_value(const GameState& s, Player opener) {
  const Player w = winner_of(s.outcome());
  return w == Player::kNone ? 0.0 : (w == opener ? 1.0 : -1.0);
}

}  // namespace

std::vector<OpeningValue> opening_map(const GameSpec& spec, const BalancePlayer& player,
                                      const OpeningMapOptions& options,
                                      const std::function<void(const std::string&)>& progress) {
  const GameSpec game = opening_game(spec);
  const auto start = new_game(game);
  const Player opener = start->to_move();
  const auto classes = first_move_classes(game);
  std::vector<std::unique_ptr<GameState>> after;  // one position per class, after its first move
  for (const auto& c : classes) {
    after.push_back(start->clone());
    after.back()->apply(c.front());
  }
  std::vector<OpeningValue> per_class(classes.size());
  for (size_t i = 0; i < classes.size(); ++i) {
    per_class[i].representative = start->action_to_string(classes[i].front());
    if (after[i]->is_over()) per_class[i].value = final_value(*after[i], opener);
  }

  // The search of every class's position, side by side.
  if (progress) progress("openings: searching " + std::to_string(classes.size()) + " classes of first moves");
  {
    std::vector<const GameState*> searching;
    std::vector<size_t> index;
    for (size_t i = 0; i < classes.size(); ++i) {
      if (after[i]->is_over()) continue;
      searching.push_back(after[i].get());
      index.push_back(i);
    }
    Rng rng(options.seed);
    PositionSearcher searcher(player, options.search);
    const auto found = searcher.search(searching, std::vector<bool>(searching.size(), false), rng);
    for (size_t k = 0; k < index.size(); ++k) {
      const double v = found[k].value;
      per_class[index[k]].value = after[index[k]]->to_move() == opener ? v : -v;
    }
  }

  // A few games of the model against itself from each class's position.
  if (options.games_per_opening > 0) {
    if (progress)
      progress("openings: " + std::to_string(options.games_per_opening) + " self-play games from each class");
    std::vector<const GameState*> starts;
    std::vector<size_t> class_of_game;
    for (size_t i = 0; i < classes.size(); ++i) {
      if (after[i]->is_over()) continue;
      for (int g = 0; g < options.games_per_opening; ++g) {
        starts.push_back(after[i].get());
        class_of_game.push_back(i);
      }
    }
    SelfPlayOptions so;
    so.search = options.search;
    so.sampled_turns = options.sampled_turns;
    so.seed = derive_seed(options.seed, 1);
    const auto played = play_self_games(starts, player, so);
    for (size_t k = 0; k < played.size(); ++k) {
      OpeningValue& o = per_class[class_of_game[k]];
      ++o.games;
      count_game(winner_of(played[k].outcome), opener, &o.wins, &o.draws, &o.losses);
    }
    for (OpeningValue& o : per_class) {
      if (o.games == 0) continue;
      const ScoreInterval s = score_interval(o.wins, o.draws, o.losses);
      o.games_value = 2 * s.score - 1;
      o.low = 2 * s.low - 1;
      o.high = 2 * s.high - 1;
    }
  }

  // The solver, a time limit per class; the table is shared, so later classes reuse earlier proofs.
  if (options.solve_seconds > 0) {
    if (progress) progress(fmt::format("openings: solving each class, {:g} s at most", options.solve_seconds));
    ProofSearch search(game, options.solve_memory_bytes);
    for (size_t i = 0; i < classes.size(); ++i) {
      search.set_deadline(seconds_from_now(options.solve_seconds));
      const GameValue v = value_for(search, *after[i], opener);
      per_class[i].proven = search.stopped() ? GameValue::kUnknown : v;
      search.clear_deadline();
    }
  }

  std::vector<OpeningValue> map;
  for (size_t i = 0; i < classes.size(); ++i)
    for (int a : classes[i]) {
      OpeningValue o = per_class[i];
      o.action = a;
      o.move = start->action_to_string(a);
      o.swap = o.value > 0;
      map.push_back(o);
    }
  std::sort(map.begin(), map.end(), [](const OpeningValue& a, const OpeningValue& b) { return a.action < b.action; });
  return map;
}

int apply_books(const GameSpec& spec, const std::vector<BookEntry>& book, std::vector<OpeningValue>* map) {
  const GameSpec game = opening_game(spec);
  const auto start = new_game(game);
  const Player opener = start->to_move();
  std::map<std::string, GameValue> by_class;  // representative move -> value for the opener
  std::map<std::string, std::string> class_of;
  for (const OpeningValue& o : *map) class_of[o.move] = o.representative;
  for (const BookEntry& e : book) {
    if (e.spec != game || e.value == GameValue::kUnknown) continue;
    if (e.record.empty()) {
      if (e.to_move != opener) continue;
      for (const OpeningValue& o : *map) {
        const bool wins = std::find(e.winning_moves.begin(), e.winning_moves.end(), o.move) != e.winning_moves.end();
        if (wins) by_class[o.representative] = GameValue::kWin;
        // Not among the winning moves of a won start: a loss where no draw is possible.
        else if (e.value == GameValue::kLoss || (e.value == GameValue::kWin && !can_draw(game)))
          by_class.emplace(o.representative, GameValue::kLoss);
      }
      continue;
    }
    if (e.record.find(' ') != std::string::npos || !class_of.count(e.record)) continue;
    by_class[class_of[e.record]] = e.to_move == opener ? e.value : flip(e.value);
  }
  int proved = 0;
  for (OpeningValue& o : *map) {
    const auto it = by_class.find(o.representative);
    if (o.proven != GameValue::kUnknown || it == by_class.end()) continue;
    o.proven = it->second;
    ++proved;
  }
  return proved;
}

}  // namespace quax
