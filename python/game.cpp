// quax.Game: one game of any variant, in the board frame of the rules and notation, with the
// network's view of it (observation, net-frame mask and action mapping).
#include <pybind11/stl.h>

#include <cstring>

#include "env/notation.h"
#include "python/bindings.h"
#include "rules/rules_file.h"

namespace quax::python {

GameSpec spec_from(const std::string& variant, std::optional<int> size, std::optional<bool> swap) {
  Variant v;
  try {
    v = variant_from_name_or_file(variant);  // a name, or a rules file (docs/VARIANTS.md)
  } catch (const RulesFileError& e) {
    throw py::value_error(e.what());
  }
  GameSpec spec = default_spec(v);
  if (size) spec.size = *size;
  if (swap) spec.swap = *swap;
  if (const std::string error = check_spec(spec); !error.empty()) throw py::value_error(error);
  return spec;
}

py::object player_object(Player p) {
  if (p == Player::kNone) return py::none();
  return py::str(player_name(p));
}

void check_array(const py::array& array, const char* what, const std::string& kinds, int itemsize, int ndim) {
  const char kind = array.dtype().kind();
  if (kinds.find(kind) == std::string::npos || (itemsize && array.itemsize() != itemsize))
    throw py::value_error(std::string(what) + ": dtype " + std::string(py::str(array.dtype())) + " is not accepted");
  if (array.ndim() != ndim)
    throw py::value_error(std::string(what) + ": " + std::to_string(array.ndim()) + " dimensions, expected " +
                          std::to_string(ndim));
}

std::unique_lock<std::mutex> lock_without_gil(std::mutex& mu) {
  std::unique_lock<std::mutex> lock(mu, std::defer_lock);
  if (!lock.try_lock()) {
    py::gil_scoped_release release;
    lock.lock();
  }
  return lock;
}

Game::Game(const GameSpec& spec) : state_(new_game(spec)) {}

namespace {

// The engine's reason an action cannot be played ("" when it can), for any integer Python
// passes (why_illegal takes an int).
std::string why_not(const GameState& state, int64_t action) {
  if (action < 0 || action >= state.num_actions()) return "action " + std::to_string(action) + " is not on this board";
  return state.why_illegal(static_cast<int>(action));
}

int checked_action(const GameState& state, int64_t action) {
  if (action < 0 || action >= state.num_actions()) throw py::value_error(why_not(state, action));
  return static_cast<int>(action);
}

py::object outcome_object(Outcome o) {
  if (o == Outcome::kOngoing) return py::none();
  return py::str(outcome_name(o));
}

py::array_t<bool> mask_array(const GameState& state, bool net_frame) {
  py::array_t<bool> mask(state.num_actions());
  auto* data = reinterpret_cast<uint8_t*>(mask.mutable_data());
  if (net_frame)
    state.net_legal_mask(data);
  else
    state.legal_mask(data);
  return mask;
}

}  // namespace

void Game::apply(int64_t action) {
  if (std::string why = why_not(*state_, action); !why.empty()) throw py::value_error(why);
  state_->apply(static_cast<int>(action));
  actions_.push_back(static_cast<int>(action));
}

void Game::apply_text(const std::string& text) {
  std::string error;
  const std::vector<int> turn = state_->parse_record_token(text, &error);
  if (turn.empty()) throw py::value_error(error);
  auto trial = state_->clone();
  for (int action : turn) {
    if (std::string why = trial->why_illegal(action); !why.empty()) throw py::value_error("'" + text + "': " + why);
    trial->apply(action);
  }
  state_ = std::move(trial);
  actions_.insert(actions_.end(), turn.begin(), turn.end());
}

void bind_game(py::module_& m) {
  py::class_<Game>(m, "Game", R"(One game of a variant of the Quax family or of the hexagonal boards.

Actions are integers in the board frame: plane * size * size + row * size + column (row 0 is
the south row 1, column 0 is column a), then the variant's extra actions (swap, pass, ...);
`action_to_text` and `text_to_action` convert to the notation of docs/RULES.md. The network
sees the position in its own frame, where the player to move connects north-south:
`observation()`, `net_legal_mask()`, `to_net_action()` and `from_net_action()`.

Illegal actions raise ValueError with the engine's reason and leave the game unchanged.)")
      .def(py::init([](const std::string& variant, std::optional<int> size, std::optional<bool> swap) {
             return Game(spec_from(variant, size, swap));
           }),
           py::arg("variant"), py::arg("size") = py::none(), py::arg("swap") = py::none(),
           "A new game: variant by name (quax, link, quickway, crossway, quadrex, quikquax, torax, stymie, "
           "hex, quadhex, y, quady, quady2); size and swap (the pie rule) default to the variant's.")
      .def_static(
          "from_record",
          [](const std::string& variant, const std::string& record, std::optional<int> size,
             std::optional<bool> swap) {
            const GameSpec spec = spec_from(variant, size, swap);
            ParsedRecord parsed;
            std::string error;
            if (!parse_record(record, &parsed, &error)) throw py::value_error(error);
            std::vector<int> actions;
            auto state = replay_record(spec, parsed, &error, &actions);
            if (!state) throw py::value_error(error);
            return Game(std::move(state), std::move(actions));
          },
          py::arg("variant"), py::arg("record"), py::arg("size") = py::none(), py::arg("swap") = py::none(),
          "The game a record leads to (moves separated by spaces or commas, as record() writes them).")
      .def_property_readonly("variant", [](const Game& g) { return std::string(variant_info(g.state().spec().variant).name); })
      .def_property_readonly("size", [](const Game& g) { return g.state().size(); })
      .def_property_readonly("swap", [](const Game& g) { return g.state().spec().swap; })
      .def_property_readonly("num_actions", [](const Game& g) { return g.state().num_actions(); },
                             "Length of the action layout (and of the legal masks and policies).")
      .def_property_readonly("spatial_planes", [](const Game& g) { return g.state().spatial_planes(); })
      .def_property_readonly("extra_actions", [](const Game& g) { return g.state().extra_actions(); })
      .def_property_readonly("to_move", [](const Game& g) { return player_object(g.state().to_move()); },
                             "'black' or 'white' (torax: the seat), None once the game is over.")
      .def_property_readonly("winner", [](const Game& g) { return outcome_object(g.state().outcome()); },
                             "'black', 'white' or 'draw' once the game is over, else None.")
      .def_property_readonly("is_over", [](const Game& g) { return g.state().is_over(); })
      .def_property_readonly("move_number", [](const Game& g) { return g.state().move_number(); },
                             "Actions applied since the start (a swap or a pass counts as one).")
      .def_property_readonly("position_key", [](const Game& g) { return g.state().position_key(); },
                             "A 64-bit key, equal for equal positions.")
      .def_property_readonly("actions", [](const Game& g) { return g.actions(); },
                             "The actions played since the start, board frame.")
      .def_property_readonly("plane_names", [](const Game& g) { return g.state().plane_names(); },
                             "Names of the observation's planes, in order.")
      .def("legal_actions",
           [](const Game& g) {
             std::vector<int> out;
             g.state().legal_actions(&out);
             return out;
           },
           "The legal actions (board frame), in increasing order; empty once the game is over.")
      .def("legal_mask", [](const Game& g) { return mask_array(g.state(), false); },
           "numpy bool [num_actions]: True where the board-frame action is legal.")
      .def("net_legal_mask", [](const Game& g) { return mask_array(g.state(), true); },
           "numpy bool [num_actions]: the legal mask in the network frame (what a model's policy is masked with).")
      .def("is_legal", [](const Game& g, int64_t a) { return why_not(g.state(), a).empty(); }, py::arg("action"))
      .def("why_illegal", [](const Game& g, int64_t a) { return why_not(g.state(), a); }, py::arg("action"),
           "'' when the action is legal, else the engine's reason.")
      .def("apply", &Game::apply, py::arg("action"), "Plays a board-frame action; ValueError if it is not legal.")
      .def("apply_text", &Game::apply_text, py::arg("move"),
           "Plays a move in notation ('c5', 'e2-f3', 'swap'; torax's joined turns as one token).")
      .def("action_to_text",
           [](const Game& g, int64_t a) { return g.state().action_to_string(checked_action(g.state(), a)); },
           py::arg("action"), "The canonical notation of a board-frame action.")
      .def("text_to_action",
           [](const Game& g, const std::string& text) {
             std::string error;
             const int a = g.state().parse_action(text, &error);
             if (a < 0) throw py::value_error(error);
             return a;
           },
           py::arg("move"), "The board-frame action a move's notation names (legality not checked).")
      .def("to_net_action", [](const Game& g, int64_t a) { return g.state().to_net_action(checked_action(g.state(), a)); },
           py::arg("action"), "Board frame to the network frame of the player to move.")
      .def("from_net_action",
           [](const Game& g, int64_t a) { return g.state().from_net_action(checked_action(g.state(), a)); },
           py::arg("net_action"), "Network frame of the player to move to the board frame.")
      .def("observation",
           [](const Game& g) {
             const GameState& s = g.state();
             py::array_t<float> planes({s.num_planes(), s.size(), s.size()});
             s.encode(planes.mutable_data());
             return planes;
           },
           "numpy float32 [planes, size, size]: the network's input planes, mover's view, network frame.")
      .def("board_text", [](const Game& g) { return g.state().board_text(); }, "A diagram of the board.")
      .def("record", [](const Game& g) { return record_text(g.state().spec(), g.actions()); },
           "The moves so far as a record (Game.from_record reads it back).")
      .def("stones", [](const Game& g, const std::string& player) {
             const auto p = parse_player(player);
             if (!p || *p == Player::kNone) throw py::value_error("unknown player '" + player + "'");
             return g.state().stones_of(*p);
           },
           py::arg("player"), "The cells of one colour, in notation.")
      .def("links", [](const Game& g, const std::string& player) {
             const auto p = parse_player(player);
             if (!p || *p == Player::kNone) throw py::value_error("unknown player '" + player + "'");
             return g.state().links_of(*p);
           },
           py::arg("player"), "The links of one colour, in notation.")
      .def("clone", [](const Game& g) { return Game(g); }, "An independent copy.")
      .def("__copy__", [](const Game& g) { return Game(g); })
      .def("__deepcopy__", [](const Game& g, py::dict) { return Game(g); }, py::arg("memo"))
      .def("__str__", [](const Game& g) { return g.state().board_text(); })
      .def("__repr__", [](const Game& g) {
        const GameState& s = g.state();
        std::string r = "<quax.Game " + describe(s.spec()) + ", move " + std::to_string(s.move_number()) + ", ";
        r += s.is_over() ? "over: " + outcome_name(s.outcome()) : player_name(s.to_move()) + " to move";
        return r + ">";
      });
}

}  // namespace quax::python
