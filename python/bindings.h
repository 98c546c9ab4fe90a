// The pieces of the Python module `quax` (pybind11), one file each, put together by
// module.cpp. Every error a caller can cause (unknown variant, bad size, illegal move, array of
// the wrong shape or dtype) raises ValueError with one line saying what is wrong, before
// anything changes; calls that can take long release the GIL.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "env/types.h"
#include "nets/net_evaluator.h"

namespace quax::python {

namespace py = pybind11;

// The spec a call names: a variant by name, its default size and pie rule unless given.
// Raises ValueError naming the unknown variant or the unplayable size.
GameSpec spec_from(const std::string& variant, std::optional<int> size, std::optional<bool> swap);

// "black", "white", or None for kNone.
py::object player_object(Player p);

// A game and the actions that led to it from the start (board frame), which record() writes.
// The Python class `quax.Game`; the vectorized environment and the search read it too.
class Game {
 public:
  explicit Game(const GameSpec& spec);
  Game(std::unique_ptr<GameState> state, std::vector<int> actions)
      : state_(std::move(state)), actions_(std::move(actions)) {}
  Game(const Game& other) : state_(other.state_->clone()), actions_(other.actions_) {}

  const GameState& state() const { return *state_; }
  const std::vector<int>& actions() const { return actions_; }
  // Raises ValueError with the engine's reason when `action` is out of range or not legal.
  void apply(int64_t action);
  // Applies one record token (a move, or a whole turn where the variant writes one so), all
  // or nothing.
  void apply_text(const std::string& text);

 private:
  std::unique_ptr<GameState> state_;
  std::vector<int> actions_;
};

// A model file loaded for inference: the Python class `quax.Model`.
struct Model {
  std::string path;
  std::shared_ptr<const InferenceModel> inference;
  GameSpec spec;           // its own game: variant, the size it was made for, pie rule
  std::vector<int> sizes;  // the board sizes it was trained on
  int64_t step = 0;
  std::string description;  // the file's JSON description
};
// Raises FileNotFoundError for a missing file, ValueError for one that is not a usable model
// (nets/net_evaluator.h: load_inference_model), an unknown precision name, or a device
// (nets/device.h) that is not cpu, cuda, cuda:N or auto or that this machine lacks.
std::shared_ptr<Model> load_model(const std::string& path, const std::string& precision, const std::string& device);

// ValueError unless `array` holds `kind` ('f' float, 'i' signed or 'u' unsigned integer,
// 'b' bool) elements of `itemsize` bytes (0: any) in `ndim` dimensions; `what` names it.
void check_array(const py::array& array, const char* what, const std::string& kinds, int itemsize, int ndim);

// Locks `mu`, an object's own lock, waiting for it with the GIL released: a thread that holds
// `mu` while it runs without the GIL needs the GIL back before it lets go, so waiting for `mu`
// with the GIL held would deadlock. Returns with both held. Every method of an object that
// releases the GIL takes its lock first, so two Python threads never run one object's C++
// state at once (they take turns; different objects run in parallel).
std::unique_lock<std::mutex> lock_without_gil(std::mutex& mu);

void bind_game(py::module_& m);
// quax.Box, quax.Discrete, quax.MultiDiscrete: VectorEnv's spaces under Gymnasium's names.
void bind_spaces(py::module_& m);
void bind_vector_env(py::module_& m);
void bind_model(py::module_& m);
void bind_search(py::module_& m);

}  // namespace quax::python
