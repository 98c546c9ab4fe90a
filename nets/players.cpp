#include "nets/players.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "mcts/baseline_agents.h"
#include "mcts/play_levels.h"
#include "mcts/search_schema.h"
#include "mcts/search_tree.h"
#include "core/machine_memory.h"
#include "nets/model_agent.h"
#include "nets/model_levels.h"
#include "nets/model_locations.h"

namespace quax {

const char* const kPlayerSyntax =
    "random | uct:<playouts> | mcts:<sims> | <model.pt>[:sims=N][:time=S][:level=L][:temp=T][:cpuct=X][:gumbel][:leaves=N][:precision=P][:<search key>=V]";

namespace {

bool parse_number(const std::string& s, double lo, double hi, double* out) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(v >= lo && v <= hi)) return false;
  *out = v;
  return true;
}

// A model player under the name it was given on the command line; the model agent checks
// the game at every move (nets/model_agent.h: another variant is refused, any size plays).
class ModelPlayer final : public Agent {
 public:
  ModelPlayer(std::unique_ptr<Agent> inner, std::string name) : inner_(std::move(inner)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  void reset() override { inner_->reset(); }
  int choose_action(const GameState& state) override { return inner_->choose_action(state); }
  std::optional<double> last_value() const override { return inner_->last_value(); }
  std::vector<std::pair<int, int>> last_root_visits() const override { return inner_->last_root_visits(); }

 private:
  std::unique_ptr<Agent> inner_;
  std::string name_;
};

// The messages of the size keys, the same from text (sims=, time=, level=) and typed options.
std::string sims_range() { return "sims takes 1 to " + std::to_string(kMaxSimulations); }
constexpr const char* kTimeRange = "time takes seconds per move, e.g. time=2.5";
std::string level_range() { return "level takes " + play_level_range(); }

// A level is a number of simulations and a way of choosing the move: a size given before it
// would be lost, so it is refused. Reads the model's own table, if it has one.
std::string set_level(PlayerDescription* d, int level) {
  if (d->size_given) return "level= sets the search's size; give it without sims=, temp= or time=";
  d->search = at_level(d->search, level, level_table_of(d->model_path));
  return {};
}

}  // namespace

PlayerDescription model_player_description(const std::string& model_path) {
  PlayerDescription d;
  d.kind = PlayerDescription::Kind::kModel;
  d.text = model_path;
  d.model_path = find_model_file(model_path);  // a shipped model by its name (nets/model_locations.h)
  // A player plays: no root noise unless its description asks for some. Several leaves per
  // batch: a single game's search has no other games to fill the evaluator's batch.
  d.search = play_settings(SearchSettings{});
  d.search.leaves_per_batch = kPlayerLeavesPerBatch;
  return d;
}

bool set_player_search_size(PlayerDescription* d, const PlayerSearchSize& size, std::string* error) {
  auto fail = [&](const std::string& what) {
    if (error) *error = "bad player '" + d->text + "': " + what;
    return false;
  };
  const int given = (size.sims != 0) + (size.seconds != 0) + (size.level != 0);
  if (given == 0) return true;
  if (d->kind != PlayerDescription::Kind::kModel) return fail("a baseline plays as its description says (sims, time and level are a model's)");
  if (given > 1) return fail("give one of sims, time and level");
  PlayerDescription out = *d;
  if (size.sims != 0) {
    if (size.sims < 1 || size.sims > kMaxSimulations) return fail(sims_range());
    out.search.simulations = size.sims;
    out.size_given = true;
    out.text += ":sims=" + std::to_string(size.sims);
  } else if (size.seconds != 0) {
    if (!(size.seconds >= kMinPlayerSeconds && size.seconds <= kMaxPlayerSeconds)) return fail(kTimeRange);
    out.seconds = size.seconds;
    out.size_given = true;
    out.text += fmt::format(":time={}", size.seconds);
  } else {
    if (size.level < kMinPlayLevel || size.level > kMaxPlayLevel) return fail(level_range());
    if (auto e = set_level(&out, size.level); !e.empty()) return fail(e);
    out.text += ":level=" + std::to_string(size.level);
  }
  if (auto e = check_player_settings(out); !e.empty()) return fail(e);
  *d = out;
  return true;
}

bool parse_player_description(const std::string& text, PlayerDescription* out, std::string* error) {
  if (names_baseline(text)) {
    PlayerDescription d;
    d.text = text;
    *out = d;
    return true;
  }
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  if (parts.empty() || parts[0].empty()) {
    if (error) *error = "bad player '" + text + "': expected " + kPlayerSyntax;
    return false;
  }
  PlayerDescription d = model_player_description(parts[0]);
  d.text = text;
  int level = 0;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    const auto eq = p.find('=');
    const std::string key = p.substr(0, eq), value = eq == std::string::npos ? "" : p.substr(eq + 1);
    double v = 0;
    auto bad = [&](const std::string& what) {
      if (error) *error = "bad player '" + text + "': " + what;
      return false;
    };
    // The short names below came before the search schema and keep their messages (sims= and
    // the schema's simulations= take one range, mcts/search_limits.h); every other key of the
    // schema is read by the schema.
    if (key == "gumbel" && eq == std::string::npos) {
      d.search.root_rule = RootRule::kGumbel;
    } else if (key == "sims") {
      if (!parse_number(value, 1, kMaxSimulations, &v) || v != static_cast<int>(v)) return bad(sims_range());
      d.search.simulations = static_cast<int>(v);
      d.size_given = true;
    } else if (key == "level") {
      if (!parse_number(value, kMinPlayLevel, kMaxPlayLevel, &v) || v != static_cast<int>(v)) return bad(level_range());
      level = static_cast<int>(v);
    } else if (key == "time") {
      if (!parse_number(value, kMinPlayerSeconds, kMaxPlayerSeconds, &v)) return bad(kTimeRange);
      d.seconds = v;
      d.size_given = true;
    } else if (key == "temp") {
      if (!parse_number(value, 0.0, kMaxLevelTemperature, &v))
        return bad("temp takes a temperature from 0 to 10 (the move drawn from the policy's shares at it; 0: its top move)");
      d.search.prior_temperature = static_cast<float>(v);
      d.size_given = true;
    } else if (key == "cpuct") {
      if (!parse_number(value, 0.0, kMaxPlayerCPuct, &v)) return bad("cpuct takes a number from 0 to 100");
      d.search.c_puct = static_cast<float>(v);
    } else if (key == "leaves") {
      if (!parse_number(value, 1, 256, &v) || v != static_cast<int>(v)) return bad("leaves takes 1 to 256");
      d.search.leaves_per_batch = static_cast<int>(v);
    } else if (key == "precision") {
      if (!parse_precision(value, &d.precision)) return bad("precision takes auto, fp32, bf16 or int8");
    } else if (const SearchField* field = find_search_field(key); field && eq != std::string::npos) {
      if (auto e = set_search_field(&d.search, *field, value); !e.empty()) return bad(bad_search_value(key, e));
      d.size_given = d.size_given || key == "simulations";
    } else {
      return bad("unknown setting '" + p + "' (known: sims=N, time=S, level=L, temp=T, cpuct=X, gumbel, leaves=N, precision=P, " +
                 "and <key>=<value> for a search key of configs/README.md)");
    }
  }
  if (level > 0) {
    if (auto e = set_level(&d, level); !e.empty()) {
      if (error) *error = "bad player '" + text + "': " + e;
      return false;
    }
  }
  if (auto e = check_player_settings(d); !e.empty()) {
    if (error) *error = "bad player '" + text + "': " + e;
    return false;
  }
  *out = d;
  return true;
}

std::string check_player_settings(const PlayerDescription& d) {
  if (d.kind == PlayerDescription::Kind::kBaseline) return {};
  if (d.seconds > 0 && d.search.root_rule == RootRule::kGumbel) return "time= works with PUCT only, not gumbel";
  return check_settings(d.search);
}

std::string missing_model_file(const PlayerDescription& d) {
  std::error_code ec;
  if (d.kind != PlayerDescription::Kind::kModel || std::filesystem::exists(d.model_path, ec)) return "";
  return "unknown player '" + d.text + "': no model file '" + d.model_path + "'" + shipped_search_note(d.model_path) +
         " (a player is " + std::string(kPlayerSyntax) + ")";
}

std::string search_memory_refusal(const PlayerDescription& d, const GameSpec& spec) {
  if (d.kind != PlayerDescription::Kind::kModel || d.seconds > 0) return "";  // a search by time has no size
  return memory_refusal(search_memory_bytes(new_game(spec)->num_actions(), d.search.simulations),
                        "player '" + d.text + "': a search of " + std::to_string(d.search.simulations) +
                            " simulations on " + describe(spec));
}

std::unique_ptr<Agent> make_player(const PlayerDescription& d, const GameSpec& spec, uint64_t seed, std::string* error,
                                   const Device& device) {
  if (d.kind == PlayerDescription::Kind::kBaseline) return make_baseline_agent(d.text, seed, error);
  if (auto e = check_player_settings(d); !e.empty()) {
    if (error) *error = "bad player '" + d.text + "': " + e;
    return nullptr;
  }
  if (const std::string missing = missing_model_file(d); !missing.empty()) {
    if (error) *error = missing;
    return nullptr;
  }
  if (const std::string refused = search_memory_refusal(d, spec); !refused.empty()) {
    if (error) *error = refused;
    return nullptr;
  }
  auto agent = make_model_agent(d.model_path, spec, d.search, seed, error, d.seconds, device, d.precision);
  if (!agent) return nullptr;
  return std::make_unique<ModelPlayer>(std::move(agent), d.text);
}

std::unique_ptr<Agent> make_player(const std::string& description, const GameSpec& spec, uint64_t seed,
                                   std::string* error, const Device& device) {
  PlayerDescription d;
  if (!parse_player_description(description, &d, error)) return nullptr;
  return make_player(d, spec, seed, error, device);
}

}  // namespace quax
