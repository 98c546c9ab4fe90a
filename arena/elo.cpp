#include "arena/elo.h"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace quax {

namespace {
constexpr double kLn10Over400 = 2.302585092994046 / 400.0;
// Newton's method on the log-likelihood: the cap on iterations (it converges in a handful),
// the cap on one step of a rating (natural-log units, about 350 Elo, so a first step from
// zero cannot overshoot far on lopsided results), and the step size that counts as converged.
constexpr int kMaxIterations = 100;
constexpr double kMaxStep = 2.0;
constexpr double kConvergedStep = 1e-10;
// Stands in for the zero information of a player without games, keeping the system solvable.
constexpr double kNoInformation = 1e-9;
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }
double elo_from_score(double score) { return -400.0 * std::log10(1.0 / score - 1.0); }

EloFit fit_elo(int num_players, const std::vector<PairRecord>& records, int anchor, double anchor_elo,
               double prior_games) {
  // Work in natural units r = elo * ln10 / 400 so that P(i beats j) = sigmoid(r_i - r_j).
  // Games aggregated into a matrix of (score of i against j, games between i and j).
  Eigen::MatrixXd score = Eigen::MatrixXd::Zero(num_players, num_players);
  Eigen::MatrixXd games = Eigen::MatrixXd::Zero(num_players, num_players);
  auto add = [&](int i, int j, double si, double n) {
    score(i, j) += si;
    score(j, i) += n - si;
    games(i, j) += n;
    games(j, i) += n;
  };
  for (const auto& r : records) {
    if (r.i == r.j) continue;
    add(r.i, r.j, r.wins_i + 0.5 * r.draws, r.wins_i + r.wins_j + r.draws);
  }
  if (prior_games > 0)
    for (int p = 0; p < num_players; ++p)
      if (p != anchor) add(p, anchor, 0.5 * prior_games, prior_games);

  // Free parameters: every player but the anchor (r_anchor = 0).
  std::vector<int> free_index(num_players, -1);
  int k = 0;
  for (int p = 0; p < num_players; ++p)
    if (p != anchor) free_index[p] = k++;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(num_players);
  EloFit fit;
  Eigen::MatrixXd info(k, k);
  for (int it = 0; it < kMaxIterations; ++it) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(k);
    info.setZero();
    for (int i = 0; i < num_players; ++i) {
      for (int j = 0; j < num_players; ++j) {
        if (i == j || games(i, j) == 0) continue;
        const double p = 1.0 / (1.0 + std::exp(r(j) - r(i)));
        const double w = games(i, j) * p * (1 - p);
        if (free_index[i] >= 0) {
          grad(free_index[i]) += score(i, j) - games(i, j) * p;
          info(free_index[i], free_index[i]) += w;
          if (free_index[j] >= 0) info(free_index[i], free_index[j]) -= w;
        }
      }
    }
    // Players without games have a zero row: keep the system solvable.
    for (int a = 0; a < k; ++a)
      if (info(a, a) == 0) info(a, a) = kNoInformation;
    const Eigen::VectorXd step = info.ldlt().solve(grad);
    for (int p = 0; p < num_players; ++p)
      if (free_index[p] >= 0) r(p) += std::clamp(step(free_index[p]), -kMaxStep, kMaxStep);
    fit.iterations = it + 1;
    if (step.size() == 0 || step.cwiseAbs().maxCoeff() < kConvergedStep) {
      fit.converged = true;
      break;
    }
  }
  const Eigen::MatrixXd cov = k > 0 ? Eigen::MatrixXd(info.inverse()) : Eigen::MatrixXd();
  fit.elo.resize(num_players);
  fit.stderr_.assign(num_players, 0.0);
  for (int p = 0; p < num_players; ++p) {
    fit.elo[p] = anchor_elo + r(p) / kLn10Over400;
    if (free_index[p] >= 0) fit.stderr_[p] = std::sqrt(std::max(0.0, cov(free_index[p], free_index[p]))) / kLn10Over400;
  }
  return fit;
}

SprtResult sprt(double wins, double draws, double losses, double elo0, double elo1, double alpha, double beta) {
  SprtResult res;
  res.lower = std::log(beta / (1 - alpha));
  res.upper = std::log((1 - beta) / alpha);
  // Half a pseudo-game each way keeps the variance positive when one side has won or
  // lost every game so far.
  wins += 0.5;
  losses += 0.5;
  const double n = wins + draws + losses;
  {
    const double s = (wins + 0.5 * draws) / n;
    const double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
    const double s0 = score_from_elo(elo0), s1 = score_from_elo(elo1);
    if (var > 0) res.llr = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
  }
  if (res.llr >= res.upper) res.decision = SprtResult::Decision::kAcceptH1;
  else if (res.llr <= res.lower) res.decision = SprtResult::Decision::kAcceptH0;
  return res;
}

std::string check_sprt_parameters(double elo0, double elo1, double alpha, double beta) {
  if (!std::isfinite(elo0) || !std::isfinite(elo1)) return "elo0 and elo1 must be numbers";
  if (!(elo0 < elo1)) return fmt::format("elo0 ({}) must be below elo1 ({})", elo0, elo1);
  if (!(alpha > 0 && alpha < 0.5)) return fmt::format("alpha must be in (0, 0.5), not {}", alpha);
  if (!(beta > 0 && beta < 0.5)) return fmt::format("beta must be in (0, 0.5), not {}", beta);
  return "";
}

std::string sprt_decision_name(SprtResult::Decision d) {
  switch (d) {
    case SprtResult::Decision::kAcceptH0: return "H0 accepted (elo0)";
    case SprtResult::Decision::kAcceptH1: return "H1 accepted (elo1)";
    default: return "continue";
  }
}

}  // namespace quax
