#include "nets/players.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "mcts/baseline_agents.h"
#include "mcts/play_levels.h"
#include "mcts/search_schema.h"
#include "nets/model_agent.h"
#include "nets/model_levels.h"

namespace quax {

const char* const kPlayerSyntax =
    "random | uct:<playouts> | mcts:<sims> | <model.pt>[:sims=N][:time=S][:level=L][:temp=T][:cpuct=X][:gumbel][:leaves=N][:<search key>=V]";

namespace {

bool is_baseline(const std::string& text) {
  return text == "random" || text.rfind("uct:", 0) == 0 || text.rfind("mcts:", 0) == 0;
}

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

 private:
  std::unique_ptr<Agent> inner_;
  std::string name_;
};

}  // namespace

bool parse_player_description(const std::string& text, PlayerDescription* out, std::string* error) {
  PlayerDescription d;
  d.text = text;
  if (is_baseline(text)) {
    *out = d;
    return true;
  }
  d.kind = PlayerDescription::Kind::kModel;
  // A player plays: no root noise unless its description asks for some. Several leaves per
  // batch: a single game's search has no other games to fill the evaluator's batch.
  d.search = play_settings(SearchSettings{});
  d.search.leaves_per_batch = kPlayerLeavesPerBatch;
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  if (parts.empty() || parts[0].empty()) {
    if (error) *error = "bad player '" + text + "': expected " + kPlayerSyntax;
    return false;
  }
  d.model_path = parts[0];
  bool sims_given = false, temp_given = false;
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
    // The short names below came before the search schema and keep their ranges and messages
    // (sims= goes to 10^7 here, simulations= to the schema's 10^6); every other key of the
    // schema is read by the schema.
    if (key == "gumbel" && eq == std::string::npos) {
      d.search.root_rule = RootRule::kGumbel;
    } else if (key == "sims") {
      if (!parse_number(value, 1, kMaxPlayerSimulations, &v) || v != static_cast<int>(v))
        return bad("sims takes 1 to " + std::to_string(kMaxPlayerSimulations));
      d.search.simulations = static_cast<int>(v);
      sims_given = true;
    } else if (key == "level") {
      if (!parse_number(value, kMinPlayLevel, kMaxPlayLevel, &v) || v != static_cast<int>(v))
        return bad("level takes " + play_level_range());
      level = static_cast<int>(v);
    } else if (key == "time") {
      if (!parse_number(value, kMinPlayerSeconds, kMaxPlayerSeconds, &v)) return bad("time takes seconds per move, e.g. time=2.5");
      d.seconds = v;
    } else if (key == "temp") {
      if (!parse_number(value, 0.0, kMaxLevelTemperature, &v))
        return bad("temp takes a temperature from 0 to 10 (the move drawn from the policy's shares at it; 0: its top move)");
      d.search.prior_temperature = static_cast<float>(v);
      temp_given = true;
    } else if (key == "cpuct") {
      if (!parse_number(value, 0.0, kMaxPlayerCPuct, &v)) return bad("cpuct takes a number from 0 to 100");
      d.search.c_puct = static_cast<float>(v);
    } else if (key == "leaves") {
      if (!parse_number(value, 1, 256, &v) || v != static_cast<int>(v)) return bad("leaves takes 1 to 256");
      d.search.leaves_per_batch = static_cast<int>(v);
    } else if (const SearchField* field = find_search_field(key); field && eq != std::string::npos) {
      if (auto e = set_search_field(&d.search, *field, value); !e.empty()) return bad(bad_search_value(key, e));
      sims_given = sims_given || key == "simulations";
    } else {
      return bad("unknown setting '" + p + "' (known: sims=N, time=S, level=L, temp=T, cpuct=X, gumbel, leaves=N, " +
                 "and <key>=<value> for a search key of configs/README.md)");
    }
  }
  if (level > 0) {
    // A level is a number of simulations and a way of choosing the move: either would be lost.
    if (sims_given || temp_given || d.seconds > 0) {
      if (error) *error = "bad player '" + text + "': level= sets the search's size; give it without sims=, temp= or time=";
      return false;
    }
    d.search = at_level(d.search, level, level_table_of(d.model_path));  // the model's own table, if it has one
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

std::unique_ptr<Agent> make_player(const PlayerDescription& d, const GameSpec& spec, uint64_t seed, std::string* error,
                                   const Device& device) {
  if (d.kind == PlayerDescription::Kind::kBaseline) return make_baseline_agent(d.text, seed, error);
  if (auto e = check_player_settings(d); !e.empty()) {
    if (error) *error = "bad player '" + d.text + "': " + e;
    return nullptr;
  }
  std::error_code ec;
  // A path that is there but is no regular file (a FIFO, a directory) is left to the loader,
  // whose bounded reader names what it is.
  if (!std::filesystem::exists(d.model_path, ec)) {
    if (error)
      *error = "unknown player '" + d.text + "': no model file '" + d.model_path + "' (a player is " +
               std::string(kPlayerSyntax) + ")";
    return nullptr;
  }
  auto agent = make_model_agent(d.model_path, spec, d.search, seed, error, d.seconds, device);
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
