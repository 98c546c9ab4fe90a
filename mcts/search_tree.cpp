#include "mcts/search_tree.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <limits>

#include "mcts/sampling.h"
#include "mcts/search_tree_internal.h"

namespace quax {

using namespace search_tree_internal;

namespace {
// Terminal hits one collect() backs up before it returns, so that its caller can look at
// the clock: in a solved position every selection is a terminal hit and a timed search's
// budget is far out of reach.
constexpr int kTerminalHitsPerCollect = 1024;

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}

SearchTree::SearchTree(const GameSpec& spec) : spec_(spec) {
  root_state_ = new_game(spec);
  mask_.resize(static_cast<size_t>(root_state_->num_actions()));
  nodes_.emplace_back();
}

void SearchTree::set_root(const GameState& state) {
  assert(state.spec() == spec_ && !state.is_over());
  if (&state != root_state_.get()) root_state_->copy_from(state);
  nodes_.clear();
  nodes_.emplace_back();
  root_prepared_ = false;
  num_pending_ = 0;
  in_flight_ = 0;
}

void SearchTree::advance(int action, const GameState& state_after, bool keep) {
  int kept = -1;
  const Node& root = nodes_[0];
  if (keep && root.status == kExpanded && !state_after.is_over()) {
    for (int i = 0; i < root.num_children; ++i) {
      const Node& c = nodes_[root.first_child + i];
      if (c.action == action && c.status == kExpanded) kept = root.first_child + i;
    }
  }
  if (kept < 0) {
    if (!state_after.is_over()) set_root(state_after);
    else root_state_->copy_from(state_after);
    return;
  }
  // Breadth-first copy of the kept subtree: children stay contiguous.
  const int8_t old_mover = root.to_move;
  spare_.clear();
  spare_.push_back(nodes_[kept]);
  for (size_t i = 0; i < spare_.size(); ++i) {
    const Node n = spare_[i];
    if (n.status != kExpanded) continue;
    spare_[i].first_child = static_cast<int32_t>(spare_.size());
    spare_.insert(spare_.end(), nodes_.begin() + n.first_child, nodes_.begin() + n.first_child + n.num_children);
  }
  nodes_.swap(spare_);
  // The kept node's values were from its chooser's view (the old root mover); a root's
  // chooser is its own mover.
  if (nodes_[0].to_move != old_mover) {
    nodes_[0].value_sum = -nodes_[0].value_sum;
    nodes_[0].raw_value = -nodes_[0].raw_value;
  }
  assert(nodes_[0].to_move == static_cast<int8_t>(state_after.to_move()));
  root_state_->copy_from(state_after);
  root_prepared_ = false;
  num_pending_ = 0;
  in_flight_ = 0;
}

bool SearchTree::reroot(const GameState& state, bool keep, int max_plies) {
  const int plies = state.move_number() - root_state_->move_number();
  std::vector<int> path;
  if (keep && state.spec() == spec_ && plies >= 0 && plies <= max_plies && nodes_[0].status == kExpanded) {
    std::vector<std::unique_ptr<GameState>> scratch;
    for (int i = 0; i < plies; ++i) scratch.push_back(root_state_->clone());
    if (find_expanded_path(0, *root_state_, state.position_key(), plies, scratch, &path)) {
      auto after = root_state_->clone();
      for (int action : path) {
        after->apply(action);
        advance(action, *after, true);
      }
      return true;
    }
  }
  set_root(state);
  return false;
}

bool SearchTree::find_expanded_path(int node, const GameState& at, uint64_t key, int plies,
                                    std::vector<std::unique_ptr<GameState>>& scratch, std::vector<int>* path) const {
  if (plies == 0) return at.position_key() == key;
  const Node& n = nodes_[node];
  GameState& next = *scratch[scratch.size() - plies];
  for (int i = 0; i < n.num_children; ++i) {
    const int c = n.first_child + i;
    if (nodes_[c].status != kExpanded) continue;
    next.copy_from(at);
    next.apply(nodes_[c].action);
    path->push_back(nodes_[c].action);
    if (find_expanded_path(c, next, key, plies - 1, scratch, path)) return true;
    path->pop_back();
  }
  return false;
}

void SearchTree::start_search(const SearchSettings& settings, int simulations, bool noise, Rng* rng) {
  settings_ = settings;
  budget_ = std::max(1, simulations);
  noise_ = noise;
  rng_ = rng;
  sims_done_ = terminal_hits_ = collisions_ = nonfinite_evaluations_ = 0;
  // Sequential halving counts visits from zero: a Gumbel search starts from a fresh root.
  if (settings.root_rule == RootRule::kGumbel && nodes_[0].visits > 1) set_root(*root_state_);
  const size_t want = static_cast<size_t>(std::max(1, settings.leaves_per_batch));
  while (leaves_.size() < want) {
    leaves_.emplace_back();
    leaves_.back().state = root_state_->clone();
  }
  root_prepared_ = false;
  if (nodes_[0].status == kExpanded) prepare_root();
}

void SearchTree::prepare_root() {
  Node& root = nodes_[0];
  const int k = root.num_children;
  if (settings_.root_rule == RootRule::kPuct) {
    if (noise_ && settings_.dirichlet_fraction > 0.0f && k > 1) {
      const double alpha = settings_.dirichlet_alpha_total / k;
      scratch_.resize(k);
      double sum = 0.0;
      for (int i = 0; i < k; ++i) sum += scratch_[i] = static_cast<float>(sample_gamma(*rng_, alpha));
      const float f = settings_.dirichlet_fraction;
      for (int i = 0; i < k; ++i) {
        Node& c = nodes_[root.first_child + i];
        const float eta = sum > 0.0 ? static_cast<float>(scratch_[i] / sum) : 1.0f / k;
        c.prior = (1.0f - f) * c.prior + f * eta;
      }
    }
  } else {
    gumbel_.assign(k, 0.0f);
    root_logits_.resize(k);
    for (int i = 0; i < k; ++i) {
      root_logits_[i] = std::log(std::max(nodes_[root.first_child + i].prior, kTinyPrior));
      if (noise_ && settings_.gumbel_noise) gumbel_[i] = static_cast<float>(sample_gumbel(*rng_));
    }
    considered_visits_ = considered_visits(std::min(settings_.gumbel_m, k), budget_);
  }
  root_prepared_ = true;
}

int SearchTree::collect() {
  num_pending_ = 0;
  Node& root = nodes_[0];
  if (root.status == kFresh) {
    Leaf& leaf = leaves_[0];
    leaf.path.assign(1, 0);
    leaf.state->copy_from(*root_state_);
    leaf.state->legal_mask(mask_.data());
    leaf.board_actions.clear();
    leaf.net_actions.clear();
    for (int a = 0; a < static_cast<int>(mask_.size()); ++a)
      if (mask_[a]) {
        leaf.board_actions.push_back(static_cast<int16_t>(a));
        leaf.net_actions.push_back(static_cast<int16_t>(leaf.state->to_net_action(a)));
      }
    root.status = kPending;
    return num_pending_ = 1;
  }
  if (root.status != kExpanded) return 0;
  const bool gumbel = settings_.root_rule == RootRule::kGumbel;
  const int max_leaves = std::max(1, settings_.leaves_per_batch);
  const int terminal_hits_at_start = terminal_hits_;
  while (num_pending_ < max_leaves && nodes_[0].visits - 1 + in_flight_ < budget_ &&
         terminal_hits_ - terminal_hits_at_start < kTerminalHitsPerCollect) {
    Leaf& leaf = leaves_[num_pending_];
    leaf.path.assign(1, 0);
    int n = 0;
    const double t_start = profiling_ ? now_s() : 0.0;
    double t_env = 0.0;
    for (;;) {
      const int8_t chooser_of_n = leaf.path.size() >= 2 ? nodes_[leaf.path[leaf.path.size() - 2]].to_move
                                                        : nodes_[0].to_move;
      const int forced = n == 0 && forcing() ? forced_root_child() : -1;
      const int c = forced >= 0 ? forced
                  : n == 0 ? (gumbel ? select_child_gumbel_root() : select_child_puct(0, true, chooser_of_n))
                           : (gumbel ? select_child_gumbel_interior(n, chooser_of_n) : select_child_puct(n, false, chooser_of_n));
      leaf.path.push_back(c);
      Node& child = nodes_[c];
      const Player chooser = static_cast<Player>(nodes_[n].to_move);
      if (child.status == kExpanded) {
        n = c;
        continue;
      }
      if (child.status == kTerminal) {
        if (profiling_) profile_.select_s += now_s() - t_start;
        backup(leaf.path, chooser, child.raw_value, false);
        ++sims_done_;
        ++terminal_hits_;
        break;
      }
      if (child.status == kPending) {
        ++collisions_;
        return num_pending_;
      }
      // A fresh node: only now build its position (root copy + the path's actions).
      if (profiling_) t_env = now_s();
      GameState& s = *leaf.state;
      s.copy_from(*root_state_);
      for (size_t i = 1; i < leaf.path.size(); ++i) s.apply(nodes_[leaf.path[i]].action);
      if (s.is_over()) {
        if (profiling_) {
          const double t = now_s();
          profile_.env_s += t - t_env;
          profile_.select_s += t_env - t_start;
        }
        const Player w = winner_of(s.outcome());
        child.status = kTerminal;
        child.raw_value = w == Player::kNone ? 0.0f : (w == chooser ? 1.0f : -1.0f);
        backup(leaf.path, chooser, child.raw_value, false);
        ++sims_done_;
        ++terminal_hits_;
        break;
      }
      s.legal_mask(mask_.data());
      leaf.board_actions.clear();
      leaf.net_actions.clear();
      for (int a = 0; a < static_cast<int>(mask_.size()); ++a)
        if (mask_[a]) {
          leaf.board_actions.push_back(static_cast<int16_t>(a));
          leaf.net_actions.push_back(static_cast<int16_t>(s.to_net_action(a)));
        }
      if (profiling_) {
        const double t = now_s();
        profile_.env_s += t - t_env;
        profile_.select_s += t_env - t_start;
      }
      child.status = kPending;
      for (int32_t i : leaf.path) ++nodes_[i].in_flight;
      ++in_flight_;
      ++num_pending_;
      break;
    }
  }
  return num_pending_;
}

void SearchTree::deliver(int i, const float* net_logits, float value) {
  // A broken network (NaN or inf) must not reach the tree: a NaN compares false
  // everywhere, and selection then found no child at all.
  const bool finite_value = std::isfinite(value);
  value = finite_value ? std::clamp(value, -1.0f, 1.0f) : 0.0f;
  const Leaf& leaf = leaves_[i];
  const int n = leaf.path.back();
  const double t0 = profiling_ ? now_s() : 0.0;
  const bool finite_priors = expand(n, leaf, net_logits, value);
  if (!finite_value || !finite_priors) ++nonfinite_evaluations_;
  const double t1 = profiling_ ? now_s() : 0.0;
  if (profiling_) profile_.expand_s += t1 - t0;
  const Player mover = leaf.state->to_move();
  if (n == 0) {  // the root's own evaluation: not a simulation
    backup(leaf.path, mover, value, false);
    prepare_root();
    return;
  }
  backup(leaf.path, mover, value, true);
  if (profiling_) profile_.backup_s += now_s() - t1;
  --in_flight_;
  ++sims_done_;
}

bool SearchTree::expand(int n, const Leaf& leaf, const float* net_logits, float value) {
  const int k = static_cast<int>(leaf.board_actions.size());
  const int first = static_cast<int>(nodes_.size());
  nodes_.resize(nodes_.size() + k);
  float mx = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < k; ++i) mx = std::max(mx, net_logits[leaf.net_actions[i]]);
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    const float d = net_logits[leaf.net_actions[i]] - mx;
    const float e = d == 0.0f ? 1.0f : std::exp(d);  // flat policies skip exp()
    Node& c = nodes_[first + i];
    c.action = leaf.board_actions[i];
    c.prior = e;
    sum += e;
  }
  // NaN or +inf among the legal logits (or all of them -inf) leave no distribution:
  // uniform priors over the legal actions instead.
  const bool usable = sum > 0.0f && std::isfinite(sum);
  const float inv = usable ? 1.0f / sum : 1.0f / static_cast<float>(k);
  for (int i = 0; i < k; ++i) nodes_[first + i].prior = usable ? nodes_[first + i].prior * inv : inv;
  Node& node = nodes_[n];
  node.first_child = first;
  node.num_children = static_cast<int16_t>(k);
  node.to_move = static_cast<int8_t>(leaf.state->to_move());
  const int8_t chooser = leaf.path.size() >= 2 ? nodes_[leaf.path[leaf.path.size() - 2]].to_move : node.to_move;
  node.raw_value = chooser == node.to_move ? value : -value;
  node.status = kExpanded;
  return usable;
}

void SearchTree::backup(const std::vector<int32_t>& path, Player player, float value, bool pending) {
  for (size_t i = 0; i < path.size(); ++i) {
    Node& node = nodes_[path[i]];
    const int8_t viewer = i == 0 ? node.to_move : nodes_[path[i - 1]].to_move;
    node.value_sum += viewer == static_cast<int8_t>(player) ? value : -value;
    ++node.visits;
    if (pending) --node.in_flight;
  }
}

int SearchTree::select_child_puct(int n, bool at_root, int8_t chooser) const {
  const Node& parent = nodes_[n];
  const int parent_n = parent.visits - 1 + parent.in_flight;
  const float c = settings_.c_puct * std::sqrt(static_cast<float>(std::max(parent_n, 1)));
  const float vl = settings_.virtual_loss;
  float best_score = -std::numeric_limits<float>::infinity();
  int best = -1;
  float visited_prior = 0.0f, unvisited_prior = -1.0f;
  int best_unvisited = -1;
  const Node* child = &nodes_[parent.first_child];
  for (int i = 0; i < parent.num_children; ++i, ++child) {
    const int ne = child->visits + child->in_flight;
    if (ne == 0) {
      if (child->prior > unvisited_prior) {
        unvisited_prior = child->prior;
        best_unvisited = i;
      }
      continue;
    }
    if (child->visits > 0) visited_prior += child->prior;
    const float q = static_cast<float>((child->value_sum - vl * child->in_flight) / ne);
    const float score = q + c * child->prior / (1 + ne);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  if (best_unvisited >= 0) {
    // The parent's mean value for its own mover: value_sum is kept from its chooser's
    // view (a root's chooser is its own mover).
    const double mean = parent.value_sum / parent.visits;
    const float parent_q = static_cast<float>(chooser == parent.to_move ? mean : -mean);
    const float reduction = at_root ? settings_.root_fpu_reduction : settings_.fpu_reduction;
    const float fpu = parent_q - reduction * std::sqrt(visited_prior);
    const float score = fpu + c * unvisited_prior;
    if (score > best_score) best = best_unvisited;
  }
  // Only NaN scores leave no best; the first child keeps the path inside the tree.
  return parent.first_child + std::max(best, 0);
}

int SearchTree::forced_root_child() const {
  const Node& root = nodes_[0];
  const float total = static_cast<float>(root.visits - 1 + root.in_flight);
  int best = -1;
  float best_gap = 0.0f;
  for (int i = 0; i < root.num_children; ++i) {
    const Node& c = nodes_[root.first_child + i];
    // The child furthest below its forced count goes first.
    const float gap = std::sqrt(settings_.forced_playouts_k * c.prior * total) - (c.visits + c.in_flight);
    if (gap > best_gap) {
      best_gap = gap;
      best = i;
    }
  }
  return best < 0 ? -1 : root.first_child + best;
}

void SearchTree::target_visits(std::vector<float>* visits) const {
  const Node& root = nodes_[0];
  const int k = root.num_children;
  visits->assign(k, 0.0f);
  int best = -1;
  for (int i = 0; i < k; ++i) {
    const Node& c = nodes_[root.first_child + i];
    (*visits)[i] = static_cast<float>(c.visits);
    if (best < 0 || c.visits > nodes_[root.first_child + best].visits) best = i;
  }
  if (!forcing() || best < 0) return;
  // PUCT as the root's selection saw it, with the total the search ended with.
  const double total = root.visits - 1;
  const double scale = settings_.c_puct * std::sqrt(std::max(total, 1.0));
  auto puct = [&](const Node& c, double n) {
    return c.value_sum / c.visits + scale * c.prior / (1.0 + n);
  };
  const Node& top = nodes_[root.first_child + best];
  const double best_puct = puct(top, top.visits);
  for (int i = 0; i < k; ++i) {
    const Node& c = nodes_[root.first_child + i];
    if (i == best || c.visits == 0) continue;
    if (c.status == kTerminal && c.raw_value >= 1.0f) continue;  // an exact win keeps its visits
    const double forced = std::sqrt(settings_.forced_playouts_k * c.prior * total);
    // Fewest visits n >= visits - forced at which PUCT still would not have preferred c.
    double n = c.visits;
    const double floor_n = std::max(0.0, c.visits - forced);
    while (n - 1 >= floor_n && puct(c, n - 1) < best_puct) n -= 1;
    (*visits)[i] = n <= 1 ? 0.0f : static_cast<float>(n);
  }
}

bool SearchTree::done() const {
  const Node& root = nodes_[0];
  return root.status == kExpanded && root_prepared_ && in_flight_ == 0 && root.visits - 1 >= budget_;
}

int SearchTree::simulations_left() const { return std::max(0, budget_ - (nodes_[0].visits - 1)); }

bool SearchTree::move_settled(int more) const {
  const Node& root = nodes_[0];
  if (settings_.root_rule != RootRule::kPuct || settings_.prior_temperature >= 0.0f || root.status != kExpanded ||
      in_flight_ > 0)
    return false;
  int most = 0, next = 0;
  for (int i = 0; i < root.num_children; ++i) {
    const Node& c = nodes_[root.first_child + i];
    if (c.status == kTerminal && c.raw_value >= 1.0f) return true;
    if (c.visits > most) {
      next = most;
      most = c.visits;
    } else if (c.visits > next) {
      next = c.visits;
    }
  }
  return most - next > more;
}

std::vector<SearchTree::RootChild> SearchTree::root_children() const {
  std::vector<RootChild> out;
  const Node& root = nodes_[0];
  for (int i = 0; i < root.num_children; ++i) {
    const Node& c = nodes_[root.first_child + i];
    // A child's values are its chooser's: the root's player to move.
    out.push_back({c.action, c.visits, c.visits > 0 ? static_cast<float>(c.value_sum / c.visits) : 0.0f, c.prior});
  }
  return out;
}

float SearchTree::root_value() const {
  if (settings_.root_rule == RootRule::kGumbel) return root_completed_q(&sigma_);
  const Node& root = nodes_[0];
  return root.visits > 0 ? static_cast<float>(root.value_sum / root.visits) : 0.0f;
}

void SearchTree::policy_target(std::vector<std::pair<int, float>>* out) const {
  out->clear();
  const Node& root = nodes_[0];
  if (root.status != kExpanded) return;
  if (settings_.root_rule == RootRule::kGumbel) {
    root_completed_q(&sigma_);
    float mx = -std::numeric_limits<float>::infinity();
    for (int i = 0; i < root.num_children; ++i) mx = std::max(mx, root_logits_[i] + sigma_[i]);
    double z = 0.0;
    for (int i = 0; i < root.num_children; ++i) z += std::exp(root_logits_[i] + sigma_[i] - mx);
    for (int i = 0; i < root.num_children; ++i) {
      const float p = static_cast<float>(std::exp(root_logits_[i] + sigma_[i] - mx) / z);
      if (p > 0.0f) out->emplace_back(root_state_->to_net_action(nodes_[root.first_child + i].action), p);
    }
  } else {
    target_visits(&scratch_);
    double total = 0.0;
    for (float v : scratch_) total += v;
    if (total <= 0.0) return;
    for (int i = 0; i < root.num_children; ++i)
      if (scratch_[i] > 0.0f)
        out->emplace_back(root_state_->to_net_action(nodes_[root.first_child + i].action),
                          static_cast<float>(scratch_[i] / total));
  }
  std::sort(out->begin(), out->end());
}

int SearchTree::choose_action(float temperature, Rng& rng) const {
  const Node& root = nodes_[0];
  assert(root.status == kExpanded && root.num_children > 0);
  const int k = root.num_children;
  const bool gumbel = settings_.root_rule == RootRule::kGumbel;
  const bool from_priors = settings_.prior_temperature >= 0.0f;
  if (from_priors) temperature = std::max(temperature, settings_.prior_temperature);
  // Below this, dividing the log-weights by the temperature can overflow to -inf for every
  // move (a temperature of 1e-38 made the weights NaN and the first legal move the choice):
  // such a temperature picks as 0 does, the best move.
  constexpr float kMinSamplingTemperature = 1e-3f;
  if (temperature < kMinSamplingTemperature) temperature = 0.0f;
  if (temperature <= 0.0f && from_priors) {
    int best = 0;
    for (int i = 1; i < k; ++i)
      if (nodes_[root.first_child + i].prior > nodes_[root.first_child + best].prior) best = i;
    return nodes_[root.first_child + best].action;
  }
  if (temperature <= 0.0f) {
    int best = 0;
    if (gumbel) {
      root_completed_q(&sigma_);
      int max_n = 0;
      for (int i = 0; i < k; ++i) max_n = std::max(max_n, nodes_[root.first_child + i].visits);
      float best_score = -std::numeric_limits<float>::infinity();
      for (int i = 0; i < k; ++i) {
        if (nodes_[root.first_child + i].visits != max_n) continue;
        const float score = std::max(kLowestScore, gumbel_[i] + root_logits_[i] + sigma_[i]);
        if (score > best_score) {
          best_score = score;
          best = i;
        }
      }
    } else {
      // A child that ends the game in the mover's favour is exact: play it even if an
      // estimated sibling drew as many visits.
      for (int i = 0; i < k; ++i) {
        const Node& c = nodes_[root.first_child + i];
        if (c.status == kTerminal && c.raw_value >= 1.0f) return c.action;
      }
      for (int i = 1; i < k; ++i) {
        const Node& c = nodes_[root.first_child + i];
        const Node& b = nodes_[root.first_child + best];
        if (c.visits > b.visits ||
            (c.visits == b.visits && c.visits > 0 && c.value_sum / c.visits > b.value_sum / b.visits))
          best = i;
      }
    }
    return nodes_[root.first_child + best].action;
  }
  // Sampling: weights w_i^(1/T), computed in log space.
  scratch_.resize(k);
  float mx = -std::numeric_limits<float>::infinity();
  if (from_priors) {
    for (int i = 0; i < k; ++i) {
      const float p = nodes_[root.first_child + i].prior;
      scratch_[i] = p > 0.0f ? std::log(p) / temperature : -std::numeric_limits<float>::infinity();
    }
  } else if (gumbel) {
    root_completed_q(&sigma_);
    for (int i = 0; i < k; ++i) scratch_[i] = (root_logits_[i] + sigma_[i]) / temperature;
  } else {
    for (int i = 0; i < k; ++i) {
      const int v = nodes_[root.first_child + i].visits;
      scratch_[i] = v > 0 ? std::log(static_cast<float>(v)) / temperature : -std::numeric_limits<float>::infinity();
    }
  }
  for (int i = 0; i < k; ++i) mx = std::max(mx, scratch_[i]);
  double z = 0.0;
  for (int i = 0; i < k; ++i) z += scratch_[i] = std::exp(scratch_[i] - mx);
  double u = rng.uniform() * z;
  for (int i = 0; i < k; ++i) {
    u -= scratch_[i];
    if (u < 0.0) return nodes_[root.first_child + i].action;
  }
  for (int i = k - 1; i >= 0; --i)
    if (scratch_[i] > 0.0f) return nodes_[root.first_child + i].action;
  return nodes_[root.first_child].action;
}

std::uint64_t search_memory_bytes(int legal_actions, int simulations) {
  constexpr std::uint64_t kFixedBytes = 4 << 20;  // leaves, their positions, the evaluator's batch
  const std::uint64_t nodes = static_cast<std::uint64_t>(std::max(simulations, 1)) * std::max(legal_actions, 1);
  return 2 * nodes * sizeof(SearchTree::Node) + kFixedBytes;
}

}  // namespace quax
