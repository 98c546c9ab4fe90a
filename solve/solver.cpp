#include "solve/solver.h"

#include <cassert>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "solve/symmetric_key.h"

namespace quax {

std::string value_name(GameValue v) {
  switch (v) {
    case GameValue::kWin: return "win";
    case GameValue::kLoss: return "loss";
    case GameValue::kDraw: return "draw";
    case GameValue::kUnknown: break;
  }
  return "unknown";
}

bool parse_value(const std::string& text, GameValue* out) {
  for (GameValue v : {GameValue::kWin, GameValue::kLoss, GameValue::kDraw, GameValue::kUnknown}) {
    if (value_name(v) == text) {
      *out = v;
      return true;
    }
  }
  return false;
}

GameValue flip(GameValue v) {
  if (v == GameValue::kWin) return GameValue::kLoss;
  if (v == GameValue::kLoss) return GameValue::kWin;
  return v;
}

bool can_draw(const GameSpec& spec) { return variant_info(spec.variant).can_draw; }

GameValue solve_value(ProofSearch& search, const GameState& state) {
  const Player mover = state.to_move();
  if (!can_draw(state.spec())) {
    // Always ask about Black, so every proof lands in one table and serves both colours.
    const Proof p = search.prove(state, Player::kBlack);
    if (p == Proof::kUnknown) return GameValue::kUnknown;
    const bool black_wins = p == Proof::kProven;
    return black_wins == (mover == Player::kBlack) ? GameValue::kWin : GameValue::kLoss;
  }
  const Proof mine = search.prove(state, mover);
  if (mine == Proof::kProven) return GameValue::kWin;
  if (mine == Proof::kUnknown) return GameValue::kUnknown;
  const Proof theirs = search.prove(state, opponent(mover));
  if (theirs == Proof::kProven) return GameValue::kLoss;
  if (theirs == Proof::kUnknown) return GameValue::kUnknown;
  return GameValue::kDraw;
}

GameValue value_for(ProofSearch& search, const GameState& state, Player root_mover) {
  if (state.is_over()) {
    const Player w = winner_of(state.outcome());
    if (w == Player::kNone) return GameValue::kDraw;
    return w == root_mover ? GameValue::kWin : GameValue::kLoss;
  }
  const GameValue v = solve_value(search, state);
  return state.to_move() == root_mover ? v : flip(v);
}

Solution solve_moves(ProofSearch& search, const GameState& state, bool use_symmetry) {
  return solve_moves(std::vector<ProofSearch*>{&search}, state, use_symmetry);
}

Solution solve_moves(const std::vector<ProofSearch*>& searches, const GameState& state, bool use_symmetry,
                     const MoveSolved& solved) {
  assert(!searches.empty());
  Solution out;
  const Player mover = state.to_move();
  std::vector<int> actions;
  state.legal_actions(&actions);
  out.moves = static_cast<int>(actions.size());
  // The position's own value first: the search then picks its moves by proof numbers, which
  // finds a win far sooner than trying the moves in order, and it fills the table.
  const GameValue root = solve_value(*searches[0], state);
  if (root == GameValue::kUnknown) {
    state.legal_actions(&out.unknown_moves);
    return out;
  }
  // One search per move, or per class of symmetric moves: `first[i]` is the index in
  // `actions` of the move whose search answers for actions[i].
  std::vector<int> first(actions.size());
  std::vector<size_t> to_search;
  {
    std::map<uint64_t, int> by_class;
    auto child = state.clone();
    for (size_t i = 0; i < actions.size(); ++i) {
      child->copy_from(state);
      child->apply(actions[i]);
      const auto [it, fresh] = by_class.emplace(use_symmetry ? symmetric_key(*child) : i, static_cast<int>(i));
      first[i] = it->second;
      if (fresh) to_search.push_back(i);
    }
  }
  // Each thread takes the next move no thread has taken, with a search of its own.
  std::vector<GameValue> value(actions.size(), GameValue::kUnknown);
  std::atomic<size_t> next{0};
  std::mutex report;
  auto work = [&](ProofSearch& search) {
    auto child = state.clone();
    for (size_t k; (k = next.fetch_add(1)) < to_search.size();) {
      const size_t i = to_search[k];
      child->copy_from(state);
      child->apply(actions[i]);
      value[i] = value_for(search, *child, mover);
      if (solved) {
        const std::lock_guard<std::mutex> lock(report);
        solved(actions[i], value[i]);
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < searches.size(); ++t) threads.emplace_back(work, std::ref(*searches[t]));
  work(*searches[0]);
  for (std::thread& t : threads) t.join();
  out.moves_solved = static_cast<int>(to_search.size());
  for (size_t i = 0; i < actions.size(); ++i) {
    const GameValue v = value[static_cast<size_t>(first[i])];
    if (v == GameValue::kWin) out.winning_moves.push_back(actions[i]);
    if (v == GameValue::kUnknown) out.unknown_moves.push_back(actions[i]);
  }
  // The moves agree with the root's proof (a winning move exactly when the root wins); when
  // the deadline left some of them unknown, the root's value still stands.
  assert(out.winning_moves.empty() || root == GameValue::kWin);
  out.value = root;
  return out;
}

}  // namespace quax
