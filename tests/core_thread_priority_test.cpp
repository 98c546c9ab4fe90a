// Per-thread priority (core/thread_priority.h): a thread lowers its own priority and no other's.
#include <gtest/gtest.h>

#include <thread>

#include "core/thread_priority.h"

namespace quax {
namespace {

TEST(ThreadPriority, AThreadLowersItsOwnPriorityAndNoOtherThreads) {
  const int main_before = this_thread_nice();
  int inside_before = 0, inside_after = 0;
  bool lowered = false;
  std::thread t([&] {
    inside_before = this_thread_nice();
    lowered = lower_this_thread_priority(3);
    inside_after = this_thread_nice();
  });
  t.join();
  ASSERT_TRUE(lowered);
  EXPECT_EQ(inside_before, main_before);  // a new thread starts at its creator's value
  EXPECT_EQ(inside_after, std::min(19, main_before + 3));
  EXPECT_EQ(this_thread_nice(), main_before);
}

TEST(ThreadPriority, StopsAtTheLowestPriority) {
  std::thread t([] {
    ASSERT_TRUE(lower_this_thread_priority(100));
    EXPECT_EQ(this_thread_nice(), 19);
    ASSERT_TRUE(lower_this_thread_priority(1));  // already there: nothing to refuse
    EXPECT_EQ(this_thread_nice(), 19);
  });
  t.join();
}

}  // namespace
}  // namespace quax
