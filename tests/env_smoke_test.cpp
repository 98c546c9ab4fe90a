#include <gtest/gtest.h>
#include "env/game_state.h"
namespace quax {
TEST(Smoke, RandomGamesEnd) {
  Rng rng(3);
  for (int i = 0; i < 100; ++i) {
    auto s = new_game(GameSpec{Variant::kQuax, 5, true});
    EXPECT_NE(s->play_random_to_end(rng), Outcome::kOngoing);
  }
}
}
