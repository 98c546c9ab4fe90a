// What a training run's progress line says while the learner waits for its replay window
// (issue 29): before, a short run showed "games 0 | positions 0 ... step 0" for minutes
// with nothing saying it waits, for what, or for how long.
#include <gtest/gtest.h>

#include "train/progress_text.h"

namespace quax {
namespace {

TEST(ProgressText, CountsAreGroupedInThrees) {
  EXPECT_EQ(grouped_count(0), "0");
  EXPECT_EQ(grouped_count(950), "950");
  EXPECT_EQ(grouped_count(3120), "3,120");
  EXPECT_EQ(grouped_count(10000), "10,000");
  EXPECT_EQ(grouped_count(1234567), "1,234,567");
  EXPECT_EQ(grouped_count(-1234), "-1,234");
}

TEST(ProgressText, FillingTheWindowSaysWhatTheRunWaitsForAndHowLong) {
  // No game finished yet: what it waits for, without a guess of the time.
  EXPECT_EQ(window_filling_text(0, 10000, 0.0, false, 120),
            "filling the window: 0 / 10,000 positions before the learner starts, no game finished yet");
  // Before the games end, a rate from the searches: the time, saying where it comes from.
  EXPECT_EQ(window_filling_text(0, 10000, 20.0, true, -1),
            "filling the window: 0 / 10,000 positions before the learner starts, about 8m20s (at the search rate)");
  // At 52 positions/s the 6,880 missing take 132 s.
  EXPECT_EQ(window_filling_text(3120, 10000, 52.0, false, 600),
            "filling the window: 3,120 / 10,000 positions before the learner starts, about 2m12s");
  EXPECT_EQ(window_filling_text(3120, 10000, 52.0, false, -1),
            "filling the window: 3,120 / 10,000 positions before the learner starts, about 2m12s");
  // The run's time limit comes first: it says so (the run would otherwise end at step 0).
  EXPECT_EQ(window_filling_text(3120, 10000, 52.0, false, 90),
            "filling the window: 3,120 / 10,000 positions before the learner starts, about 2m12s (more than the "
            "1m30s this run has left: raise run.max_minutes)");
  // Finished games beyond the target (their shard not read yet): full, never "10,240 / 10,000".
  EXPECT_EQ(window_filling_text(10240, 10000, 52.0, false, 90),
            "window full: 10,000 / 10,000 positions, the learner starts");
}

}  // namespace
}  // namespace quax
