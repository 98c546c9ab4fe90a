// Writes random games as the C++ API plays them, for the Python module's tests to replay and
// compare move by move: reference_games <variant> <size> <seed> prints one JSON object with,
// at every ply, the legal actions (board frame), the network-frame legal mask's set entries,
// the observation planes and the action played, then the winner and the record.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "env/game_state.h"
#include "env/notation.h"

int main(int argc, char** argv) {
  using namespace quax;
  if (argc != 4) {
    std::fprintf(stderr, "usage: reference_games <variant> <size> <seed>\n");
    return 2;
  }
  const auto variant = parse_variant(argv[1]);
  GameSpec spec = variant ? default_spec(*variant) : GameSpec{};
  spec.size = std::atoi(argv[2]);
  if (!variant || !check_spec(spec).empty()) {
    std::fprintf(stderr, "reference_games: not a game: %s %s\n", argv[1], argv[2]);
    return 2;
  }
  Rng rng(std::strtoull(argv[3], nullptr, 10));
  auto state = new_game(spec);
  nlohmann::json plies = nlohmann::json::array();
  std::vector<int> legal, played;
  std::vector<uint8_t> net_mask(state->num_actions());
  std::vector<float> planes(static_cast<size_t>(state->num_planes()) * spec.size * spec.size);
  while (!state->is_over()) {
    state->legal_actions(&legal);
    state->net_legal_mask(net_mask.data());
    std::vector<int> net_legal;
    for (int a = 0; a < state->num_actions(); ++a)
      if (net_mask[a]) net_legal.push_back(a);
    state->encode(planes.data());
    const int action = legal[rng.next() % legal.size()];
    plies.push_back({{"legal", legal},
                     {"net_legal", net_legal},
                     {"planes", planes},
                     {"to_move", player_name(state->to_move())},
                     {"action", action},
                     {"text", state->action_to_string(action)}});
    state->apply(action);
    played.push_back(action);
  }
  std::cout << nlohmann::json{{"plies", plies},
                              {"winner", outcome_name(state->outcome())},
                              {"record", record_text(spec, played)}}
            << "\n";
  return 0;
}
