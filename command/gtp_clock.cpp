#include "command/gtp_clock.h"

#include <algorithm>
#include <cmath>

namespace quax {

namespace {
// Longer than any game anyone waits for: keeps the arithmetic finite.
constexpr double kMaxClockSeconds = 1e7;

bool bad_seconds(double s) { return !std::isfinite(s) || s < 0 || s > kMaxClockSeconds; }
}  // namespace

std::string GtpClock::set(double main, double byoyomi, int stones) {
  if (bad_seconds(main) || bad_seconds(byoyomi) || stones < 0)
    return "time_settings takes main time, byo-yomi time (seconds, 0 or more) and byo-yomi stones (0 or more)";
  if (byoyomi > 0 && stones == 0) {  // GTP: no time limit
    limited_ = false;
    return "";
  }
  limited_ = true;
  byoyomi_ = byoyomi;
  byoyomi_stones_ = byoyomi > 0 ? stones : 0;
  for (Side& s : side_) {
    s.left = main;
    s.stones = 0;
    if (main <= 0 && byoyomi_stones_ > 0) {  // no main time: straight into byo-yomi
      s.left = byoyomi_;
      s.stones = byoyomi_stones_;
    }
  }
  return "";
}

std::string GtpClock::set_left(int colour, double seconds, int stones) {
  if (bad_seconds(seconds) || stones < 0) return "time_left takes a colour, seconds (0 or more) and stones (0 or more)";
  limited_ = true;
  side_[colour].left = seconds;
  side_[colour].stones = stones;
  return "";
}

int GtpClock::moves_left(int legal_actions) {
  return static_cast<int>(std::lround(legal_actions * kPlayedFraction / 2));
}

double GtpClock::budget(int colour, int moves_left) const {
  if (!limited_) return 0;
  const Side& s = side_[colour];
  double share, available;
  if (s.stones > 0) {  // in byo-yomi: the period shared over its stones
    share = s.left / s.stones;
    available = s.left;
  } else {
    share = s.left / std::max(kMinMovesLeft, moves_left);
    available = s.left;
    if (byoyomi_stones_ > 0) {  // main time running out only starts a period
      share += byoyomi_ / byoyomi_stones_;
      available += byoyomi_;
      share = std::min(share, available / 2);
    }
  }
  // Each move keeps a margin of its own (its answer, the client's reading of it), and the
  // clock as a whole never runs down to zero.
  share = share * (1 - kSafetyFraction) - kSafetySeconds - overhead_;
  const double cap = available - kSafetySeconds - kSafetyFraction * available;
  return std::max(kMinSearchSeconds, std::min(share, cap));
}

void GtpClock::spend(int colour, double seconds, double searched) {
  if (!limited_) return;
  if (searched > 0) overhead_ = 0.5 * overhead_ + 0.5 * std::max(0.0, seconds - searched);
  Side& s = side_[colour];
  if (s.stones == 0) {
    s.left -= seconds;
    if (s.left >= 0 || byoyomi_stones_ == 0) {
      s.left = std::max(0.0, s.left);
      return;
    }
    // Main time ran out during the move: the rest of it counts against a first period.
    seconds = -s.left;
    s.left = byoyomi_;
    s.stones = byoyomi_stones_;
  }
  s.left = std::max(0.0, s.left - seconds);
  if (--s.stones == 0) {  // the period's moves made in time: a fresh period
    s.left = byoyomi_;
    s.stones = byoyomi_stones_;
  }
}

}  // namespace quax
