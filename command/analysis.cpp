// `quax analysis`: a JSON-lines analysis engine on stdin/stdout in the shape of KataGo's
// analysis engine (docs/ANALYSIS.md). The main thread reads queries (command/analysis_query.h)
// and answers errors and actions at once; searcher threads keep up to --in-flight positions
// searching together, each its share of them, one network call per model and round for the
// leaves of all its positions (EvaluationBatch over several trees, as run_searches does), and
// take the waiting ones by priority as positions finish. --threads T gives min(T, in-flight)
// searchers, each running its network calls on --net-threads LibTorch threads (default 1: the
// cores never wait for each other inside a call; on 2 cores, hex 11, two searchers of one
// thread each analyse 1.36x the positions of one searcher of two threads, and one position at a
// time runs 3.1x faster on one thread than on two: BENCHMARKS.md, "quax analysis"). At end of
// input the queries already read are finished, then the command exits 0.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "command/player_options.h"
#include "command/analysis_query.h"
#include "command/command.h"
#include "command/device_option.h"
#include "command/game_spec_option.h"
#include "core/malloc_thresholds.h"
#include "core/steady_time.h"
#include "env/board_layout.h"
#include "mcts/evaluation_batch.h"
#include "mcts/search_tree.h"
#include "nets/default_model.h"
#include "nets/net_evaluator.h"

namespace quax {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMaxPvLength = 15;
constexpr size_t kCachedModels = 4;

int default_threads() { return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u)); }

struct Options {
  GameOptions game;  // each query's default game
  std::string model;
  int visits = 200;
  int in_flight = 64;
  int leaves = 1;
  int threads = default_threads();
  int net_threads = 1;
  std::string precision = "auto";
  std::string device = "auto";
  uint64_t seed = 1;
};

// One answer line a time, flushed: the reader and the searcher both write.
class Output {
 public:
  void write(const nlohmann::json& j) {
    const std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::lock_guard<std::mutex> lock(mu_);
    std::cout << line << '\n' << std::flush;
  }

 private:
  std::mutex mu_;
};

// Models by file, loaded on first use, the last kCachedModels kept (a position holds its own).
class ModelCache {
 public:
  ModelCache(std::string model, Device device, Precision precision)
      : model_(std::move(model)), device_(device), precision_(precision) {}
  // The model that analyses `spec` (*file: its file), or null with *error set (one line).
  std::shared_ptr<const InferenceModel> get(const GameSpec& spec, std::string* error, std::string* file) {
    std::string path = model_;
    if (path.empty()) {
      const auto key = std::make_tuple(static_cast<int>(spec.variant), spec.size, spec.swap);
      auto it = paths_.find(key);
      if (it == paths_.end()) it = paths_.emplace(key, default_model_path(spec)).first;
      path = it->second;
    }
    if (path.empty()) {
      *error = std::string("there is no shipped model of ") + variant_info(spec.variant).name + " (give one with --model)";
      return nullptr;
    }
    *file = path;
    try {
      for (size_t i = 0; i < models_.size(); ++i)
        if (models_[i].first == path) {
          auto hit = models_[i];
          models_.erase(models_.begin() + static_cast<long>(i));
          models_.push_back(hit);
          *error = check_model_plays(*hit.second, spec);
          return error->empty() ? hit.second : nullptr;
        }
      auto model = load_inference_model(path, spec, precision_, device_);
      models_.emplace_back(path, model);
      if (models_.size() > kCachedModels) models_.erase(models_.begin());
      return model;
    } catch (const std::exception& e) {
      *error = first_line(e.what());
      return nullptr;
    }
  }

 private:
  std::string model_;
  Device device_;
  Precision precision_;
  std::map<std::tuple<int, int, bool>, std::string> paths_;
  std::vector<std::pair<std::string, std::shared_ptr<const InferenceModel>>> models_;
};

struct Job {
  AnalysisPosition pos;
  std::shared_ptr<const InferenceModel> model;
  std::unique_ptr<SearchTree> tree;
  Rng rng;
  Clock::time_point next_report;
  nlohmann::json ownership;  // with includeOwnership: the root's, once evaluated
};

std::string move_text(const GameState& s, int action) { return s.action_to_string(action); }

// The most visited line from root child `child` (a node index), as moves.
nlohmann::json principal_variation(const SearchTree& tree, int child) {
  nlohmann::json pv = nlohmann::json::array();
  auto state = tree.root_state().clone();
  for (int node = child; node >= 0 && pv.size() < static_cast<size_t>(kMaxPvLength);) {
    const auto& n = tree.node(node);
    if (n.visits == 0 || state->is_over()) break;
    pv.push_back(move_text(*state, n.action));
    state->apply(n.action);
    int best = -1;
    for (int i = 0; i < n.num_children; ++i) {
      const auto& c = tree.node(n.first_child + i);
      if (c.visits > 0 && (best < 0 || c.visits > tree.node(best).visits)) best = n.first_child + i;
    }
    node = best;
  }
  return pv;
}

double winrate(double value) { return (1.0 + value) / 2.0; }

// The ownership head's prediction at `state` (evaluate_ownership, nets/net_evaluator.h) as an
// object from each cell of the board (its name as moves write it) to a number in [-1, 1]: +1
// the player to move holds the cell at the end, -1 the opponent. Throws as evaluate_ownership.
nlohmann::json root_ownership(const InferenceModel& model, const GameState& state) {
  const int nn = state.size() * state.size();
  std::vector<float> net(static_cast<size_t>(nn));
  evaluate_ownership(model, {&state}, net.data());
  nlohmann::json out = nlohmann::json::object();
  for (const LayoutItem& item : board_layout(state.spec()).items)
    if (item.kind == LayoutItem::Kind::kCell && item.action >= 0 && item.action < nn)
      out[move_text(state, item.action)] = net[state.to_net_action(item.action)];
  return out;
}

nlohmann::json answer(const Job& job, bool during) {
  const SearchTree& tree = *job.tree;
  const GameState& state = tree.root_state();
  const auto& root = tree.root();
  std::vector<int> order;  // root child indices, most visited first
  for (int i = 0; i < root.num_children; ++i) order.push_back(i);
  auto child = [&](int i) -> const SearchTree::Node& { return tree.node(root.first_child + i); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return child(a).visits != child(b).visits ? child(a).visits > child(b).visits : child(a).prior > child(b).prior;
  });
  const auto children = tree.root_children();
  nlohmann::json infos = nlohmann::json::array();
  for (size_t k = 0; k < order.size(); ++k) {
    const auto& c = children[order[k]];
    if (c.visits == 0) break;
    infos.push_back({{"move", move_text(state, c.action)},
                     {"visits", c.visits},
                     {"value", c.q},
                     {"winrate", winrate(c.q)},
                     {"prior", c.prior},
                     {"order", k},
                     {"pv", principal_variation(tree, root.first_child + order[k])}});
  }
  const double value = tree.simulations_done() > 0 ? tree.root_value() : 0.0;
  nlohmann::json out = {{"id", job.pos.id},
                        {"turnNumber", job.pos.turn},
                        {"isDuringSearch", during},
                        {"moveInfos", std::move(infos)},
                        {"rootInfo",
                         {{"visits", tree.simulations_done()},
                          {"value", value},
                          {"winrate", winrate(value)},
                          {"currentPlayer", player_name(state.to_move())}}}};
  if (job.pos.include_policy) {
    nlohmann::json policy = nlohmann::json::object();
    for (const auto& c : children) policy[move_text(state, c.action)] = c.prior;
    out["policy"] = std::move(policy);
  }
  if (job.pos.include_ownership) out["ownership"] = job.ownership;
  return out;
}

// A position whose game is over: nothing to search.
nlohmann::json game_over_answer(const AnalysisPosition& pos) {
  const Player winner = winner_of(pos.state->outcome());
  return {{"id", pos.id},         {"turnNumber", pos.turn},  {"isDuringSearch", false}, {"moveInfos", nlohmann::json::array()},
          {"gameOver", true},     {"winner", player_name(winner)}};
}

class Engine {
 public:
  Engine(const Options& opt, const GameSpec& spec, Device device, Precision precision)
      : opt_(opt), models_(opt.model, device, precision), searchers_(std::min(opt.threads, opt.in_flight)) {
    defaults_.spec = spec;
    defaults_.visits = opt.visits;
    settings_.simulations = opt.visits;
    settings_.leaves_per_batch = opt.leaves;
  }

  void run(std::istream& in) {
    std::vector<std::thread> searchers;
    for (int i = 0; i < searchers_; ++i) searchers.emplace_back([this] { search_loop(opt_.net_threads); });
    std::string line;
    while (read_line(in, &line)) handle(line);
    {
      std::lock_guard<std::mutex> lock(mu_);
      eof_ = true;
    }
    cv_.notify_all();
    for (auto& t : searchers) t.join();
  }

 private:
  // One line into *line; false at end of input. A line over the bound is answered here.
  bool read_line(std::istream& in, std::string* line) {
    line->clear();
    auto* buf = in.rdbuf();
    bool too_long = false, any = false;
    for (int c; (c = buf->sbumpc()) != std::char_traits<char>::eof();) {
      any = true;
      if (c == '\n') break;
      if (line->size() >= kMaxAnalysisLineBytes) {
        too_long = true;
        continue;
      }
      line->push_back(static_cast<char>(c));
    }
    if (too_long) {
      out_.write(analysis_error(nullptr, "a line longer than 1048576 bytes is refused", ""));
      line->clear();
    }
    return any;
  }

  void handle(const std::string& line) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) return;
    AnalysisLine q = parse_analysis_line(line, defaults_);
    switch (q.kind) {
      case AnalysisLine::Kind::kError:
        out_.write(analysis_error(q.id, q.error, q.field));
        return;
      case AnalysisLine::Kind::kQueryVersion:
        out_.write({{"id", q.id}, {"action", "query_version"}, {"version", "0.1"}});
        return;
      case AnalysisLine::Kind::kTerminate:
      case AnalysisLine::Kind::kTerminateAll: {
        const bool all = q.kind == AnalysisLine::Kind::kTerminateAll;
        {
          std::lock_guard<std::mutex> lock(mu_);
          for (auto& [id, flag] : live_)
            if (all || id == q.terminate_id) *flag = true;
        }
        nlohmann::json ack = {{"id", q.id}, {"action", all ? "terminate_all" : "terminate"}};
        if (!all) ack["terminateId"] = q.terminate_id;
        out_.write(ack);
        cv_.notify_all();
        return;
      }
      case AnalysisLine::Kind::kQuery:
        break;
    }
    std::string error, file;
    auto model = models_.get(q.spec, &error, &file);
    if (!model) {
      out_.write(analysis_error(q.id, error, "variant"));
      return;
    }
    if (q.positions.front().include_ownership && !inference_model_has_ownership(*model)) {
      out_.write(analysis_error(q.id,
                                "model '" + file + "' has no ownership head (a model trained with " +
                                    "net.ownership_head and exported by this version has one)",
                                "includeOwnership"));
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      live_.erase(std::remove_if(live_.begin(), live_.end(), [](const auto& e) { return e.second.use_count() == 1; }),
                  live_.end());
      live_.emplace_back(q.positions.front().id, q.positions.front().terminated);
      for (auto& p : q.positions) {
        auto job = std::make_unique<Job>();
        p.sequence = next_sequence_++;
        job->pos = std::move(p);
        job->model = model;
        job->rng = Rng(opt_.seed + job->pos.sequence);
        pending_.push_back(std::move(job));
      }
    }
    cv_.notify_all();
  }

  // Moves waiting jobs into this searcher's `active` (highest priority, then earliest, first),
  // up to its share of the positions in flight; answers the terminated waiting ones. Returns
  // false when the input is over and nothing is left to this searcher.
  bool take_jobs(std::vector<std::unique_ptr<Job>>* active) {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      for (auto it = pending_.begin(); it != pending_.end();) {
        if (*(*it)->pos.terminated) {
          out_.write({{"id", (*it)->pos.id}, {"turnNumber", (*it)->pos.turn}, {"isDuringSearch", false}, {"noResults", true}});
          it = pending_.erase(it);
        } else {
          ++it;
        }
      }
      // An even split of --in-flight, and of the positions there are when they are fewer (a
      // few queries are spread over every searcher).
      const size_t searchers = static_cast<size_t>(searchers_), in_flight = static_cast<size_t>(opt_.in_flight);
      const size_t there = std::min(in_flight, running_ + pending_.size());
      const size_t share = std::min((in_flight + searchers - 1) / searchers, (there + searchers - 1) / searchers);
      while (active->size() < share && running_ < in_flight && !pending_.empty()) {
        auto best = std::min_element(pending_.begin(), pending_.end(), [](const auto& a, const auto& b) {
          return a->pos.priority != b->pos.priority ? a->pos.priority > b->pos.priority : a->pos.sequence < b->pos.sequence;
        });
        auto job = std::move(*best);
        pending_.erase(best);
        if (job->pos.state->is_over()) {
          out_.write(game_over_answer(job->pos));
          continue;
        }
        job->tree = std::make_unique<SearchTree>(job->pos.state->spec());
        job->tree->set_root(*job->pos.state);
        job->tree->start_search(settings_, job->pos.visits, false, &job->rng);
        job->next_report = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                              std::chrono::duration<double>(job->pos.report_every));
        active->push_back(std::move(job));
        ++running_;
      }
      if (!active->empty()) return true;
      if (eof_) return false;
      cv_.wait(lock);
    }
  }

  // One searcher: its positions' leaves in one network call per model and round.
  void search_loop(int torch_threads) {
    set_torch_threads(torch_threads);
    std::vector<std::unique_ptr<Job>> active;
    std::map<const InferenceModel*, std::unique_ptr<NetEvaluator>> evaluators;
    EvaluationBatch batch;
    while (take_jobs(&active)) {
      // The root's ownership, once per position, before its search.
      for (auto& job : active) {
        if (!job->pos.include_ownership || !job->ownership.is_null() || !job->tree) continue;
        try {
          job->ownership = root_ownership(*job->model, *job->pos.state);
        } catch (const std::exception& e) {
          out_.write(analysis_error(job->pos.id, first_line(e.what()), "includeOwnership"));
          *job->pos.terminated = true;
          job->tree.reset();
        }
      }
      // One network call per game (model and spec) for the leaves of all its positions.
      std::vector<bool> searched(active.size(), false);
      for (size_t g = 0; g < active.size(); ++g) {
        if (searched[g]) continue;
        const InferenceModel* model = active[g]->model.get();
        const GameSpec spec = active[g]->pos.state->spec();
        auto& evaluator = evaluators[model];
        if (!evaluator) evaluator = std::make_unique<NetEvaluator>(active[g]->model);
        batch.clear();
        std::vector<size_t> group;
        for (size_t i = g; i < active.size(); ++i) {
          if (searched[i] || active[i]->model.get() != model || active[i]->pos.state->spec() != spec) continue;
          searched[i] = true;
          group.push_back(i);
          SearchTree& tree = *active[i]->tree;
          if (tree.done() || *active[i]->pos.terminated) continue;
          tree.collect();
          batch.add_leaves(tree);
        }
        try {
          batch.run(*evaluator);
        } catch (const std::exception& e) {
          for (size_t i : group) {
            out_.write(analysis_error(active[i]->pos.id, first_line(e.what()), "variant"));
            *active[i]->pos.terminated = true;
            active[i]->tree.reset();
          }
        }
      }
      const auto now = Clock::now();
      for (auto& job : active) {
        if (!job->tree) continue;
        if (job->tree->done() || *job->pos.terminated) {
          out_.write(answer(*job, false));
          job->tree.reset();
        } else if (job->pos.report_every > 0 && now >= job->next_report) {
          out_.write(answer(*job, true));
          job->next_report = now + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(job->pos.report_every));
        }
      }
      const auto before = active.size();
      active.erase(std::remove_if(active.begin(), active.end(), [](const auto& j) { return !j->tree; }), active.end());
      if (active.size() < before) {
        {
          std::lock_guard<std::mutex> lock(mu_);
          running_ -= before - active.size();
        }
        cv_.notify_all();  // another searcher may take a share of what waits
      }
      // Networks of no running position are let go.
      for (auto it = evaluators.begin(); it != evaluators.end();) {
        const bool used = std::any_of(active.begin(), active.end(), [&](const auto& j) { return j->model.get() == it->first; });
        it = used ? std::next(it) : evaluators.erase(it);
      }
    }
  }

  Options opt_;
  AnalysisDefaults defaults_;
  SearchSettings settings_;
  ModelCache models_;  // used by the reader thread only
  const int searchers_;
  Output out_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Job>> pending_;
  std::vector<std::pair<std::string, std::shared_ptr<std::atomic<bool>>>> live_;  // terminate flags by id
  uint64_t next_sequence_ = 0;
  size_t running_ = 0;  // positions the searchers hold
  bool eof_ = false;
};

void setup_analysis(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("analysis", "A JSON-lines analysis engine on stdin/stdout (docs/ANALYSIS.md)");
  add_game_options(cmd, &opt->game,
                   {true, "the model's, else quax (a query's own default)",
                    "Default board size of a query (0: the variant's default)", ""});
  add_model_option(cmd, &opt->model,
                  "Model file (quax export) for every query (default: each query's variant's shipped model)");
  cmd->add_option("--visits", opt->visits, "Default maxVisits of a query")->check(CLI::Range(1, kMaxServedSimulations));
  cmd->add_option("--in-flight", opt->in_flight, "Positions searched together (the rest wait by priority)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--leaves", opt->leaves, "Leaves each position hands to a network call (virtual loss)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--threads", opt->threads,
                  "Searcher threads sharing the positions in flight (at most --in-flight; default: the machine's cores)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--net-threads", opt->net_threads, "LibTorch threads of each searcher's network calls")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--precision", opt->precision, "Network precision: auto, fp32 or bf16 (auto: bf16 where this CPU runs it faster, measured once)")
      ->check(CLI::IsMember({"auto", "fp32", "bf16"}));
  cmd->add_option("--seed", opt->seed, "Random seed of the searches");
  add_device_option(cmd, &opt->device);
  cmd->footer("One JSON query a line in, one JSON answer a line out (docs/ANALYSIS.md); exits 0 at end of input.");
  cmd->callback([opt] {
    const Device device = device_from_option(opt->device);
    Precision precision = Precision::kAuto;
    parse_precision(opt->precision, &precision);  // checked by the option
    if (auto err = check_precision_on(resolve_precision_on(precision, device), device, "--precision"); !err.empty())
      throw CommandError(err);
    const GameSpec spec = opt->game.spec_for_model(opt->model);
    std::ios::sync_with_stdio(false);
    // Large fixed malloc thresholds (core/malloc_thresholds.h): glibc's dynamic ones trim the
    // thread heaps after each network call of a large batch, and the next call faults its
    // buffers in again (hex 11 batched: 650,000 to 870,000 page faults a run, now 35,000; twice
    // the CPU time; BENCHMARKS.md, "quax analysis"). Blocks up to 32 MB come from the heaps, and
    // up to 128 MB freed at the top of a heap stays with the process.
    fix_malloc_thresholds(32 << 20, 128 << 20);
    Engine engine(*opt, spec, device, precision);
    engine.run(std::cin);
  });
}

REGISTER_COMMAND("analysis", setup_analysis);

}  // namespace
}  // namespace quax
