// quax.Search: the project's search (mcts/search_tree.h) over a model or the rollout evaluator,
// one game or a batch of games sharing each evaluator call (mcts/evaluation_batch.h), and the
// baseline players without a tree (uct:N, random) under the names the command line uses.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <cmath>
#include <mutex>

#include "core/quoted_input.h"
#include "mcts/baseline_agents.h"
#include "mcts/evaluation_batch.h"
#include "mcts/play_levels.h"
#include "mcts/search_agent.h"
#include "mcts/search_limits.h"
#include "mcts/search_schema.h"
#include "mcts/search_tree.h"
#include "mcts/uct_agent.h"
#include "nets/device.h"
#include "nets/net_evaluator.h"
#include "nets/players.h"
#include "python/bindings.h"

namespace quax::python {
namespace {

// What one search found, board frame.
struct Analysis {
  int action = -1;
  std::vector<float> policy;   // the search's policy (PUCT: visit shares), num_actions entries
  std::vector<int> visits;     // root visits per action (uct too; random: none)
  std::vector<float> q;        // mean value of each visited root action for the mover, NaN elsewhere
                               // (uct: the mean rollout result, win +1, draw 0, loss -1)
  float value = NAN;           // the root's value for the player to move (random: NaN)
  int simulations = 0;
};

class PySearch {
 public:
  // A tree search over `evaluator`, or (evaluator null) the baseline agent of `name`.
  PySearch(std::string name, std::shared_ptr<Evaluator> evaluator, std::shared_ptr<Model> model,
           const SearchSettings& settings, double seconds, uint64_t seed)
      : name_(std::move(name)), evaluator_(std::move(evaluator)), model_(std::move(model)), settings_(settings),
        seconds_(seconds), seed_(seed), rng_(seed) {}

  const std::string& name() const { return name_; }
  const SearchSettings& settings() const { return settings_; }

  // Searches every game (all of one spec, none over) and returns what each search found.
  std::vector<Analysis> run(const std::vector<const Game*>& games) {
    for (size_t i = 0; i < games.size(); ++i) {
      const GameState& s = games[i]->state();
      if (s.is_over()) throw py::value_error("game " + std::to_string(i) + " is over");
      if (s.spec() != games[0]->state().spec())
        throw py::value_error("game " + std::to_string(i) + " is " + describe(s.spec()) + ", game 0 is " +
                              describe(games[0]->state().spec()) + ": a batch is of one game");
    }
    if (games.empty()) return {};
    if (model_) {
      if (std::string error = check_model_plays(*model_->inference, games[0]->state().spec()); !error.empty())
        throw py::value_error(error);
    }
    std::vector<std::unique_ptr<GameState>> states;
    for (const Game* g : games) states.push_back(g->state().clone());
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mu_);
    return evaluator_ ? search_trees(states) : play_agent(states);
  }

 private:
  std::vector<Analysis> search_trees(const std::vector<std::unique_ptr<GameState>>& states) {
    std::vector<std::unique_ptr<SearchTree>> trees;
    std::vector<SearchTree*> roots;
    for (const auto& s : states) {
      trees.push_back(std::make_unique<SearchTree>(s->spec()));
      trees.back()->set_root(*s);
      roots.push_back(trees.back().get());
    }
    run_searches(roots, *evaluator_, settings_, false, rng_, &batch_, seconds_);
    std::vector<Analysis> out;
    std::vector<std::pair<int, float>> target;
    for (auto& tree : trees) {
      const GameState& root_state = tree->root_state();
      Analysis a;
      a.action = tree->choose_action(0.0f, rng_);
      a.value = tree->root_value();
      a.simulations = tree->simulations_done();
      a.policy.assign(root_state.num_actions(), 0.0f);
      a.visits.assign(root_state.num_actions(), 0);
      a.q.assign(root_state.num_actions(), NAN);
      tree->policy_target(&target);
      for (const auto& [net_action, p] : target) a.policy[root_state.from_net_action(net_action)] = p;
      for (const auto& child : tree->root_children()) {
        a.visits[child.action] = child.visits;
        if (child.visits > 0) a.q[child.action] = child.q;
      }
      out.push_back(std::move(a));
    }
    return out;
  }

  std::vector<Analysis> play_agent(const std::vector<std::unique_ptr<GameState>>& states) {
    std::vector<Analysis> out;
    for (const auto& s : states) {
      std::string error;
      if (!agent_) agent_ = make_baseline_agent(name_, seed_, &error);
      Analysis a;
      a.action = agent_->choose_action(*s);
      a.policy.assign(s->num_actions(), 0.0f);
      a.visits.assign(s->num_actions(), 0);
      a.q.assign(s->num_actions(), NAN);
      if (auto* uct = dynamic_cast<UctAgent*>(agent_.get())) {
        // UCT's rollout statistics, in the tree search's convention: q and value for the player
        // to move, NaN for an action never tried.
        double total = 0;
        for (const auto& child : uct->last_root_children()) {
          a.visits[child.action] = child.visits;
          a.q[child.action] = child.q;
          total += child.visits;
        }
        a.value = uct->last_root_value();
        for (int i = 0; i < s->num_actions() && total > 0; ++i) a.policy[i] = static_cast<float>(a.visits[i] / total);
        a.simulations = static_cast<int>(total);
      } else {  // random: every legal action alike
        std::vector<int> legal;
        s->legal_actions(&legal);
        for (int action : legal) a.policy[action] = 1.0f / static_cast<float>(legal.size());
      }
      out.push_back(std::move(a));
    }
    return out;
  }

  std::string name_;
  std::shared_ptr<Evaluator> evaluator_;
  std::shared_ptr<Model> model_;  // the model behind evaluator_, if any
  SearchSettings settings_;
  double seconds_;
  uint64_t seed_;
  Rng rng_;
  std::unique_ptr<Agent> agent_;
  EvaluationBatch batch_;
  std::mutex mu_;  // one search at a time per object (the GIL is released while it runs)
};

// A keyword argument's value as the text doors of the search schema read it: Python's bool
// as true or false, a number by its repr (the shortest that reads back), a str as it is.
std::string schema_text(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) return py::repr(value).cast<std::string>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  return "<" + py::type::of(value).attr("__name__").cast<std::string>() + ">";
}

// Sets each keyword that names a search key (mcts/search_schema.h), with the schema's range
// and its error line as a ValueError; any other keyword is a TypeError, as Python's own.
void apply_search_keywords(SearchSettings* settings, const py::kwargs& keywords) {
  for (const auto& [k, value] : keywords) {
    const auto key = k.cast<std::string>();
    const SearchField* field = find_search_field(key);
    if (!field)
      throw py::type_error("quax.Search got an unexpected keyword argument " + quoted_input(key) +
                           " (it takes the search keys of configs/README.md, without 'search.')");
    if (auto error = set_search_field(settings, *field, schema_text(value)); !error.empty())
      throw py::value_error(bad_search_value(key, error));
  }
}

PySearch* make_search(const py::object& player, const py::object& simulations_arg, std::optional<double> c_puct,
                      std::optional<bool> gumbel, std::optional<double> seconds, uint64_t seed,
                      std::optional<int> level, std::optional<std::string> device_arg, const py::kwargs& keywords) {
  // A bool is an int to Python: simulations=True would be one simulation without a word.
  std::optional<int> simulations;
  if (!simulations_arg.is_none()) {
    if (PyBool_Check(simulations_arg.ptr()) || !PyLong_Check(simulations_arg.ptr()))
      throw py::type_error("simulations must be an integer, not " +
                           std::string(py::str(py::type::of(simulations_arg).attr("__name__"))));
    const long long value = simulations_arg.cast<long long>();
    if (value < 1 || value > kMaxSimulations)
      throw py::value_error(fmt::format("simulations must be 1 to {}, not {}", kMaxSimulations, value));
    simulations = static_cast<int>(value);
  }
  const std::string device = device_arg.value_or("cpu");
  SearchSettings settings = play_settings(SearchSettings{});
  settings.leaves_per_batch = kPlayerLeavesPerBatch;
  double time = 0;
  std::string name;
  PlayerDescription described;  // a model player's typed value (nets/players.h), as every door fills it
  std::shared_ptr<Model> model;
  std::shared_ptr<Evaluator> evaluator;
  if (py::isinstance<Model>(player)) {
    model = player.cast<std::shared_ptr<Model>>();
    name = model->path;
    described = model_player_description(model->path);
    // A loaded model runs where it was loaded: a device asked for here is checked against it,
    // not ignored (Search(model, device='cuda:99') once searched on the CPU without a word).
    if (device_arg) {
      Device want;
      std::string error;
      if (!parse_device(*device_arg, &want, &error)) throw py::value_error("device: " + error);
      try {
        want = resolve_device(want, "device");
      } catch (const std::exception& e) {
        throw py::value_error(e.what());
      }
      const std::string have = device_name(inference_model_device(*model->inference));
      if (device_name(want) != have)
        throw py::value_error("device " + *device_arg + ": this model was loaded on " + have +
                              " (quax.load_model(path, device=...) places it)");
    }
  } else if (py::isinstance<py::str>(player)) {
    name = player.cast<std::string>();
    PlayerDescription d;
    std::string error;
    if (!parse_player_description(name, &d, &error)) throw py::value_error(error);
    if (d.kind == PlayerDescription::Kind::kModel) {
      if (const std::string missing = missing_model_file(d); !missing.empty()) throw py::value_error(missing);
      model = load_model(d.model_path, "auto", device);
      described = d;
    } else if (const auto baseline = parse_baseline(name, &error); !baseline) {
      throw py::value_error(error);
    } else if (baseline->kind == BaselinePlayer::Kind::kMcts) {
      settings.simulations = baseline->count;
      settings.leaves_per_batch = 1;
      evaluator = make_mcts_baseline_evaluator(seed);
    }
  } else {
    throw py::value_error("a player is a quax.Model or a name: " + std::string(kPlayerSyntax));
  }
  if (model) evaluator = std::make_shared<NetEvaluator>(model->inference);
  if (!evaluator && (simulations || c_puct || gumbel || seconds || level || !keywords.empty()))
    throw py::value_error("'" + name + "' does not search a tree: simulations, c_puct, gumbel, seconds, level and "
                          "the search keys do not apply");
  if (level && !model) throw py::value_error("level plays a model weaker, not '" + name + "'");
  if (level && (*level < kMinPlayLevel || *level > kMaxPlayLevel))
    throw py::value_error("level must be " + play_level_range() + ", not " + std::to_string(*level));
  if (level && (simulations || seconds)) throw py::value_error("level sets the search's size: give it without simulations or seconds");
  // The ranges of the player syntax (nets/players.h), named as the caller wrote them; NaN fails
  // every comparison and so every range.
  if (c_puct && !(*c_puct > 0 && *c_puct <= kMaxPlayerCPuct))
    throw py::value_error(fmt::format("c_puct must be more than 0 and at most {}, not {}", kMaxPlayerCPuct, *c_puct));
  if (seconds && !(*seconds >= kMinPlayerSeconds && *seconds <= kMaxPlayerSeconds))
    throw py::value_error(fmt::format("seconds must be {} to {} (seconds per move), not {}", kMinPlayerSeconds,
                                      kMaxPlayerSeconds, *seconds));
  if (model) {
    // The size goes into the typed player value as the other doors' does (a level reads the
    // model's own table); the words above are this door's.
    PlayerSearchSize size;
    size.sims = simulations.value_or(0);
    size.seconds = seconds.value_or(0.0);
    size.level = level.value_or(0);
    std::string error;
    if (!set_player_search_size(&described, size, &error)) throw py::value_error(error);
    settings = described.search;
    time = described.seconds;
  } else if (simulations) {
    settings.simulations = *simulations;  // mcts:N's playouts
  }
  if (c_puct) settings.c_puct = static_cast<float>(*c_puct);
  if (gumbel && *gumbel) settings.root_rule = RootRule::kGumbel;  // without noise: play_settings
  apply_search_keywords(&settings, keywords);
  if (std::string error = check_settings(settings); !error.empty()) throw py::value_error(error);
  if (time > 0 && settings.root_rule == RootRule::kGumbel)
    throw py::value_error("seconds works with PUCT only, not gumbel");
  return new PySearch(name, evaluator, model, settings, time, seed);
}

py::dict analysis_dict(const Analysis& a) {
  py::dict d;
  d["action"] = a.action;
  d["policy"] = py::array_t<float>(static_cast<py::ssize_t>(a.policy.size()), a.policy.data());
  d["visits"] = py::array_t<int>(static_cast<py::ssize_t>(a.visits.size()), a.visits.data());
  d["q"] = py::array_t<float>(static_cast<py::ssize_t>(a.q.size()), a.q.data());
  d["value"] = a.value;
  d["simulations"] = a.simulations;
  return d;
}

}  // namespace

void bind_search(py::module_& m) {
  m.def(
      "search_keys",
      [] {
        py::list keys;
        const SearchSettings defaults;
        for (const auto& f : search_fields()) {
          py::dict d;
          d["key"] = f.key;
          d["kind"] = f.kind == SearchField::Kind::kInteger   ? "integer"
                      : f.kind == SearchField::Kind::kNumber  ? "number"
                      : f.kind == SearchField::Kind::kBoolean ? "boolean"
                                                              : "rule";
          d["low"] = f.lo;
          d["high"] = f.hi;
          d["default"] = search_field_text(defaults, f);
          d["expected"] = search_field_expected(f);
          d["doc"] = f.doc;
          keys.append(d);
        }
        return keys;
      },
      "The search keys quax.Search takes as keywords (configs/README.md's search.* keys): a list of dicts "
      "with key, kind (integer, number, boolean, rule), low, high, default (as text), expected (the error's "
      "words) and doc.");
  py::class_<PySearch>(m, "Search", R"(A player that searches: a quax.Model, or a name as the command line takes it.

  quax.Search(model, simulations=200)          PUCT over the model (gumbel=True: Gumbel root)
  quax.Search("checkpoints/quax-7.pt:sims=400") a model file with its settings
  quax.Search(model, level=3)                  a weaker player: levels 1 (novice) to 10 (full
                                                strength, 200 simulations), as `quax play --level`
  quax.Search("mcts:1000")                      PUCT with random-rollout leaf values
  quax.Search("uct:1000"), quax.Search("random") the baselines: UCT's policy is its root
                                                visits, its q and value its mean rollout results;
                                                random's policy is uniform, its q and value NaN

A model file named by a string runs on `device` (cpu, cuda, cuda:N or auto, as
quax.load_model); a quax.Model runs where it was loaded.

Any other keyword is a search key of configs/README.md without "search." (fpu_reduction=0.1,
rule="gumbel", leaves_per_batch=8, ...), read with a config's range and error line.

Every method takes quax.Game objects and answers in the board frame. Searches are
deterministic for a given seed and sequence of calls; no noise is added.)")
      .def(py::init(&make_search), py::arg("player"), py::arg("simulations") = py::none(),
           py::arg("c_puct") = py::none(), py::arg("gumbel") = py::none(), py::arg("seconds") = py::none(),
           py::arg("seed") = 0, py::arg("level") = py::none(), py::arg("device") = py::none())
      .def_property_readonly("name", &PySearch::name)
      .def_property_readonly("simulations", [](const PySearch& s) { return s.settings().simulations; })
      .def(
          "best_action", [](PySearch& s, const Game& game) { return s.run({&game})[0].action; }, py::arg("game"),
          "The move the search chooses (the most visited), board frame.")
      .def(
          "policy",
          [](PySearch& s, const Game& game) {
            const auto a = s.run({&game})[0];
            return py::array_t<float>(static_cast<py::ssize_t>(a.policy.size()), a.policy.data());
          },
          py::arg("game"), "float32 [num_actions]: the search's policy (PUCT: the root's visit shares), board frame.")
      .def(
          "analyze", [](PySearch& s, const Game& game) { return analysis_dict(s.run({&game})[0]); }, py::arg("game"),
          "dict: action, policy, visits and q per action (board frame; q NaN where not visited), value for the "
          "player to move (q and value in [-1, 1]: +1 a sure win; random: NaN), simulations.")
      .def(
          "search",
          [](PySearch& s, const py::sequence& list) {
            std::vector<const Game*> games;
            for (const auto& item : list) games.push_back(&item.cast<const Game&>());
            const auto found = s.run(games);
            const py::ssize_t b = static_cast<py::ssize_t>(found.size());
            const py::ssize_t a = b ? static_cast<py::ssize_t>(found[0].policy.size()) : 0;
            py::array_t<int64_t> actions(b);
            py::array_t<float> policies({b, a}), values(b);
            for (py::ssize_t i = 0; i < b; ++i) {
              actions.mutable_data()[i] = found[i].action;
              values.mutable_data()[i] = found[i].value;
              std::copy(found[i].policy.begin(), found[i].policy.end(), policies.mutable_data() + i * a);
            }
            return py::make_tuple(actions, policies, values);
          },
          py::arg("games"),
          "Searches a list of games of one variant and size together (one network call per round for all of "
          "them): (actions int64 [B], policies float32 [B, num_actions], values float32 [B]).");
}

}  // namespace quax::python
