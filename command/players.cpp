#include "command/players.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "mcts/baseline_agents.h"
#include "mcts/search_agent.h"
#include "mcts/search_tree.h"
#include "nets/net_evaluator.h"

namespace quax {

const char* const kPlayerSyntax =
    "random | uct:<playouts> | mcts:<sims> | <model.pt>[:sims=N][:time=S][:cpuct=X][:gumbel][:leaves=N]";

namespace {

bool is_baseline(const std::string& text) {
  return text == "random" || text.rfind("uct:", 0) == 0 || text.rfind("mcts:", 0) == 0;
}

bool parse_number(const std::string& s, double lo, double hi, double* out) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(v >= lo && v <= hi)) return false;
  *out = v;
  return true;
}

// Searches each move for a wall-clock budget instead of a simulation count: the tree grows
// until the time is up, then the most visited move is played. PUCT only (sequential halving
// needs its budget in advance).
class TimedSearchAgent final : public Agent {
 public:
  TimedSearchAgent(std::string name, std::shared_ptr<Evaluator> evaluator, const SearchSettings& settings,
                   double seconds, uint64_t seed)
      : name_(std::move(name)), evaluator_(std::move(evaluator)), settings_(settings), seconds_(seconds), rng_(seed) {}
  std::string name() const override { return name_; }

  int choose_action(const GameState& state) override {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds_);
    if (!tree_ || tree_->root_state().spec() != state.spec()) tree_ = std::make_unique<SearchTree>(state.spec());
    tree_->set_root(state);
    // A budget no move reaches in practice; the clock ends the search.
    tree_->start_search(settings_, 50'000'000, false, &rng_);
    const size_t a = static_cast<size_t>(state.num_actions());
    const size_t per = static_cast<size_t>(state.num_planes()) * state.size() * state.size();
    while (!tree_->done()) {
      if (tree_->root().status == SearchTree::kExpanded && tree_->root().visits > 1 &&
          std::chrono::steady_clock::now() >= deadline)
        break;
      const int n = tree_->collect();
      if (n == 0) continue;
      states_.clear();
      masks_.assign(n * a, 0);
      planes_.resize(n * per);
      for (int i = 0; i < n; ++i) {
        states_.push_back(&tree_->pending_state(i));
        for (int16_t net : tree_->pending_net_actions(i)) masks_[i * a + net] = 1;
        states_.back()->encode(planes_.data() + i * per);
      }
      logits_.resize(n * a);
      values_.resize(n);
      evaluator_->evaluate(states_, planes_.data(), masks_.data(), logits_.data(), values_.data());
      for (int i = 0; i < n; ++i) tree_->deliver(i, logits_.data() + i * a, values_[i]);
    }
    return tree_->choose_action(0.0f, rng_);
  }

 private:
  std::string name_;
  std::shared_ptr<Evaluator> evaluator_;
  SearchSettings settings_;
  double seconds_;
  Rng rng_;
  std::unique_ptr<SearchTree> tree_;
  std::vector<const GameState*> states_;
  std::vector<float> planes_, logits_, values_;
  std::vector<uint8_t> masks_;
};

// A model plays the variant and size it was trained for only; GTP can change the game
// under a player, so the check is made at every move (and reported as an error there).
class ModelPlayer final : public Agent {
 public:
  ModelPlayer(std::unique_ptr<Agent> inner, const GameSpec& spec) : inner_(std::move(inner)), spec_(spec) {}
  std::string name() const override { return inner_->name(); }
  void reset() override { inner_->reset(); }
  int choose_action(const GameState& state) override {
    if (state.spec().variant != spec_.variant || state.size() != spec_.size)
      throw std::runtime_error(fmt::format("the model is for {} {}x{}, not {} {}x{}", variant_info(spec_.variant).name,
                                           spec_.size, spec_.size, variant_info(state.spec().variant).name,
                                           state.size(), state.size()));
    return inner_->choose_action(state);
  }

 private:
  std::unique_ptr<Agent> inner_;
  GameSpec spec_;
};

}  // namespace

bool parse_player_description(const std::string& text, PlayerDescription* out, std::string* error) {
  PlayerDescription d;
  d.text = text;
  if (is_baseline(text)) {
    *out = d;
    return true;
  }
  d.kind = PlayerDescription::Kind::kModel;
  d.search.dirichlet_fraction = 0.0f;
  d.search.leaves_per_batch = 4;
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  if (parts.empty() || parts[0].empty()) {
    if (error) *error = "bad player '" + text + "': expected " + kPlayerSyntax;
    return false;
  }
  d.model_path = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    const auto eq = p.find('=');
    const std::string key = p.substr(0, eq), value = eq == std::string::npos ? "" : p.substr(eq + 1);
    double v = 0;
    auto bad = [&](const std::string& what) {
      if (error) *error = "bad player '" + text + "': " + what;
      return false;
    };
    if (key == "gumbel" && eq == std::string::npos) {
      d.search.root_rule = RootRule::kGumbel;
      d.search.gumbel_noise = false;
    } else if (key == "sims") {
      if (!parse_number(value, 1, 10'000'000, &v) || v != static_cast<int>(v)) return bad("sims takes 1 to 10000000");
      d.search.simulations = static_cast<int>(v);
    } else if (key == "time") {
      if (!parse_number(value, 0.001, 86400, &v)) return bad("time takes seconds per move, e.g. time=2.5");
      d.seconds = v;
    } else if (key == "cpuct") {
      if (!parse_number(value, 0.0, 100.0, &v)) return bad("cpuct takes a number from 0 to 100");
      d.search.c_puct = static_cast<float>(v);
    } else if (key == "leaves") {
      if (!parse_number(value, 1, 256, &v) || v != static_cast<int>(v)) return bad("leaves takes 1 to 256");
      d.search.leaves_per_batch = static_cast<int>(v);
    } else {
      return bad("unknown setting '" + p + "' (known: sims=N, time=S, cpuct=X, gumbel, leaves=N)");
    }
  }
  if (d.seconds > 0 && d.search.root_rule == RootRule::kGumbel) {
    if (error) *error = "bad player '" + text + "': time= works with PUCT only, not gumbel";
    return false;
  }
  if (auto e = check_settings(d.search); !e.empty()) {
    if (error) *error = "bad player '" + text + "': " + e;
    return false;
  }
  *out = d;
  return true;
}

std::unique_ptr<Agent> make_player(const std::string& description, const GameSpec& spec, uint64_t seed,
                                   std::string* error) {
  PlayerDescription d;
  if (!parse_player_description(description, &d, error)) return nullptr;
  if (d.kind == PlayerDescription::Kind::kBaseline) return make_baseline_agent(description, seed, error);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(d.model_path, ec)) {
    if (error)
      *error = "unknown player '" + description + "': no model file '" + d.model_path + "' (a player is " +
               std::string(kPlayerSyntax) + ")";
    return nullptr;
  }
  try {
    auto evaluator = std::make_shared<NetEvaluator>(load_inference_model(d.model_path, spec));
    std::unique_ptr<Agent> agent;
    if (d.seconds > 0)
      agent = std::make_unique<TimedSearchAgent>(description, evaluator, d.search, d.seconds, seed);
    else
      agent = std::make_unique<SearchAgent>(description, evaluator, d.search, seed);
    return std::make_unique<ModelPlayer>(std::move(agent), spec);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return nullptr;
  }
}

}  // namespace quax
