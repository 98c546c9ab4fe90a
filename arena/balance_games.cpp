#include "arena/balance_games.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "arena/strength_curve.h"
#include "mcts/evaluation_batch.h"
#include "mcts/search_agent.h"
#include "mcts/search_schema.h"
#include "mcts/search_tree.h"

namespace quax {

std::vector<PlayedGame> play_self_games(const std::vector<const GameState*>& starts, const BalancePlayer& player,
                                        const SelfPlayOptions& options) {
  std::vector<PlayedGame> out(starts.size());
  if (starts.empty()) return out;
  struct Game {
    std::unique_ptr<GameState> state;
    int played = 0;
    int turns = 0;  // turns completed since the start: the times the player to move changed
  };
  std::vector<Game> games(starts.size());
  const int max_plies = 4 * starts[0]->num_actions();
  PositionSearcher searcher(player, options.search);
  Rng rng(options.seed);
  size_t next = 0;  // the next game to start
  std::vector<size_t> active;
  for (;;) {
    // Games start as others finish, at most parallel_games in flight (a search tree each).
    while (next < games.size() && static_cast<int>(active.size()) < std::max(1, options.parallel_games)) {
      games[next].state = starts[next]->clone();
      out[next].opener = starts[next]->to_move();
      active.push_back(next++);
    }
    std::vector<size_t> searching;
    std::vector<const GameState*> positions;
    std::vector<bool> sample;
    for (size_t i : active) {
      Game& g = games[i];
      if (g.state->is_over() || g.played >= max_plies) continue;
      searching.push_back(i);
      positions.push_back(g.state.get());
      sample.push_back(g.turns < options.sampled_turns);
    }
    active = searching;
    if (active.empty()) {
      if (next < games.size()) continue;
      break;
    }
    const std::vector<RootSearch> found = searcher.search(positions, sample, rng);
    for (size_t k = 0; k < active.size(); ++k) {
      Game& g = games[active[k]];
      PlayedGame& p = out[active[k]];
      const Player mover = g.state->to_move();
      const double v = found[k].value;
      p.black_values.push_back(static_cast<float>(mover == Player::kBlack ? v : -v));
      const int action = found[k].action;
      if (g.state->move_number() == 1 && g.state->action_to_string(action) == "swap") p.swapped = true;
      g.state->apply(action);
      ++g.played;
      if (g.state->to_move() != mover) ++g.turns;
    }
  }
  for (size_t i = 0; i < games.size(); ++i) {
    out[i].outcome = games[i].state->is_over() ? games[i].state->outcome() : Outcome::kDraw;
    out[i].plies = games[i].state->move_number();
  }
  return out;
}

FirstPlayerTally tally_first_player(const std::vector<PlayedGame>& games) {
  FirstPlayerTally t;
  for (const PlayedGame& g : games) {
    ++t.games;
    if (g.outcome == Outcome::kBlackWins)
      ++t.black_wins;
    else if (g.outcome == Outcome::kWhiteWins)
      ++t.white_wins;
    else
      ++t.draws;
    if (g.swapped) ++t.swapped;
  }
  const ScoreInterval s = score_interval(t.black_wins, t.draws, t.white_wins);
  t.rate = s.score;
  t.low = s.low;
  t.high = s.high;
  return t;
}

LengthSummary summarize_lengths(const std::vector<PlayedGame>& games) {
  LengthSummary s;
  std::vector<int> lengths;
  for (const PlayedGame& g : games) {
    lengths.push_back(g.plies);
    ++s.histogram[g.plies];
  }
  if (lengths.empty()) return s;
  std::sort(lengths.begin(), lengths.end());
  s.games = static_cast<int>(lengths.size());
  s.mean = std::accumulate(lengths.begin(), lengths.end(), 0.0) / s.games;
  // Nearest rank: the smallest length with at least the fraction q of the games at or below it.
  auto rank = [&](double q) {
    const int k = std::max(1, static_cast<int>(std::ceil(q * s.games)));
    return lengths[static_cast<size_t>(k - 1)];
  };
  s.min = lengths.front();
  s.q1 = rank(0.25);
  s.median = rank(0.5);
  s.q3 = rank(0.75);
  s.max = lengths.back();
  return s;
}

double decided_share(const PlayedGame& game, double threshold) {
  const Player winner = winner_of(game.outcome);
  const size_t n = game.black_values.size();
  if (winner == Player::kNone || n == 0) return -1;
  size_t k = n;  // the first index of the run of values above the threshold that reaches the end
  while (k > 0) {
    const float v = game.black_values[k - 1];
    if ((winner == Player::kBlack ? v : -v) <= threshold) break;
    --k;
  }
  return static_cast<double>(k) / static_cast<double>(n);
}

int lead_changes(const PlayedGame& game, double margin) {
  int side = 0, changes = 0;  // +1 Black ahead, -1 White, 0 not yet either
  for (float v : game.black_values) {
    const int now = v > margin ? 1 : (v < -margin ? -1 : side);
    if (side != 0 && now != side) ++changes;
    side = now;
  }
  return changes;
}

GameFlow summarize_flow(const std::vector<PlayedGame>& games, double threshold, double margin) {
  GameFlow f;
  f.threshold = threshold;
  f.margin = margin;
  double shares = 0, changes = 0;
  for (const PlayedGame& g : games) {
    const double s = decided_share(g, threshold);
    if (s >= 0) {
      shares += s;
      ++f.decisive_games;
    }
    changes += lead_changes(g, margin);
  }
  if (f.decisive_games > 0) f.decided_share = shares / f.decisive_games;
  if (!games.empty()) f.lead_changes = changes / static_cast<double>(games.size());
  return f;
}

}  // namespace quax
