// Numbers as the progress lines of long jobs show them, and what a training run waits for.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace quax {

// 950, 12.3k, 4.56M.
inline std::string short_count(double v) {
  if (v >= 1e6) return fmt::format("{:.2f}M", v / 1e6);
  if (v >= 1e4) return fmt::format("{:.1f}k", v / 1e3);
  return fmt::format("{:.0f}", v);
}

// 3m07s, 2h05m; "?" for a negative time.
inline std::string duration_text(double s) {
  if (s < 0) return "?";
  const int64_t t = static_cast<int64_t>(s);
  if (t >= 3600) return fmt::format("{}h{:02d}m", t / 3600, (t / 60) % 60);
  return fmt::format("{}m{:02d}s", t / 60, t % 60);
}

// 950, 3,120, 10,000, -1,234: every digit, grouped in threes, for counts read against a target.
inline std::string grouped_count(int64_t v) {
  const std::string digits = std::to_string(v < 0 ? -static_cast<uint64_t>(v) : static_cast<uint64_t>(v));
  std::string out = v < 0 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// The progress line's part for a learner that waits for its replay window to hold `need`
// positions (replay.min_positions) before it trains, `have` being there or in finished games:
//   "filling the window: 3,120 / 10,000 positions before the learner starts, about 2m12s"
// the time at `per_second` positions/s: the rate of finished games so far, or the rate the
// searches' evaluations stand for (`from_searches`: higher before the first wave of games
// has ended), which the text then names; with no rate at all (0) it says no game has
// finished. When the time
// is beyond `seconds_left` (the run's time limit; negative: none) it says the run ends
// first, so that a short run does not sit at step 0 without a word. `have` >= `need`: the
// window is full and the learner starting.
inline std::string window_filling_text(int64_t have, int64_t need, double per_second, bool from_searches,
                                       double seconds_left) {
  if (have >= need)
    return fmt::format("window full: {} / {} positions, the learner starts", grouped_count(need), grouped_count(need));
  std::string text = fmt::format("filling the window: {} / {} positions before the learner starts",
                                 grouped_count(have < 0 ? 0 : have), grouped_count(need));
  if (!(per_second > 0)) return text + ", no game finished yet";
  const double seconds = static_cast<double>(need - have) / per_second;
  text += ", about " + duration_text(seconds);
  if (from_searches) text += " (at the search rate)";
  if (seconds_left >= 0 && seconds > seconds_left)
    text += fmt::format(" (more than the {} this run has left: raise run.max_minutes)", duration_text(seconds_left));
  return text;
}

}  // namespace quax
