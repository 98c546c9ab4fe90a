// quax.VectorEnv: B games stepped together (env/vector_env.h) in the conventions of
// Gymnasium's vector API, with PettingZoo's AEC turn order (two agents, "black" and "white";
// the player to move acts). Observations, masks and actions are in the network frame.
//
// The arrays step() returns live in buffers owned by the environment; with copy=False they
// are returned as they are (zero-copy: the same objects, overwritten by the next step or
// reset), with copy=True (the default, as Gymnasium's) as fresh copies.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>

#include "core/quoted_input.h"
#include "env/rng.h"
#include "env/vector_env.h"
#include "python/bindings.h"

namespace quax::python {
namespace {

// The most memory one VectorEnv may take (vector_env_bytes), leaving room under 2 GB for the
// caller's arrays and the previous step's copies while the next are made (measured: 1.3 GB of
// RSS at the limit for quax 26x26, stepping with copy=True).
constexpr uint64_t kMaxVectorEnvBytes = uint64_t{1} << 30;

// The memory of num_envs games of `spec`: the games and their buffers (VectorEnv::memory_bound)
// and the copy of the observations that each step returns.
uint64_t vector_env_bytes(const GameSpec& spec, int64_t num_envs) {
  const auto start = new_game(spec);
  const uint64_t observations = sizeof(float) * static_cast<uint64_t>(start->num_planes()) * spec.size * spec.size;
  return VectorEnv::memory_bound(spec, num_envs) + observations * static_cast<uint64_t>(num_envs);
}

class PyVectorEnv {
 public:
  PyVectorEnv(const GameSpec& spec, int num_envs, uint64_t seed, bool copy)
      : env_(std::make_unique<VectorEnv>(spec, num_envs)), spec_(spec), num_envs_(num_envs),
        num_actions_(env_->num_actions()), num_planes_(env_->num_planes()), plane_names_(env_->game(0).plane_names()),
        rng_(seed), copy_(copy), requested_(num_envs), actions_(num_envs), actors_(num_envs), results_(num_envs),
        histories_(num_envs) {
    const int b = num_envs, n = spec.size;
    observations_ = py::array_t<float>({b, num_planes_, n, n});
    masks_ = py::array_t<bool>({b, num_actions_});
    rewards_ = py::array_t<float>(b);
    terminated_ = py::array_t<bool>(b);
    truncated_ = py::array_t<bool>(b);
    to_move_ = py::array_t<int8_t>(b);
    winner_ = py::array_t<int8_t>(b);
    length_ = py::array_t<int32_t>(b);
    std::fill_n(truncated_.mutable_data(), b, false);
    info_["action_mask"] = masks_;
    info_["to_move"] = to_move_;
    info_["winner"] = winner_;
    info_["length"] = length_;
    refresh(false);
    // Gymnasium's four spaces (python/spaces.cpp), made once so that a seed given to one holds.
    const py::module_ quax_module = py::module_::import("quax");
    const float high = VectorEnv::max_observation(spec);
    single_observation_space_ = quax_module.attr("Box")(0.0f, high, py::make_tuple(num_planes_, n, n), "float32", seed);
    observation_space_ = quax_module.attr("Box")(0.0f, high, py::make_tuple(b, num_planes_, n, n), "float32", seed);
    single_action_space_ = quax_module.attr("Discrete")(num_actions_, 0, seed);
    action_space_ = quax_module.attr("MultiDiscrete")(std::vector<int64_t>(num_envs, num_actions_), "int64", seed);
  }

  // Fixed at construction, readable after close().
  const GameSpec& spec() const { return spec_; }
  int num_envs() const { return num_envs_; }
  int num_actions() const { return num_actions_; }
  int num_planes() const { return num_planes_; }
  const std::vector<std::string>& plane_names() const { return plane_names_; }
  const py::object& single_observation_space() const { return single_observation_space_; }
  const py::object& observation_space() const { return observation_space_; }
  const py::object& single_action_space() const { return single_action_space_; }
  const py::object& action_space() const { return action_space_; }
  bool closed() const { return !env_; }

  // A copy of game i with its record, taken under the lock (a step may be under way).
  Game game(int i) {
    const auto lock = lock_without_gil(mu_);
    check_open();
    return Game(env_->game(i).clone(), histories_[i]);
  }

  py::tuple reset(std::optional<uint64_t> seed, const py::object& options) {
    // Gymnasium's wrappers pass options=None; this environment has none to take.
    if (!options.is_none() && !(py::isinstance<py::dict>(options) && py::len(options) == 0))
      throw py::value_error("options: VectorEnv.reset takes none (pass None or {})");
    const auto lock = lock_without_gil(mu_);
    check_open();
    if (seed) rng_ = Rng(*seed);
    env_->reset_all();
    for (auto& h : histories_) h.clear();
    refresh(false);
    return py::make_tuple(out(observations_), out_info());
  }

  py::tuple step(const py::object& actions) {
    // Held from the check of the actions against the masks to the copies of the results: no
    // other thread's step may move the games in between (the GIL is released while they step).
    const auto lock = lock_without_gil(mu_);
    check_open();
    read_actions(actions);
    const int b = num_envs_, a = num_actions_;
    const uint8_t* masks = reinterpret_cast<const uint8_t*>(masks_.data());
    for (int i = 0; i < b; ++i) {  // every action checked before any game moves
      const int64_t action = requested_[i];
      if (action < 0 || action >= a || !masks[static_cast<size_t>(i) * a + action])
        throw py::value_error(not_legal(i, std::to_string(action)));
      actions_[i] = static_cast<int>(action);
    }
    {
      py::gil_scoped_release release;
      for (int i = 0; i < b; ++i) {
        actors_[i] = env_->to_move(i);
        histories_[i].push_back(env_->to_board_action(i, actions_[i]));
      }
      env_->step(actions_.data(), results_.data());
      refresh(true);
    }
    return py::make_tuple(out(observations_), out(rewards_), out(terminated_), out(truncated_), out_info());
  }

  py::array_t<int64_t> sample_actions() {
    const auto lock = lock_without_gil(mu_);
    check_open();
    const int b = num_envs_, a = num_actions_;
    py::array_t<int64_t> actions(b);
    int64_t* out = actions.mutable_data();
    const uint8_t* masks = reinterpret_cast<const uint8_t*>(masks_.data());
    for (int i = 0; i < b; ++i) out[i] = sample_legal(masks + static_cast<size_t>(i) * a, a, rng_);
    return actions;
  }

  py::array observations() const {
    check_open();
    return observations_;
  }
  py::array masks() const {
    check_open();
    return masks_;
  }

  // Frees the games and this object's buffers (arrays already returned stay the caller's);
  // every later call but close() and the fixed properties raises ValueError. Twice is harmless.
  void close() {
    const auto lock = lock_without_gil(mu_);
    env_.reset();
    for (auto& h : histories_) h = {};
    observations_ = py::array_t<float>();
    masks_ = py::array_t<bool>();
    info_.clear();
  }

 private:
  void check_open() const {
    if (!env_) throw py::value_error("this VectorEnv is closed: make a new one");
  }

  std::string not_legal(int i, const std::string& action) const {
    return "actions[" + std::to_string(i) + "] = " + action + " is not a legal network-frame action of environment " +
           std::to_string(i) + " (" + describe(spec_) + ", move " + std::to_string(env_->move_number(i)) + ")";
  }

  // Reads one action per environment into requested_: from a 1-D numpy array of integers, or
  // a list or tuple of Python or numpy integers. ValueError saying what is wrong, and for an
  // entry which one, for anything else (a float, a bool, a string, the wrong length).
  void read_actions(const py::object& actions) {
    const int b = num_envs_;
    const auto count_error = [b](size_t count) {
      return py::value_error("actions: " + std::to_string(count) + " entries for " + std::to_string(b) +
                             " environments");
    };
    if (py::isinstance<py::array>(actions)) {
      const auto array = py::reinterpret_borrow<py::array>(actions);
      check_array(array, "actions", "iu", 0, 1);
      if (array.shape(0) != b) throw count_error(static_cast<size_t>(array.shape(0)));
      if (array.dtype().kind() == 'u' && array.itemsize() == 8) {  // beyond int64: named as given, not wrapped
        const auto as_unsigned = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>::ensure(array);
        for (int i = 0; i < b; ++i)
          if (as_unsigned.data()[i] > static_cast<uint64_t>(INT64_MAX))
            throw py::value_error(not_legal(i, std::to_string(as_unsigned.data()[i])));
      }
      const auto as_int = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
      std::copy_n(as_int.data(), b, requested_.data());
      return;
    }
    if (!py::isinstance<py::list>(actions) && !py::isinstance<py::tuple>(actions))
      throw py::value_error("actions: a list, tuple or numpy array of " + std::to_string(b) +
                            " integers (one per environment), not " +
                            std::string(Py_TYPE(actions.ptr())->tp_name));
    const auto items = py::reinterpret_borrow<py::sequence>(actions);
    if (items.size() != static_cast<size_t>(b)) throw count_error(items.size());
    for (int i = 0; i < b; ++i) {
      const py::object item = items[static_cast<size_t>(i)];
      const auto text = [&item] { return printable_line(std::string(py::repr(item))); };  // for errors only
      // operator.index's rule (Python and numpy integers, not floats), less bool, which is an
      // int to Python but never an action.
      py::object index;
      if (!PyBool_Check(item.ptr()) && PyIndex_Check(item.ptr()))
        index = py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()));
      if (!index) {
        PyErr_Clear();
        throw py::value_error("actions[" + std::to_string(i) + "] = " + text() + " is not an integer (environment " +
                              std::to_string(i) + ")");
      }
      int overflow = 0;
      const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
      if (overflow != 0 || (value == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        throw py::value_error(not_legal(i, text()));
      }
      requested_[i] = value;
    }
  }

  // Rewrites every buffer from the environment; `stepped`: from results_ and actors_ too.
  void refresh(bool stepped) {
    const int b = num_envs_;
    env_->encode(observations_.mutable_data());
    env_->legal_masks(reinterpret_cast<uint8_t*>(masks_.mutable_data()));
    float* rewards = rewards_.mutable_data();
    bool* terminated = terminated_.mutable_data();
    int8_t *to_move = to_move_.mutable_data(), *winner = winner_.mutable_data();
    int32_t* length = length_.mutable_data();
    for (int i = 0; i < b; ++i) {
      to_move[i] = static_cast<int8_t>(env_->to_move(i));
      const VectorEnv::StepResult r = stepped ? results_[i] : VectorEnv::StepResult{};
      terminated[i] = r.finished;
      length[i] = r.length;
      winner[i] = -1;
      rewards[i] = 0.0f;
      if (!r.finished) continue;
      const Player won = winner_of(r.outcome);
      winner[i] = r.outcome == Outcome::kDraw ? 2 : static_cast<int8_t>(won);
      if (won != Player::kNone) rewards[i] = won == actors_[i] ? 1.0f : -1.0f;
      histories_[i].clear();  // auto-reset: slot i holds a new game
    }
  }

  py::object out(const py::array& a) const { return copy_ ? a.attr("copy")() : py::object(a); }
  py::object out_info() const {
    if (!copy_) return info_;
    py::dict fresh;
    for (const auto& [key, value] : info_) fresh[key] = value.attr("copy")();
    return fresh;
  }

  std::unique_ptr<VectorEnv> env_;  // null once closed
  GameSpec spec_;
  int num_envs_, num_actions_, num_planes_;
  std::vector<std::string> plane_names_;
  Rng rng_;
  bool copy_;
  std::vector<int64_t> requested_;  // the actions step() was given, before they are checked
  std::vector<int> actions_;
  std::vector<Player> actors_;  // who acted in each game in the last step
  std::vector<VectorEnv::StepResult> results_;
  std::vector<std::vector<int>> histories_;
  py::array_t<float> observations_, rewards_;
  py::array_t<bool> masks_, terminated_, truncated_;
  py::array_t<int8_t> to_move_, winner_;
  py::array_t<int32_t> length_;
  py::dict info_;
  py::object single_observation_space_, observation_space_, single_action_space_, action_space_;
  std::mutex mu_;  // taken by every method that reads or moves the games (lock_without_gil)
};

}  // namespace

void bind_vector_env(py::module_& m) {
  py::class_<PyVectorEnv>(m, "VectorEnv", R"(num_envs games of one variant and size, stepped together.

Gymnasium's vector API: reset() -> (observations, info); step(actions) -> (observations,
rewards, terminated, truncated, info). A game that ends is reset in the same step (its slot
holds a new game at once); its result is in that step's terminated, rewards and info.
PettingZoo's AEC turn order: the two agents are "black" and "white", and in each game the
player to move (info["to_move"]: 0 black, 1 white) is the one whose action step() takes.

  observations  float32 [num_envs, planes, size, size], each game from its mover's view,
                in the network frame (the mover connects north-south)
  actions       integers [num_envs], network-frame actions, legal in info["action_mask"]
  rewards       float32 [num_envs], for the player who acted: +1 won, -1 lost, 0 otherwise
  terminated    bool [num_envs]: the game ended with this step; truncated: always False
  info          action_mask (bool [num_envs, num_actions], legal network-frame actions),
                to_move (int8), winner (int8: -1 not ended, 0 black, 1 white, 2 draw),
                length (int32: plies of a game that ended, else 0)

Spaces, with Gymnasium's attribute names (quax.Box, quax.Discrete, quax.MultiDiscrete; no
Gymnasium needed): single_observation_space Box(0, high, (planes, size, size), float32),
observation_space the same with num_envs first; single_action_space Discrete(num_actions),
action_space MultiDiscrete([num_actions] * num_envs). Legal actions are fewer: sample them
with sample_actions() or action_space.sample(mask=info["action_mask"]).
close() frees the games (later calls raise ValueError); `with quax.VectorEnv(...) as env:`
closes at the end of the block.

copy=False returns the environment's own buffers (zero-copy; the next step overwrites them).
num_envs is bounded by memory: the games, buffers and returned copies may take at most 1 GB
(about 14,000 games at 26x26, 100,000 at 5x5); more raises ValueError naming the estimate.
Methods may be called from several threads: each takes the environment's own lock, so
their calls take turns (the GIL is released while the games step).)")
      .def(py::init([](const std::string& variant, std::optional<int> size, int64_t num_envs, uint64_t seed,
                       std::optional<bool> swap, bool copy) {
             const GameSpec spec = spec_from(variant, size, swap);
             if (num_envs < 1) throw py::value_error("num_envs must be at least 1, not " + std::to_string(num_envs));
             // The bound is of memory, not of a count: a count that fits 5x5 would not fit 26x26.
             const uint64_t bytes = vector_env_bytes(spec, num_envs);
             if (bytes > kMaxVectorEnvBytes)
               throw py::value_error(fmt::format(
                   "num_envs={} games of {} would take about {} MB, more than the {} MB limit of a VectorEnv (at most "
                   "{} games of this size)",
                   num_envs, describe(spec), bytes >> 20, kMaxVectorEnvBytes >> 20,
                   kMaxVectorEnvBytes / vector_env_bytes(spec, 1)));
             return new PyVectorEnv(spec, static_cast<int>(num_envs), seed, copy);
           }),
           py::arg("variant"), py::arg("size") = py::none(), py::arg("num_envs") = 1, py::arg("seed") = 0,
           py::arg("swap") = py::none(), py::arg("copy") = true)
      .def_property_readonly("num_envs", &PyVectorEnv::num_envs)
      .def_property_readonly("num_actions", &PyVectorEnv::num_actions)
      .def_property_readonly("observation_shape",
                             [](const PyVectorEnv& e) {
                               const int n = e.spec().size;
                               return py::make_tuple(e.num_planes(), n, n);
                             })
      .def_property_readonly("plane_names", &PyVectorEnv::plane_names)
      .def_property_readonly("possible_agents", [](const PyVectorEnv&) { return std::vector<std::string>{"black", "white"}; })
      .def_property_readonly("single_observation_space", &PyVectorEnv::single_observation_space,
                             "quax.Box: one game's observation (shape, dtype float32, low 0, high).")
      .def_property_readonly("observation_space", &PyVectorEnv::observation_space,
                             "quax.Box: the batch's observations, shape (num_envs,) + observation_shape.")
      .def_property_readonly("single_action_space", &PyVectorEnv::single_action_space,
                             "quax.Discrete(num_actions): one game's network-frame action (legal ones: the mask).")
      .def_property_readonly("action_space", &PyVectorEnv::action_space,
                             "quax.MultiDiscrete([num_actions] * num_envs): the actions step() takes.")
      .def("reset", &PyVectorEnv::reset, py::arg("seed") = py::none(), py::arg("options") = py::none(),
           "Restarts every game; a seed reseeds sample_actions(). options: None or {} (Gymnasium's wrappers pass "
           "it). Returns (observations, info).")
      .def("step", &PyVectorEnv::step, py::arg("actions"),
           "One network-frame action per game: a list, tuple or 1-D numpy array of num_envs integers. "
           "ValueError (and no game moves) naming the entry if any is not an integer or not legal.")
      .def("sample_actions", &PyVectorEnv::sample_actions,
           "A uniformly random legal network-frame action per game (int64 [num_envs]).")
      .def("close", &PyVectorEnv::close,
           "Frees the games and buffers; later calls raise ValueError (the spaces and sizes stay readable). "
           "Closing twice is harmless.")
      .def_property_readonly("closed", &PyVectorEnv::closed)
      .def("__enter__", [](py::object self) { return self; })
      .def(
          "__exit__", [](PyVectorEnv& e, const py::args&) { e.close(); },
          "Closes the environment (`with quax.VectorEnv(...) as env:`); an exception passes on.")
      .def_property_readonly("observations", &PyVectorEnv::observations,
                             "The current observations (the environment's buffer, not a copy).")
      .def_property_readonly("action_masks", &PyVectorEnv::masks,
                             "The current legal masks (the environment's buffer, not a copy).")
      .def(
          "game",
          [](PyVectorEnv& e, int i) {
            if (i < 0 || i >= e.num_envs())
              throw py::value_error("environment " + std::to_string(i) + " of " + std::to_string(e.num_envs()));
            return e.game(i);
          },
          py::arg("index"), "A copy of game `index` as a quax.Game (board frame, with its record).");
}

}  // namespace quax::python
