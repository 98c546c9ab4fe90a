#include "mcts/uct_agent.h"

#include <cmath>
#include <string>

namespace quax {

UctAgent::UctAgent(int playouts, uint64_t seed, double exploration)
    : playouts_(playouts), exploration_(exploration), rng_(seed) {}

std::string UctAgent::name() const { return "uct:" + std::to_string(playouts_); }

void UctAgent::expand(int n, const GameState& state) {
  mask_.resize(static_cast<size_t>(state.num_actions()));
  state.legal_mask(mask_.data());
  legal_.clear();
  for (int a = 0; a < static_cast<int>(mask_.size()); ++a)
    if (mask_[a]) legal_.push_back(a);
  // Shuffled, so that untried children are tried in random order.
  for (size_t i = legal_.size(); i > 1; --i) std::swap(legal_[i - 1], legal_[rng_.below(static_cast<uint32_t>(i))]);
  const int first = static_cast<int>(nodes_.size());
  for (int a : legal_) {
    nodes_.emplace_back();
    nodes_.back().action = static_cast<int16_t>(a);
  }
  Node& node = nodes_[n];
  node.first_child = first;
  node.num_children = static_cast<int16_t>(legal_.size());
  node.to_move = static_cast<int8_t>(state.to_move());
}

int UctAgent::choose_action(const GameState& state) {
  if (!scratch_ || scratch_->spec() != state.spec()) scratch_ = state.clone();
  nodes_.clear();
  nodes_.emplace_back();
  for (int p = 0; p < playouts_; ++p) {
    GameState& s = *scratch_;
    s.copy_from(state);
    path_.assign(1, 0);
    int n = 0;
    while (!s.is_over()) {
      if (nodes_[n].first_child < 0) expand(n, s);
      Node& node = nodes_[n];
      int c;
      if (node.tried < node.num_children) {
        c = node.first_child + node.tried++;
      } else {
        const double log_n = std::log(static_cast<double>(node.visits));
        double best = -1.0;
        c = node.first_child;
        for (int i = 0; i < node.num_children; ++i) {
          const Node& ch = nodes_[node.first_child + i];
          const double score = ch.wins / ch.visits + exploration_ * std::sqrt(log_n / ch.visits);
          if (score > best) {
            best = score;
            c = node.first_child + i;
          }
        }
      }
      s.apply(nodes_[c].action);
      path_.push_back(c);
      const bool new_node = nodes_[c].visits == 0;
      n = c;
      if (new_node) break;
    }
    const Player winner = winner_of(s.play_random_to_end(rng_));
    ++nodes_[0].visits;
    for (size_t i = 1; i < path_.size(); ++i) {
      Node& node = nodes_[path_[i]];
      const Player chooser = static_cast<Player>(nodes_[path_[i - 1]].to_move);
      node.wins += winner == Player::kNone ? 0.5 : (winner == chooser ? 1.0 : 0.0);
      ++node.visits;
    }
  }
  const Node& root = nodes_[0];
  int best = root.first_child;
  for (int i = 0; i < root.num_children; ++i) {
    const Node& ch = nodes_[root.first_child + i];
    if (ch.visits > nodes_[best].visits) best = root.first_child + i;
  }
  return nodes_[best].action;
}

std::vector<UctAgent::RootChild> UctAgent::last_root_children() const {
  std::vector<RootChild> out;
  if (nodes_.empty() || nodes_[0].first_child < 0) return out;
  for (int i = 0; i < nodes_[0].num_children; ++i) {
    const Node& ch = nodes_[nodes_[0].first_child + i];
    out.push_back({ch.action, ch.visits, ch.visits > 0 ? value_of(ch) : NAN});
  }
  return out;
}

float UctAgent::last_root_value() const {
  if (nodes_.empty() || nodes_[0].first_child < 0) return NAN;
  // Every playout passes through one root child (the root is not over), so the children's wins
  // over their visits is the mean rollout result for the root's mover.
  Node all;
  for (int i = 0; i < nodes_[0].num_children; ++i) {
    const Node& ch = nodes_[nodes_[0].first_child + i];
    all.wins += ch.wins;
    all.visits += ch.visits;
  }
  return all.visits > 0 ? value_of(all) : NAN;
}

std::optional<double> UctAgent::last_value() const {
  const float v = last_root_value();
  return std::isnan(v) ? std::nullopt : std::optional<double>(v);
}

std::vector<std::pair<int, int>> UctAgent::last_root_visits() const {
  std::vector<std::pair<int, int>> out;
  for (const RootChild& child : last_root_children()) out.emplace_back(child.action, child.visits);
  return out;
}

}  // namespace quax
