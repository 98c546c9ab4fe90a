#include "command/gtp_player.h"

#include <filesystem>
#include <stdexcept>

#include "mcts/search_agent.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"

namespace quax {

GtpPlayer::~GtpPlayer() = default;

namespace {

// The model's learner step from its description (without loading the network again).
int64_t read_step(const std::string& path) {
  try {
    const auto description = read_model_description(path);
    if (description.contains("step") && description["step"].is_number_integer()) return description["step"].get<int64_t>();
  } catch (const std::exception&) {
  }
  return 0;
}

}  // namespace

std::unique_ptr<GtpPlayer> GtpPlayer::make(const PlayerDescription& d, const GameSpec& spec, uint64_t seed,
                                           std::string* error, const Device& device) {
  std::unique_ptr<GtpPlayer> p(new GtpPlayer());
  p->seed_ = seed;
  p->device_ = device;
  p->desc_ = d;
  p->rng_ = std::make_unique<Rng>(seed);
  if (d.kind == PlayerDescription::Kind::kBaseline) {
    p->baseline_ = make_player(d, spec, seed, error, device);
    if (!p->baseline_) return nullptr;
    return p;
  }
  if (auto e = check_player_settings(d); !e.empty()) {
    *error = "bad player '" + d.text + "': " + e;
    return nullptr;
  }
  if (std::string missing = missing_model_file(d); !missing.empty()) {
    *error = std::move(missing);
    return nullptr;
  }
  try {
    p->model_ = load_inference_model(d.model_path, spec, d.precision, device);
  } catch (const std::exception& e) {
    *error = e.what();
    return nullptr;
  }
  p->evaluator_ = std::make_shared<NetEvaluator>(p->model_);
  p->model_path_ = d.model_path;
  p->step_ = read_step(d.model_path);
  p->checked_ = spec;
  p->checked_any_ = true;
  return p;
}

std::unique_ptr<GtpPlayer> GtpPlayer::following_shipped(const PlayerSearchSize& size, uint64_t seed,
                                                        const Device& device, std::string fallback) {
  std::unique_ptr<GtpPlayer> p(new GtpPlayer());
  p->seed_ = seed;
  p->device_ = device;
  p->following_ = true;
  p->size_ = size;
  p->fallback_ = std::move(fallback);
  p->rng_ = std::make_unique<Rng>(seed);
  return p;
}

std::string GtpPlayer::shipped_path(const GameSpec& spec) {
  if (!shipped_) shipped_ = shipped_models();  // reads every shipped card: once
  const ModelSummary* best = best_model_for(*shipped_, spec);
  return best ? best->path : "";
}

void GtpPlayer::sync(const GameSpec& spec) {
  if (following_) {
    const std::string path = shipped_path(spec);
    if (path.empty()) {
      if (fallback_.empty())
        throw std::runtime_error(std::string("there is no shipped model of ") + variant_info(spec.variant).name);
      if (!baseline_ || desc_.text != fallback_) {
        std::string error;
        if (!parse_player_description(fallback_, &desc_, &error)) throw std::runtime_error(error);
        baseline_ = make_player(desc_, spec, seed_, &error, device_);
        if (!baseline_) throw std::runtime_error(error);
        model_.reset();
        evaluator_.reset();
        model_path_.clear();
        tree_.reset();
      }
      return;
    }
    if (path != model_path_) {
      PlayerDescription d = model_player_description(path);
      d.precision = desc_.precision;  // the player's number format stays with it
      std::string error;
      if ((size_.level || size_.sims || size_.seconds) && !set_player_search_size(&d, size_, &error))
        throw std::runtime_error(error);
      auto model = load_inference_model(path, spec, d.precision, device_);  // throws one line
      desc_ = d;
      model_ = std::move(model);
      evaluator_ = std::make_shared<NetEvaluator>(model_);
      baseline_.reset();
      model_path_ = path;
      step_ = read_step(path);
      checked_ = spec;
      checked_any_ = true;
      tree_.reset();
    }
  }
  // The model's check of the game whenever it changes (another variant is refused; a size it
  // was not trained on warns once on stderr).
  if (model_ && (!checked_any_ || checked_ != spec)) {
    if (auto err = check_model_plays(*model_, spec); !err.empty()) throw std::runtime_error(err);
    checked_ = spec;
    checked_any_ = true;
  }
}

std::string GtpPlayer::label(const GameSpec& spec) {
  if (following_) {
    const std::string path = shipped_path(spec);
    if (path.empty()) return fallback_;
    return std::filesystem::path(path).filename().string();
  }
  if (baseline_) return desc_.text;
  return std::filesystem::path(model_path_).filename().string();
}

std::optional<int64_t> GtpPlayer::model_step(const GameSpec& spec) {
  if (following_) {
    const std::string path = shipped_path(spec);
    if (path.empty()) return std::nullopt;
    if (path != model_path_) return read_step(path);
  }
  if (!model_) return std::nullopt;
  return step_;
}

int GtpPlayer::choose(const GameState& state, double seconds) {
  sync(state.spec());
  if (baseline_) return baseline_->choose_action(state);
  if (const std::string refused = search_memory_refusal(desc_, state.spec()); !refused.empty())
    throw std::runtime_error(refused);
  if (!tree_ || tree_->root_state().spec() != state.spec()) tree_ = std::make_unique<SearchTree>(state.spec());
  tree_->reroot(state, desc_.search.reuse_tree);  // a Gumbel search restarts its root anyway
  // A Gumbel root splits its budget in advance: it keeps its simulations under a clock.
  double budget = desc_.seconds;
  if (seconds > 0 && desc_.search.root_rule != RootRule::kGumbel) budget = seconds;
  run_search(*tree_, *evaluator_, desc_.search, desc_.search.dirichlet_fraction > 0.0f, *rng_, &batch_, budget,
             desc_.search.stop_when_settled);
  return tree_->choose_action(0.0f, *rng_);
}

bool GtpPlayer::analyse(const GameState& state, int min_sims, GtpAnalysis* out, std::string* error) {
  try {
    sync(state.spec());
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
  if (baseline_) {
    *error = "the player " + desc_.text + " has no search to show (analysis needs a model)";
    return false;
  }
  if (!tree_ || tree_->root_state().spec() != state.spec()) tree_ = std::make_unique<SearchTree>(state.spec());
  tree_->reroot(state, desc_.search.reuse_tree);
  // The search as it plays, but never fewer than min_sims simulations (a low level plays
  // from a handful), and no root noise or prior temperature (they change the move, not the tree).
  SearchSettings settings = desc_.search;
  settings.simulations = std::max(settings.simulations, min_sims);
  settings.dirichlet_fraction = 0.0f;
  const double seconds = desc_.search.root_rule == RootRule::kGumbel ? 0.0 : desc_.seconds;
  run_search(*tree_, *evaluator_, settings, false, *rng_, &batch_, seconds);
  out->children = tree_->root_children();
  out->root_value = tree_->root_value();
  out->pv.clear();
  // The principal variation: the most visited child, down while it was visited.
  int node = 0;
  for (;;) {
    const auto& n = tree_->node(node);
    if (n.num_children <= 0) break;
    int best = -1;
    for (int i = 0; i < n.num_children; ++i) {
      const int c = n.first_child + i;
      if (tree_->node(c).visits > 0 && (best < 0 || tree_->node(c).visits > tree_->node(best).visits)) best = c;
    }
    if (best < 0) break;
    out->pv.push_back(tree_->node(best).action);
    node = best;
  }
  return true;
}

void GtpPlayer::prepare(const GameSpec& spec) {
  try {
    sync(spec);
  } catch (const std::exception&) {
  }
}

void GtpPlayer::reset() {
  tree_.reset();
  if (baseline_) baseline_->reset();
}

}  // namespace quax
