#include "solve/solver.h"

#include <cassert>

#include <map>
#include <memory>

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
  Solution out;
  const Player mover = state.to_move();
  std::vector<int> actions;
  state.legal_actions(&actions);
  out.moves = static_cast<int>(actions.size());
  // The position's own value first: the search then picks its moves by proof numbers, which
  // finds a win far sooner than trying the moves in order, and it fills the table.
  const GameValue root = solve_value(search, state);
  if (root == GameValue::kUnknown) {
    state.legal_actions(&out.unknown_moves);
    return out;
  }
  std::map<uint64_t, GameValue> by_class;
  auto child = state.clone();
  for (int a : actions) {
    child->copy_from(state);
    child->apply(a);
    GameValue v;
    const uint64_t cls = use_symmetry ? symmetric_key(*child) : 0;
    if (auto it = by_class.find(cls); use_symmetry && it != by_class.end()) {
      v = it->second;
    } else {
      v = value_for(search, *child, mover);
      ++out.moves_solved;
      // An unknown value is not shared: a later image gets its own try.
      if (use_symmetry && v != GameValue::kUnknown) by_class[cls] = v;
    }
    if (v == GameValue::kWin) out.winning_moves.push_back(a);
    if (v == GameValue::kUnknown) out.unknown_moves.push_back(a);
  }
  // The moves agree with the root's proof (a winning move exactly when the root wins); when
  // the deadline left some of them unknown, the root's value still stands.
  assert(out.winning_moves.empty() || root == GameValue::kWin);
  out.value = root;
  return out;
}

}  // namespace quax
