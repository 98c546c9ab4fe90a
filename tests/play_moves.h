// Test helper: plays moves written in the game's notation, one after another, each of which
// must parse and be legal (a gtest assertion fails naming the move otherwise).
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "env/game_state.h"

namespace quax::testing {

// `moves` is a space-separated list ("c3 d4 end"). Stops at the first failure.
inline void play(GameState& s, const std::string& moves) {
  std::istringstream in(moves);
  std::string m, err;
  while (in >> m) {
    const int a = s.parse_action(m, &err);
    ASSERT_GE(a, 0) << m << ": " << err;
    ASSERT_EQ(s.why_illegal(a), "") << "move " << m;
    s.apply(a);
  }
}

}  // namespace quax::testing
