// The time-to-strength curve of `quax bench strength`: one point per model kept during a
// training run (its training minutes and its games against one fixed opponent), the score
// with its 95% interval, the first time the score reaches a target, and the curve as CSV and
// as an SVG plot.
#pragma once

#include <string>
#include <vector>

#include "env/types.h"

namespace quax {

struct StrengthPoint {
  double minutes = 0;  // training time when the model was kept
  int64_t step = -1;   // learner step, when known (-1: not known)
  int wins = 0, draws = 0, losses = 0;  // from the model's side
  int distinct = 0;  // of those games, how many differ in colours or moves (a repeat is not another sample)
  // Mean seconds a chosen move of each side, over the games that timed their moves (agent
  // games: a program over GTP, uct); 0 when none did.
  double model_seconds = 0, opponent_seconds = 0;

  int games() const { return wins + draws + losses; }
};

struct ScoreInterval {
  double score = 0;  // (wins + draws / 2) / games; 0 for no games
  double low = 0, high = 0;  // 95% Wilson score interval, within [0, 1]
};

ScoreInterval score_interval(int wins, int draws, int losses);
// Counts one game for `side`: a win, a loss, or a draw when `winner` is Player::kNone.
inline void count_game(Player winner, Player side, int* wins, int* draws, int* losses) {
  if (winner == Player::kNone)
    ++*draws;
  else if (winner == side)
    ++*wins;
  else
    ++*losses;
}

// Training minutes of the earliest point (by minutes) whose score is at least `target`
// (a fraction in [0, 1]); -1 when no point reaches it.
double minutes_to_target(const std::vector<StrengthPoint>& points, double target);

// "minutes,step,games,wins,draws,losses,score,low,high,distinct,model_s_move,opponent_s_move"
// and one line per point, by minutes.
std::string strength_csv(const std::vector<StrengthPoint>& points);
// Score in percent against training minutes, intervals as error bars, the target dashed.
std::string strength_svg(const std::vector<StrengthPoint>& points, double target, const std::string& title);

}  // namespace quax
