// The clock of `quax gtp` (GTP 2 `time_settings` and `time_left`, section 4.2: main time,
// then Canadian byo-yomi of `byoyomi` seconds for every `stones` moves) and the time manager
// that decides how long one genmove may search, so that the engine never loses on time.
#pragma once

#include <array>
#include <string>

namespace quax {

class GtpClock {
 public:
  // time_settings: every colour gets `main` seconds, then `byoyomi` seconds per `stones`
  // moves. GTP's special cases: byoyomi > 0 with stones == 0 means no limit at all;
  // byoyomi == 0 means main time is all there is (sudden death). Returns "" or the reason
  // the numbers are refused (negative, not finite).
  std::string set(double main, double byoyomi, int stones);
  // time_left: `seconds` left for `colour` (0 black, 1 white); stones == 0 in main time,
  // else in byo-yomi with `stones` moves still to make in the period. Turns the clock on (a
  // client may send time_left without time_settings). "" or the reason it is refused.
  std::string set_left(int colour, double seconds, int stones);
  // No clock: genmove searches its own size.
  bool limited() const { return limited_; }

  // The engine's guess of the moves the mover still has to make when it has `legal_actions`
  // moves to choose from: a connection game ends long before the board is full (hex 11
  // between strong players: 40 to 90 of its 121 cells), so a share kPlayedFraction of them is
  // guessed still to be played, half by each side. Guessing every cell spent a fifth of a
  // 5 s clock in a 46-move hex 11 game.
  static int moves_left(int legal_actions);
  static constexpr double kPlayedFraction = 0.4;

  // How long `colour`'s genmove may search now, 0 when there is no clock. `moves_left` is
  // the engine's guess of the moves it still has to make; the main time is shared over
  // max(kMinMovesLeft, moves_left) moves (plus a byo-yomi period's share once in it), less a
  // margin per move, and never more than what is left less a margin for the whole clock.
  double budget(int colour, int moves_left) const;
  // Charges `seconds` spent by `colour`'s move: main time first, then byo-yomi periods.
  // `searched` is the budget the move was given: what it took beyond that (the search's last
  // batch, building the tree, the answer) is remembered and taken off the next budgets.
  void spend(int colour, double seconds, double searched);

  // Seconds left to `colour` (main time, or the period's once in byo-yomi), for tests.
  double left(int colour) const { return side_[colour].left; }

  // The main time is spread over at least this many moves: a guess of the moves left that is
  // too low late in a game still leaves something for the moves after it.
  static constexpr int kMinMovesLeft = 10;
  // The part of a move's share, and of the time left, that a search leaves unused, and the
  // seconds it keeps besides (a search overruns its deadline by one network batch; the
  // answer and the client's clock take some more).
  static constexpr double kSafetyFraction = 0.1;
  static constexpr double kSafetySeconds = 0.05;
  // The shortest search a clock asks for (at least one simulation runs anyway).
  static constexpr double kMinSearchSeconds = 0.001;

 private:
  struct Side {
    double left = 0;      // main time, or the current byo-yomi period's
    int stones = 0;       // 0: in main time; else moves still to make in the period
  };
  bool limited_ = false;
  double overhead_ = kSafetySeconds;  // a move's seconds beyond its budget, averaged
  double byoyomi_ = 0;
  int byoyomi_stones_ = 0;
  std::array<Side, 2> side_{};
};

}  // namespace quax
