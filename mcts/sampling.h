// Random draws the search needs beyond Rng's uniform ones: Gamma (for Dirichlet noise)
// and Gumbel. Written on top of Rng so that searches stay reproducible from a seed.
#pragma once

#include <cmath>

#include "env/rng.h"

namespace quax {

// Standard normal, Box-Muller (one of the pair is thrown away: simpler, fast enough here).
inline double sample_normal(Rng& rng) {
  double u1 = rng.uniform();
  while (u1 <= 0.0) u1 = rng.uniform();
  const double u2 = rng.uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// Gamma(alpha, 1), alpha > 0: Marsaglia and Tsang (2000), with the alpha < 1 boost
// Gamma(alpha) = Gamma(alpha + 1) * U^(1/alpha).
inline double sample_gamma(Rng& rng, double alpha) {
  if (alpha < 1.0) {
    double u = rng.uniform();
    while (u <= 0.0) u = rng.uniform();
    return sample_gamma(rng, alpha + 1.0) * std::pow(u, 1.0 / alpha);
  }
  const double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = sample_normal(rng);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = rng.uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

// Standard Gumbel: -log(-log U).
inline double sample_gumbel(Rng& rng) {
  double u = rng.uniform();
  while (u <= 0.0) u = rng.uniform();
  return -std::log(-std::log(u));
}

}  // namespace quax
