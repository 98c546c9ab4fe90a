// Numbers as the progress lines of long jobs show them.
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

}  // namespace quax
