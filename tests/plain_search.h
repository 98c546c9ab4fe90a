// The plain proof search: solve/proof_search.h with its pruning rules off, the reference the
// solver's tests check each rule against (virtual connections of the square variants and of
// hex, inferior moves) on positions it can solve.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>

#include "env/game_state.h"
#include "solve/proof_search.h"
#include "solve/solver.h"

namespace quax {

// A search of `spec` without the virtual connections (the inferior moves are off by default),
// with a table of `memory_bytes`.
inline std::unique_ptr<ProofSearch> plain_search(const GameSpec& spec, std::size_t memory_bytes) {
  auto search = std::make_unique<ProofSearch>(spec, memory_bytes);
  search->set_virtual_connections(false);
  return search;
}

// The value for `p` of `state` (not over) by the plain search: true when p wins. A failed
// expectation where the search leaves it unknown.
inline bool plain_win(ProofSearch& plain, const GameState& state, Player p) {
  const GameValue v = solve_value(plain, state);
  EXPECT_NE(v, GameValue::kUnknown);
  return (v == GameValue::kWin) == (state.to_move() == p);
}

}  // namespace quax
