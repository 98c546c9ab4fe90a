// Elo ratings by maximum likelihood over all games (the Bradley-Terry model), with
// standard errors from the observed information, and a sequential probability ratio
// test for two-player matches. No LibTorch: plain Eigen.
#pragma once

#include <string>
#include <vector>

namespace quax {

// Games between players i and j (indices into the player list), from i's side.
struct PairRecord {
  int i = 0, j = 0;
  double wins_i = 0, wins_j = 0, draws = 0;
};

struct EloFit {
  std::vector<double> elo;     // anchored: elo[anchor] == anchor_elo
  std::vector<double> stderr_;  // standard error of each rating (0 for the anchor)
  int iterations = 0;
  bool converged = false;
};

// Fits P(i beats j) = 1 / (1 + 10^((elo_j - elo_i) / 400)) by Newton's method, a draw
// counting as half a win for each side. `prior_games` virtual draws between every player
// and the anchor keep the fit finite when a player won or lost every game (KataGo's
// Elo tools do the same); 0 disables them. Players with no games at all get the anchor's
// rating plus the prior's uncertainty. Precondition: 0 <= anchor < num_players.
EloFit fit_elo(int num_players, const std::vector<PairRecord>& records, int anchor, double anchor_elo = 0.0,
               double prior_games = 1.0);

// The Elo difference for an expected score s in (0, 1), and back.
double elo_from_score(double score);
double score_from_elo(double elo);

// Generalized SPRT of H0: elo difference = elo0 against H1: elo1, with the usual normal
// approximation of the trinomial (win/draw/loss) log-likelihood ratio.
struct SprtResult {
  double llr = 0, lower = 0, upper = 0;
  enum class Decision { kContinue, kAcceptH0, kAcceptH1 } decision = Decision::kContinue;
};
// Precondition: check_sprt_parameters(elo0, elo1, alpha, beta) is empty.
SprtResult sprt(double wins, double draws, double losses, double elo0, double elo1, double alpha, double beta);
// Empty when the test is well posed: finite elo0 < elo1, and error rates alpha (of accepting
// H1 when H0 holds) and beta (the reverse) in (0, 0.5), above which the test would accept a
// hypothesis more readily when it is false than when it is true. Else one line naming the
// parameter and its value.
std::string check_sprt_parameters(double elo0, double elo1, double alpha, double beta);
std::string sprt_decision_name(SprtResult::Decision d);

}  // namespace quax
