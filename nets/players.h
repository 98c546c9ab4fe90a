// Turns a player description (the command line's, and the Python module's) into an Agent: the baselines of
// mcts/ (`random`, `uct:<playouts>`, `mcts:<sims>`) and model files with their search
// settings.
//
// Model players: `<path>[:key=value]...`, e.g. `runs/q9/models/model-0000000500.pt`,
// `model.pt:sims=400`, `model.pt:time=2`, `model.pt:sims=64:gumbel`. Keys:
//   sims=<n>     simulations per move (default 200)
//   time=<s>     seconds per move instead of a simulation count (gtp/play only; PUCT)
//   cpuct=<x>    PUCT exploration constant (default 1.25)
//   gumbel       Gumbel root search (sequential halving) instead of PUCT
//   level=<l>    difficulty 1 to 10 (mcts/play_levels.h; 10 is sims=200), instead of sims or time
//   leaves=<n>   leaves per evaluator batch in single-game play (virtual loss; default 4)
//   precision=<p> the network's number format: auto (default), fp32, bf16, int8 (nets/net_config.h)
//   <key>=<v>    any key of the search schema (mcts/search_schema.h, configs/README.md's
//                search.* keys without "search."), e.g. fpu_reduction=0.1, rule=gumbel,
//                simulations=400, with the schema's range and error line
// A model player starts from play_settings() (no root noise) with 4 leaves per batch; keys
// are applied in order, so a later one wins.
// A path may not contain ':'. Anything that is not a baseline is read as a model path.
#pragma once

#include <memory>
#include <string>

#include "mcts/agent.h"
#include "mcts/search_settings.h"
#include "mcts/search_limits.h"
#include "nets/device.h"

namespace quax {

// The ranges of a model player's settings, wherever they are given (`time=`, `cpuct=` here;
// gtp's --time; quax.Search's seconds and c_puct): a search of more seconds than these would
// not end in any useful time. Simulations (sims=, simulations=, --sims) are bounded by
// mcts/search_limits.h, by purpose.
inline constexpr double kMinPlayerSeconds = 0.001;
inline constexpr double kMaxPlayerSeconds = 86400;  // a day
inline constexpr double kMaxPlayerCPuct = 100;
// A single game's search has no other games to fill the evaluator's batch: a model player
// puts this many leaves into each (leaves= or leaves_per_batch= change it).
inline constexpr int kPlayerLeavesPerBatch = 4;

// Help text listing the accepted descriptions, for --help of the commands that take them.
extern const char* const kPlayerSyntax;

struct PlayerDescription {
  enum class Kind { kBaseline, kModel };
  Kind kind = Kind::kBaseline;
  std::string text;        // as given
  std::string model_path;  // kModel: the file
  SearchSettings search;   // kModel: simulations, root rule, c_puct, leaves per batch, a level's prior temperature
  double seconds = 0;      // kModel: > 0 searches for this long per move instead
  bool size_given = false; // kModel: sims=, simulations=, temp= or time= was given (a level would replace it)
  Precision precision = Precision::kAuto;  // kModel: the network's number format (precision=)
};

// The size of a model player's search as a command's options or a request's fields give it
// (--sims, --time, --level; the server's sims, seconds, level): 0 is "not given".
struct PlayerSearchSize {
  int sims = 0;        // simulations per move, 1 to kMaxSimulations (mcts/search_limits.h)
  double seconds = 0;  // seconds per move instead, kMinPlayerSeconds to kMaxPlayerSeconds
  int level = 0;       // a difficulty level instead (the model's own table, else mcts/play_levels.h)
};

// A model player of `model_path` (found as nets/model_locations.h finds a shipped model's name:
// model_path is the file, text the name as given) with a player's defaults (play_settings(), no root noise,
// kPlayerLeavesPerBatch leaves per batch), named by the path: what parse_player_description
// makes of the path alone, without reading it back from text (the path may hold ':').
PlayerDescription model_player_description(const std::string& model_path);

// Sets a model player's search size from typed options instead of text: at most one of
// size's fields, and a level not beside a size the description already gave. Appends the key
// to d->text as a description names it ("model.pt:level=3"), so the player keeps a name that
// says how it plays. Opens only the model's description (for a level's own table). Returns
// false with *error (one line, the messages of the description's keys) and *d unchanged for
// a value out of range, a baseline, or a conflict.
bool set_player_search_size(PlayerDescription* d, const PlayerSearchSize& size, std::string* error);

// Reads the syntax; the only file it opens is, for `level=`, the model's description (its own
// level table: nets/model_levels.h). `temp=T` plays the move drawn from the policy's shares
// at temperature T after the search (SearchSettings::prior_temperature; with sims=1, the
// policy alone). Returns false and sets *error (one line
// naming the description) for a malformed one.
bool parse_player_description(const std::string& text, PlayerDescription* out, std::string* error);

// Returns null and sets *error (one line) when the description names nothing usable for
// this game (unknown player, missing or corrupt model, model of another variant: the
// message names both). A model plays any size of its variant, with a warning line on stderr
// for a size it was not trained on and one for a pie rule other than its training's
// (nets/model_file.h, check_model_matches). Model players search with LibTorch on the calling thread; call
// set_torch_threads() (nets/net_evaluator.h) there first. Their network runs on `device`
// (a command's --device; nets/device.h).
std::unique_ptr<Agent> make_player(const std::string& description, const GameSpec& spec, uint64_t seed,
                                   std::string* error, const Device& device = kCpuDevice);
// The same for a description already read (parse_player_description) and perhaps changed
// since, e.g. search keys set through the schema from a request (serve/): checks the
// settings again (check_player_settings) and names the player by d.text.
std::unique_ptr<Agent> make_player(const PlayerDescription& d, const GameSpec& spec, uint64_t seed, std::string* error,
                                   const Device& device = kCpuDevice);

// Empty unless `d` is a model player whose file is not there; then one line: "unknown player
// '<text>': no model file '<path>'", where it was looked for (nets/model_locations.h) and the
// player syntax. A path that is there but is no regular file (a FIFO, a directory) is left to
// the loader, whose bounded reader names what it is.
std::string missing_model_file(const PlayerDescription& d);
// Empty when a model player's search fits in the machine's memory (search_memory_bytes of
// its simulations on `spec`, core/machine_memory.h), else one line naming the player, the
// simulations and the game: every door that searches with a player checks it before the
// search starts (gtp --sims 10000000 at 26x26 once ended in std::bad_alloc after 158 s).
std::string search_memory_refusal(const PlayerDescription& d, const GameSpec& spec);
// Empty when a model player's settings make sense together (check_settings, and a clock only
// with PUCT), else one line naming what does not; always empty for a baseline.
std::string check_player_settings(const PlayerDescription& d);

}  // namespace quax
