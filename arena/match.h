// Playing arena games between agents: the schedule of pairings with colours balanced,
// and the games themselves, several at a time on worker threads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arena/results_log.h"
#include "mcts/agent.h"

namespace quax {

struct Pairing {
  int black = 0, white = 0;  // indices into the player list
  std::vector<int> opening;  // actions (board frame) played before either side chooses; empty: the empty board
};

// The names under which an arena records its players, one per description in order: the
// description itself, except that one listed more than once becomes that many entrants,
// `<description>#1`, `#2`, ... in order of listing, so that a player can be matched against
// itself (a first-move advantage, the spread of a rating) and the results tell the copies
// apart. The names are distinct unless a description is spelled like another one's entrant
// (`x`, `x`, `x#1`); callers check.
std::vector<std::string> entrant_names(const std::vector<std::string>& descriptions);

// Who meets whom: every pair (round robin); every player against player 0 (gauntlet); or
// each player against the next one in the list (chain: a ladder such as random, the levels
// 1 to 10 of a model, uct:5000, rated in one fit with a fraction of the round robin's games).
enum class Schedule { kRoundRobin, kGauntlet, kChain };

// The pairs of `schedule`, each `games_per_pair` times (rounded up to even) with colours
// alternating, so each side plays black exactly as often as white. Games of a pair are
// interleaved with other pairs' so that a stopped run leaves a balanced sample.
std::vector<Pairing> schedule_games(int num_players, int games_per_pair, Schedule schedule = Schedule::kRoundRobin);

// Plays one game to the end from `opening` (legal actions in order; both agents are told of
// them, and of every move, through Agent::inform_action); `max_moves` guards against an agent
// that never finishes (the game then counts as a draw and the result says so). An agent's
// kResignAction ends the game as a win of the other side. Each side's time in choose_action
// is in the result. Throws std::runtime_error for an illegal opening or an illegal choice
// (naming the agent), since either is a fault of the caller or of the agent.
GameResult play_game(const GameSpec& spec, Agent& black, Agent& white, const std::vector<int>& opening = {},
                     int max_moves = 100000);

// Makes a fresh agent for player `index` with the given seed (each worker thread owns its
// agents, so agents need not be thread-safe).
using AgentFactory = std::function<std::unique_ptr<Agent>(int index, uint64_t seed)>;

// Plays the scheduled games on `threads` threads. `on_result` is called (serialised) after
// each game with its index into `games`, e.g. to log it and print progress. An exception
// on any thread (from make_agent, which must not return null, an agent, or on_result) stops
// new games; the games in flight on the other threads are finished and reported, then the
// first exception is rethrown on the calling thread.
void play_games(const GameSpec& spec, const std::vector<std::string>& names, const std::vector<Pairing>& games,
                const AgentFactory& make_agent, int threads, uint64_t seed,
                const std::function<void(size_t, const GameResult&)>& on_result,
                const std::function<bool()>& should_stop = nullptr);

}  // namespace quax
