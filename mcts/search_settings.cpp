#include "mcts/search_settings.h"

#include <cmath>

namespace quax {

std::string check_settings(const SearchSettings& s) {
  if (s.simulations < 1) return "simulations must be at least 1 (got " + std::to_string(s.simulations) + ")";
  if (!(s.c_puct > 0.0f)) return "c_puct must be positive";
  if (!(s.fpu_reduction >= 0.0f) || !(s.root_fpu_reduction >= 0.0f)) return "fpu_reduction must be >= 0";
  if (!(s.dirichlet_fraction >= 0.0f && s.dirichlet_fraction <= 1.0f)) return "dirichlet_fraction must be in [0, 1]";
  if (s.dirichlet_fraction > 0.0f && !(s.dirichlet_alpha_total > 0.0f)) return "dirichlet_alpha_total must be positive";
  if (s.leaves_per_batch < 1 || s.leaves_per_batch > 1024) return "leaves_per_batch must be in [1, 1024]";
  if (!(s.virtual_loss >= 0.0f)) return "virtual_loss must be >= 0";
  if (!(s.forced_playouts_k >= 0.0f)) return "forced_playouts_k must be >= 0";
  if (s.gumbel_m < 1) return "gumbel_m must be at least 1";
  if (!(s.gumbel_c_visit >= 0.0f) || !(s.gumbel_c_scale > 0.0f)) return "gumbel_c_visit must be >= 0 and gumbel_c_scale > 0";
  if (!(s.prior_temperature < 0.0f || s.prior_temperature <= 100.0f)) return "prior_temperature must be at most 100";
  return {};
}

}  // namespace quax
