// Plays scheduled arena games between players (nets/players.h), choosing
// the way per pairing: both sides search with an evaluator and one is a model -> many
// games at once through the multi-game driver (arena/batched_games.h); otherwise (a uct
// or random player) one game per thread with Agents (arena/match.h). Shared by
// `quax arena` and `quax ladder`.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "arena/match.h"
#include "nets/device.h"
#include "nets/players.h"

namespace quax {

struct ArenaGamesOptions {
  int threads = 2;        // games at once on threads (Agent pairings)
  int net_threads = 1;    // LibTorch threads of the batched games
  int parallel = 32;      // batched games in flight
  int sampled_turns = 4;  // batched games: turns sampled from the visit counts
  uint64_t seed = 1;
  Device device = kCpuDevice;  // where the models' networks run (resolved: nets/device.h)
};

// names[i] is what results record; players[i] what make_player builds (read from the same
// text, or built from a command's options: nets/players.h). Preconditions: every player was
// accepted by make_player for `spec`. on_result is called serialised, in order of completion; when
// should_stop returns true, games not yet started (and batched games in flight) are dropped.
// An error while playing (a player that cannot be made or fails, on_result throwing) is
// rethrown here on the calling thread once no game is in progress (arena/match.h).
void play_arena_games(const GameSpec& spec, const std::vector<std::string>& names,
                      const std::vector<PlayerDescription>& players, const std::vector<Pairing>& games,
                      const ArenaGamesOptions& options,
                      const std::function<void(size_t, const GameResult&)>& on_result,
                      const std::function<bool()>& should_stop);

}  // namespace quax
