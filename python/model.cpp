// quax.load_model and quax.Model: the project's model files, evaluated on batches of
// observations as the search evaluates them (frozen, optimized TorchScript; nets/net_evaluator.h).
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "nets/device.h"
#include "nets/model_file.h"
#include "nets/model_locations.h"
#include "python/bindings.h"

namespace quax::python {

std::shared_ptr<Model> load_model(const std::string& given, const std::string& precision_name,
                                  const std::string& device_name) {
  Precision precision;
  if (!parse_precision(precision_name, &precision))
    throw py::value_error("unknown precision '" + precision_name + "' (known: fp32, bf16, int8, auto)");
  Device device;
  std::string device_error;
  if (!parse_device(device_name, &device, &device_error)) throw py::value_error("device: " + device_error);
  try {
    device = resolve_device(device, "device");
  } catch (const std::exception& e) {
    throw py::value_error(e.what());
  }
  // A shipped model may be named by its file name alone (nets/model_locations.h).
  const std::string path = find_model_file(given);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {  // a FIFO or directory: the loader names what it is
    PyErr_SetString(PyExc_FileNotFoundError, ("no model file '" + given + "'" + shipped_search_note(given)).c_str());
    throw py::error_already_set();
  }
  auto model = std::make_shared<Model>();
  model->path = path;
  try {
    py::gil_scoped_release release;
    const LoadedModel file = load_model_file(path);
    model->spec = file.shape.spec;
    model->sizes = file.trained_sizes;
    model->step = file.step;
    model->description = file.description.dump();
    model->inference = load_inference_model(path, model->spec, precision, device);
  } catch (const std::exception& e) {
    throw py::value_error(e.what());
  }
  return model;
}

namespace {

// The most positions Model.evaluate takes in one call (its planes are copied contiguous).
constexpr int64_t kMaxEvaluateBatch = 1 << 16;

// Policy (softmax over the legal entries, or the raw logits) and value of a batch.
py::tuple evaluate(const Model& model, const py::array& observations, const py::array& masks, bool logits) {
  check_array(observations, "observations", "f", 4, 4);
  check_array(masks, "masks", "bu", 1, 2);
  // A view can stand for far more memory than it holds (np.broadcast_to of one position to
  // 10**9): bounded before the contiguous copy is asked for.
  if (observations.shape(0) > kMaxEvaluateBatch)
    throw py::value_error("observations: a batch of " + std::to_string(observations.shape(0)) + " positions; at most " +
                          std::to_string(kMaxEvaluateBatch) + " at once");
  const auto planes = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(observations);
  const auto legal = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(masks);
  // ensure() gives a null array, with the Python error (MemoryError) set, when the copy fails.
  if (!planes || !legal) throw py::error_already_set();
  const int64_t b = planes.shape(0), c = planes.shape(1), n = planes.shape(2);
  if (planes.shape(3) != n) throw py::value_error("observations: boards of " + std::to_string(n) + "x" + std::to_string(planes.shape(3)) + " are not square");
  GameSpec spec = model.spec;
  spec.size = static_cast<int>(n);
  if (std::string error = check_spec(spec); !error.empty()) throw py::value_error("observations: " + error);
  const auto start = new_game(spec);
  if (c != start->num_planes())
    throw py::value_error("observations: " + std::to_string(c) + " planes, the model reads " +
                          std::to_string(start->num_planes()));
  const int64_t a = start->num_actions();
  if (legal.shape(0) != b || legal.shape(1) != a)
    throw py::value_error("masks: shape [" + std::to_string(legal.shape(0)) + ", " + std::to_string(legal.shape(1)) +
                          "], expected [" + std::to_string(b) + ", " + std::to_string(a) + "]");
  if (std::string error = check_model_plays(*model.inference, spec); !error.empty()) throw py::value_error(error);
  const uint8_t* m = legal.data();
  for (int64_t i = 0; i < b && !logits; ++i)
    if (std::find(m + i * a, m + (i + 1) * a, 1) == m + (i + 1) * a)
      throw py::value_error("masks: row " + std::to_string(i) + " has no legal action");
  py::array_t<float> policy({b, a}), value(b);
  float* p = policy.mutable_data();
  float* v = value.mutable_data();
  {
    py::gil_scoped_release release;
    NetEvaluator evaluator(model.inference);
    const std::vector<const GameState*> states(static_cast<size_t>(b), start.get());
    if (b > 0) evaluator.evaluate(states, planes.data(), m, p, v);
    for (int64_t i = 0; i < b && !logits; ++i) {
      float* row = p + i * a;
      const uint8_t* ok = m + i * a;
      float top = -INFINITY;
      for (int64_t j = 0; j < a; ++j)
        if (ok[j]) top = std::max(top, row[j]);
      double sum = 0;
      for (int64_t j = 0; j < a; ++j) sum += row[j] = ok[j] ? std::exp(row[j] - top) : 0.0f;
      for (int64_t j = 0; j < a; ++j) row[j] = static_cast<float>(row[j] / sum);
    }
  }
  return py::make_tuple(policy, value);
}

}  // namespace

void bind_model(py::module_& m) {
  py::class_<Model, std::shared_ptr<Model>>(m, "Model", R"(A model file of the project, ready for inference.

evaluate(observations, masks) takes what Game.observation() / net_legal_mask() or VectorEnv
give (network frame) and returns the policy over the network-frame actions and the value for
the player to move (+1 a sure win). The network is fully convolutional: any size of the
model's variant can be evaluated (the sizes it was trained on play best).)")
      .def_property_readonly("path", [](const Model& model) { return model.path; })
      .def_property_readonly("variant", [](const Model& model) { return std::string(variant_info(model.spec.variant).name); })
      .def_property_readonly("size", [](const Model& model) { return model.spec.size; })
      .def_property_readonly("swap", [](const Model& model) { return model.spec.swap; })
      .def_property_readonly("sizes", [](const Model& model) { return model.sizes; }, "The board sizes it was trained on.")
      .def_property_readonly("step", [](const Model& model) { return model.step; }, "Its training step.")
      .def_property_readonly("precision", [](const Model& model) {
        return std::string(precision_name(inference_model_precision(*model.inference)));
      })
      .def_property_readonly(
          "device", [](const Model& model) { return device_name(inference_model_device(*model.inference)); },
          "Where its network runs: cpu or cuda:N.")
      .def_property_readonly("description",
                             [](const Model& model) { return py::module_::import("json").attr("loads")(model.description); },
                             "The file's description (quax.json) as a dict.")
      .def(
          "evaluate",
          [](const Model& model, const py::array& observations, const py::array& masks, bool logits) {
            return evaluate(model, observations, masks, logits);
          },
          py::arg("observations"), py::arg("masks"), py::arg("logits") = false,
          "observations float32 [B, planes, N, N], masks bool [B, num_actions] (network frame) -> (policy "
          "float32 [B, num_actions]: softmax over the legal actions, or the raw logits with logits=True; value "
          "float32 [B])")
      .def("game", [](const Model& model, std::optional<int> size) {
             GameSpec spec = model.spec;
             if (size) spec.size = *size;
             if (std::string error = check_spec(spec); !error.empty()) throw py::value_error(error);
             return Game(spec);
           },
           py::arg("size") = py::none(), "A new game of the model's variant (its own size unless given).")
      .def("__repr__", [](const Model& model) {
        return "<quax.Model " + model.path + ": " + describe(model.spec) + ", step " + std::to_string(model.step) + ">";
      });
  m.def("load_model", &load_model, py::arg("path"), py::arg("precision") = "fp32", py::arg("device") = "cpu",
        "Loads a model file (quax export, a run's models/; a shipped model by its name alone, 'quax-7.pt'). precision: fp32 (default, equal to "
        "torch.jit.load's outputs up to rounding), bf16, or auto (bf16 where the CPU has AMX, and on a GPU). "
        "device: cpu (default), cuda, cuda:N, or auto (the first GPU when LibTorch sees one, else the CPU); the "
        "outputs come back to the CPU either way.");
}

}  // namespace quax::python
