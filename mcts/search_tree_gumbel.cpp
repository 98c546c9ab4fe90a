// The Gumbel parts of SearchTree (Danihelka et al. 2022, as in mctx): the visit schedule of
// sequential halving, completed Q values, and the root's and interior nodes' selection.
#include <algorithm>
#include <cmath>
#include <limits>

#include "mcts/search_tree.h"
#include "mcts/search_tree_internal.h"

namespace quax {

using namespace search_tree_internal;

// mctx seq_halving.get_sequence_of_considered_visits: the visit count an action must have
// to be eligible at each simulation index.
std::vector<int> SearchTree::considered_visits(int m, int n) {
  std::vector<int> seq;
  if (m <= 1) {
    for (int i = 0; i < n; ++i) seq.push_back(i);
    return seq;
  }
  const int log2max = static_cast<int>(std::ceil(std::log2(static_cast<double>(m))));
  std::vector<int> visits(m, 0);
  int considered = m;
  while (static_cast<int>(seq.size()) < n) {
    const int extra = std::max(1, n / (log2max * considered));
    for (int e = 0; e < extra; ++e) {
      for (int i = 0; i < considered; ++i) seq.push_back(visits[i]);
      for (int i = 0; i < considered; ++i) ++visits[i];
    }
    considered = std::max(2, considered / 2);
  }
  seq.resize(n);
  return seq;
}

float SearchTree::completed_q(int n, int8_t chooser, std::vector<float>* sigma) const {
  const Node& node = nodes_[n];
  // The children's values are for this node's mover (who chooses them); so must its own be.
  const double own_value = chooser == node.to_move ? node.raw_value : -node.raw_value;
  const int k = node.num_children;
  sigma->resize(k);
  int sum_n = 0, max_n = 0;
  double sum_p = 0.0, weighted = 0.0;
  for (int i = 0; i < k; ++i) {
    const Node& c = nodes_[node.first_child + i];
    if (c.visits == 0) continue;
    const double q = c.value_sum / c.visits;
    sum_n += c.visits;
    max_n = std::max(max_n, c.visits);
    const double p = std::max(c.prior, kTinyPrior);
    sum_p += p;
    weighted += p * q;
  }
  const double mixed = sum_n == 0 ? own_value : (own_value + sum_n * (weighted / sum_p)) / (sum_n + 1.0);
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (int i = 0; i < k; ++i) {
    const Node& c = nodes_[node.first_child + i];
    const float q = c.visits > 0 ? static_cast<float>(c.value_sum / c.visits) : static_cast<float>(mixed);
    (*sigma)[i] = q;
    lo = std::min(lo, q);
    hi = std::max(hi, q);
  }
  const float scale = (settings_.gumbel_c_visit + max_n) * settings_.gumbel_c_scale / std::max(hi - lo, kMinQSpread);
  for (int i = 0; i < k; ++i) (*sigma)[i] = ((*sigma)[i] - lo) * scale;
  return static_cast<float>(mixed);
}

int SearchTree::select_child_gumbel_root() const {
  const Node& root = nodes_[0];
  const int index = std::min<int>(root.visits - 1 + in_flight_, static_cast<int>(considered_visits_.size()) - 1);
  const int considered = considered_visits_[std::max(index, 0)];
  root_completed_q(&sigma_);
  int best = -1, fallback = -1;
  float best_score = -std::numeric_limits<float>::infinity(), fallback_score = best_score;
  for (int i = 0; i < root.num_children; ++i) {
    const Node& c = nodes_[root.first_child + i];
    const float score = std::max(kLowestScore, gumbel_[i] + root_logits_[i] + sigma_[i]);
    if (c.visits + c.in_flight == considered && score > best_score) {
      best_score = score;
      best = i;
    }
    if (score > fallback_score) {
      fallback_score = score;
      fallback = i;
    }
  }
  return root.first_child + (best >= 0 ? best : fallback);
}

int SearchTree::select_child_gumbel_interior(int n, int8_t chooser) const {
  const Node& node = nodes_[n];
  const int k = node.num_children;
  completed_q(n, chooser, &sigma_);
  // pi' = softmax(log prior + sigma); pick argmax pi'(a) - N(a) / (1 + sum N).
  scratch_.resize(k);
  float mx = -std::numeric_limits<float>::infinity();
  int sum_n = 0;
  for (int i = 0; i < k; ++i) {
    const Node& c = nodes_[node.first_child + i];
    scratch_[i] = std::log(std::max(c.prior, kTinyPrior)) + sigma_[i];
    mx = std::max(mx, scratch_[i]);
    sum_n += c.visits + c.in_flight;
  }
  float z = 0.0f;
  for (int i = 0; i < k; ++i) z += scratch_[i] = std::exp(scratch_[i] - mx);
  int best = 0;
  float best_score = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < k; ++i) {
    const Node& c = nodes_[node.first_child + i];
    const float score = scratch_[i] / z - static_cast<float>(c.visits + c.in_flight) / (1 + sum_n);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return node.first_child + best;
}

}  // namespace quax
