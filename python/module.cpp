// The Python module `quax`: the games, the vectorized environment, the models and the search
// of the C++ engine (python/bindings.h lists the pieces).
#include <pybind11/stl.h>

#include "python/bindings.h"

PYBIND11_MODULE(quax, m) {
  namespace py = pybind11;
  using namespace quax;
  m.doc() = R"(The Quax trainer's engine from Python.

  Game          one game of any variant (rules, notation, the network's observation)
  VectorEnv     many games stepped together (Gymnasium vector API, PettingZoo turn order)
  Box, Discrete, MultiDiscrete   its spaces, with Gymnasium's attribute names
  load_model    a model file -> Model (evaluate observations: policy and value)
  Search        the project's search over a Model, or a baseline (uct:N, mcts:N, random)
  variants()    the variants with their sizes)";
  m.def(
      "variants",
      [] {
        int count = 0;
        const VariantInfo* all = all_variants(&count);
        py::list out;
        for (int i = 0; i < count; ++i) {
          py::dict d;
          d["name"] = all[i].name;
          d["default_size"] = all[i].default_size;
          d["min_size"] = all[i].min_size;
          d["max_size"] = all[i].max_size;
          d["swap"] = all[i].swap_by_default;
          out.append(d);
        }
        return out;
      },
      "The variants: name, default/min/max size and whether the pie rule is on by default.");
  m.def("set_threads", &set_torch_threads, py::arg("threads"),
        "LibTorch's intra-op threads for the calling thread (model evaluation and search).");
  python::bind_game(m);
  python::bind_spaces(m);
  python::bind_vector_env(m);
  python::bind_model(m);
  python::bind_search(m);
}
