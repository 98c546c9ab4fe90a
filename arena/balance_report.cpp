#include "arena/balance_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "mcts/baseline_agents.h"
#include "core/quoted_input.h"
#include "env/game_state.h"

namespace quax {
namespace {

using nlohmann::json;

json proven_json(GameValue v) { return v == GameValue::kUnknown ? json() : json(value_name(v)); }

const json& field(const json& object, const char* name) {
  if (!object.is_object() || !object.contains(name))
    throw std::runtime_error(std::string("missing field '") + name + "'");
  return object.at(name);
}

bool present(const json& j, const char* name) { return j.is_object() && j.contains(name) && !j.at(name).is_null(); }

// "quax 9x9 (swap)", "y side 15 (no swap)": the game a report is about, as env's describe() says it.
std::string game_text(const json& r) {
  const std::string variant = r.value("variant", "?");
  const int size = r.value("size", 0);
  const std::optional<Variant> v = parse_variant(variant);
  if (v) return describe(GameSpec{*v, size, r.value("swap", false)});
  return fmt::format("{} {}x{} ({})", variant, size, size, r.value("swap", false) ? "swap" : "no swap");
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

bool is_baseline(const json& r) { return r.is_object() && r.contains("baseline") && r.at("baseline") == json(true); }


// "78.0% [69.1, 85.0] of 100" for a first_player entry; "-" when not measured.
std::string rate_cell(const json& fp) {
  if (!fp.is_object()) return "-";
  return fmt::format("{} [{:.1f}, {:.1f}] of {}", percent(fp.at("rate").get<double>()),
                     100 * fp.at("low").get<double>(), 100 * fp.at("high").get<double>(), fp.at("games").get<int>());
}

}  // namespace

json openings_json(const std::vector<OpeningValue>& openings) {
  json out = json::array();
  for (const OpeningValue& o : openings)
    out.push_back({{"move", o.move},
                   {"value", o.value},
                   {"low", o.low},
                   {"high", o.high},
                   {"proven", proven_json(o.proven)},
                   {"swap", o.swap},
                   {"class", o.representative},
                   {"games", o.games},
                   {"wins", o.wins},
                   {"draws", o.draws},
                   {"losses", o.losses},
                   {"games_value", o.games_value}});
  return out;
}

std::vector<OpeningValue> openings_from_json(const GameSpec& spec, const json& openings) {
  if (!openings.is_array()) throw std::runtime_error("'openings' is not a list");
  const auto board = new_game(spec);
  std::vector<OpeningValue> out;
  for (const json& j : openings) {
    OpeningValue o;
    o.move = field(j, "move").get<std::string>();
    std::string error;
    o.action = board->parse_action(o.move, &error);
    if (o.action < 0) throw std::runtime_error("opening '" + o.move + "': " + error);
    o.value = field(j, "value").get<double>();
    o.low = field(j, "low").get<double>();
    o.high = field(j, "high").get<double>();
    o.swap = field(j, "swap").get<bool>();
    const json& p = field(j, "proven");
    if (!p.is_null() && !parse_value(p.get<std::string>(), &o.proven))
      throw std::runtime_error("opening '" + o.move + "': proven is not win, loss or draw");
    o.representative = j.value("class", o.move);
    o.games = j.value("games", 0);
    o.wins = j.value("wins", 0);
    o.draws = j.value("draws", 0);
    o.losses = j.value("losses", 0);
    o.games_value = j.value("games_value", 0.0);
    out.push_back(o);
  }
  return out;
}

json first_player_json(const FirstPlayerTally& t) {
  return {{"games", t.games}, {"wins", t.black_wins}, {"draws", t.draws}, {"losses", t.white_wins},
          {"rate", t.rate},   {"low", t.low},         {"high", t.high},   {"swapped", t.swapped}};
}

json length_json(const LengthSummary& s) {
  json histogram = json::object();
  for (const auto& [plies, games] : s.histogram) histogram[std::to_string(plies)] = games;
  return {{"games", s.games},   {"mean", s.mean}, {"min", s.min}, {"q1", s.q1},
          {"median", s.median}, {"q3", s.q3},     {"max", s.max}, {"histogram", histogram}};
}

json flow_json(const GameFlow& f) {
  return {{"threshold", f.threshold},
          {"margin", f.margin},
          {"decisive_games", f.decisive_games},
          {"decided_share", f.decided_share},
          {"lead_changes", f.lead_changes}};
}

json skill_point_json(const SkillPoint& p) {
  return {{"sims", p.sims},     {"against", 2 * p.sims}, {"games", p.games()}, {"wins", p.wins}, {"draws", p.draws},
          {"losses", p.losses}, {"score", p.score},      {"low", p.low},       {"high", p.high}};
}

SkillPoint skill_point_from_json(const json& j) {
  SkillPoint p;
  p.sims = field(j, "sims").get<int>();
  p.wins = field(j, "wins").get<int>();
  p.draws = field(j, "draws").get<int>();
  p.losses = field(j, "losses").get<int>();
  p.score = field(j, "score").get<double>();
  p.low = field(j, "low").get<double>();
  p.high = field(j, "high").get<double>();
  return p;
}

json skill_depth_json(const SkillDepth& d) {
  return {{"gain", d.gain}, {"doublings_gaining", d.doublings_gaining}, {"mean_score", d.mean_score}};
}

json games_part_json(const std::vector<PlayedGame>& games, bool can_draw) {
  const FirstPlayerTally t = tally_first_player(games);
  return {{"first_player", first_player_json(t)},
          {"length", length_json(summarize_lengths(games))},
          {"draw_rate", can_draw && t.games > 0 ? json(static_cast<double>(t.draws) / t.games) : json()},
          {"flow", flow_json(summarize_flow(games))}};
}

// partial[key] when partial is an object holding it, else null: a partial file is read from
// disk, and nlohmann's const operator[] on a missing key is undefined (a crafted file crashed).
const json& field_or_null(const json& j, const char* key) {
  static const json null_value;
  return j.is_object() && j.contains(key) ? j.at(key) : null_value;
}

json assemble_balance(const json& partial) {
  if (!partial.is_object()) throw std::runtime_error("a balance file that is not a JSON object");
  json out;
  for (const char* key : {"variant", "size", "swap", "model", "settings"}) out[key] = field_or_null(partial, key);
  // Who played (a model's path, or a baseline such as uct:2000 without any model); reports
  // written before the field have the model alone.
  for (const char* key : {"player", "baseline"})
    if (partial.contains(key)) out[key] = partial.at(key);
  const json& parts = field_or_null(partial, "parts");
  out["openings"] = field_or_null(parts, "openings");
  const json& without = field_or_null(parts, "games_without_swap");
  const json& with = field_or_null(parts, "games_with_swap");
  out["first_player"] = {{"without_swap", field_or_null(without, "first_player")},
                         {"with_swap", field_or_null(with, "first_player")},
                         {"swapped", field_or_null(field_or_null(with, "first_player"), "swapped")}};
  const json& own = field_or_null(partial, "swap") == json(true) ? with : without;
  out["length"] = field_or_null(own, "length");
  out["draw_rate"] = field_or_null(own, "draw_rate");
  if (present(own, "flow")) {
    const json& f = own.at("flow");
    out["decisiveness"] = {{"threshold", field_or_null(f, "threshold")},
                           {"games", field_or_null(f, "decisive_games")},
                           {"share", field_or_null(f, "decided_share")}};
    out["lead_changes"] = {{"margin", field_or_null(f, "margin")}, {"mean", field_or_null(f, "lead_changes")}};
  } else {
    out["decisiveness"] = json();
    out["lead_changes"] = json();
  }
  std::vector<SkillPoint> curve;
  json trace = json::array();
  if (const json& skill = field_or_null(parts, "skill"); skill.is_array())
    for (const json& p : skill) {
      curve.push_back(skill_point_from_json(p));
      trace.push_back(p);
    }
  out["skill_trace"] = trace;
  out["skill_depth"] = curve.empty() ? json() : skill_depth_json(skill_depth(curve));
  const json& warnings = field_or_null(partial, "model_warnings");
  out["model_warnings"] = warnings.is_array() ? warnings : json::array();
  out["complete"] = field_or_null(partial, "complete") == json(true);
  if (partial.contains("seconds")) out["seconds"] = partial.at("seconds");
  return out;
}

std::string baseline_label(const json& r) {
  return fmt::format("{} (baseline, no model)", r.value("player", "?"));
}

std::string balance_text(const json& r) {
  std::string out;
  const json settings = r.value("settings", json::object());
  if (is_baseline(r)) {
    // Baseline play, no model: nobody should read these figures as a model's strength.
    const std::string player = r.value("player", "?");
    const auto baseline = parse_baseline(player, nullptr);
    const bool uct = baseline && baseline->kind == BaselinePlayer::Kind::kUct;
    const bool mcts = baseline && baseline->kind == BaselinePlayer::Kind::kMcts;
    out += fmt::format("{}, player: {}\n", game_text(r), baseline_label(r));
    out += fmt::format(
        "baseline play: every figure is {}'s, not a model's; an opening's value is {}'s search of the position after "
        "it{}, for the opener\n",
        player, player,
        uct ? " (the mean result of its random playouts)" : mcts ? " (its root value, a random playout per leaf)" : "");
  } else {
    out += fmt::format("{}, model {}, {} simulations\n", game_text(r), r.value("model", "?"), settings.value("sims", 0));
  }
  for (const json& warning : r.value("model_warnings", json::array())) out += warning.get<std::string>() + "\n";
  if (present(r, "openings")) {
    // One line per class, best first.
    std::vector<json> classes;
    int winning = 0, total = 0, proven = 0, agree = 0;
    for (const json& o : r.at("openings")) {
      ++total;
      if (o.at("value").get<double>() > 0) ++winning;
      if (!o.at("proven").is_null()) {
        ++proven;
        const std::string p = o.at("proven").get<std::string>();
        const double v = o.at("value").get<double>();
        if ((p == "win" && v > 0) || (p == "loss" && v < 0) || (p == "draw" && std::abs(v) < 0.5)) ++agree;
      }
      if (o.value("class", o.at("move").get<std::string>()) == o.at("move").get<std::string>()) classes.push_back(o);
    }
    std::stable_sort(classes.begin(), classes.end(),
                     [](const json& a, const json& b) { return a.at("value").get<double>() > b.at("value").get<double>(); });
    out += fmt::format(
        "openings (value for the player who opens; games' mean and 95% interval; solver), {} classes of "
        "{} first moves:\n",
        classes.size(), total);
    for (const json& o : classes) {
      // Without games (--opening-games 0) there is no mean or interval to show.
      const int games = o.value("games", 0);
      const std::string from_games =
          games > 0 ? fmt::format("games {:+.2f} [{:+.2f}, {:+.2f}] of {:<3}", o.value("games_value", 0.0),
                                  o.at("low").get<double>(), o.at("high").get<double>(), games)
                    : std::string("no games");
      out += fmt::format("  {:<7} {:+.2f}   {} {}\n", o.at("move").get<std::string>(), o.at("value").get<double>(),
                         from_games,
                         o.at("proven").is_null() ? std::string() : "proven " + o.at("proven").get<std::string>());
    }
    // Who would swap them: under the pie rule the second player; a variant whose opening
    // replaces the pie rule (torax's auction) has no swap to speak of.
    const std::optional<Variant> variant = parse_variant(r.value("variant", ""));
    const bool has_pie_rule = variant && variant_info(*variant).pie_rule_replaced_by == nullptr;
    const char* who_swaps = !has_pie_rule            ? ""
                            : r.value("swap", false) ? " (the second player should swap them)"
                                                     : " (under the pie rule, the second player would swap them)";
    out += fmt::format("  {} of {} first moves are good for the opener{}", winning, total, who_swaps);
    out += proven > 0 ? fmt::format("; the search agrees with the solver on {} of {} proven\n", agree, proven) : "\n";
  }
  const json fp = r.value("first_player", json::object());
  if (present(fp, "without_swap")) out += "first player without swap: " + rate_cell(fp.at("without_swap")) + "\n";
  if (present(fp, "with_swap"))
    out += "first player with swap:    " + rate_cell(fp.at("with_swap")) +
           fmt::format(", the swap taken in {} of {}\n", fp.at("with_swap").at("swapped").get<int>(),
                       fp.at("with_swap").at("games").get<int>());
  if (present(r, "length")) {
    const json& l = r.at("length");
    out += fmt::format("length: mean {:.1f} plies, quartiles {} / {} / {}, from {} to {}\n", l.at("mean").get<double>(),
                       l.at("q1").get<int>(), l.at("median").get<int>(), l.at("q3").get<int>(), l.at("min").get<int>(),
                       l.at("max").get<int>());
    if (present(l, "histogram")) {
      // Plies in order (the keys are strings), "plies:games".
      std::vector<std::pair<int, int>> bars;
      for (const auto& [plies, games] : l.at("histogram").items()) {
        if (plies.empty() || plies.size() > 6 || plies.find_first_not_of("0123456789") != std::string::npos)
          throw std::runtime_error("length histogram: " + quoted_input(plies) + " is not a number of plies");
        bars.emplace_back(std::stoi(plies), games.get<int>());
      }
      std::sort(bars.begin(), bars.end());
      out += "  plies:games";
      for (const auto& [plies, games] : bars) out += fmt::format(" {}:{}", plies, games);
      out += "\n";
    }
    if (present(r, "draw_rate")) out += "draws: " + percent(r.at("draw_rate").get<double>()) + "\n";
  }
  if (present(r, "decisiveness"))
    out += fmt::format("decided: the winner's value stays above {:g} from {} of the game on (mean of {} games)\n",
                       r.at("decisiveness").at("threshold").get<double>(), percent(r.at("decisiveness").at("share").get<double>()),
                       r.at("decisiveness").at("games").get<int>());
  if (present(r, "lead_changes"))
    out += fmt::format("lead changes: {:.2f} per game (margin {:g})\n", r.at("lead_changes").at("mean").get<double>(),
                       r.at("lead_changes").at("margin").get<double>());
  if (r.contains("skill_trace") && !r.at("skill_trace").empty()) {
    out += "skill: twice the simulations against once them (score of the doubled side):\n";
    for (const json& p : r.at("skill_trace"))
      out += fmt::format("  {:>5} vs {:<5} {} [{:.1f}, {:.1f}] of {}\n", 2 * p.at("sims").get<int>(), p.at("sims").get<int>(),
                         percent(p.at("score").get<double>()), 100 * p.at("low").get<double>(), 100 * p.at("high").get<double>(),
                         p.at("games").get<int>());
    const json& d = r.at("skill_depth");
    out += fmt::format("  {} doublings score above {}; mean score {}\n", d.at("doublings_gaining").get<int>(),
                       percent(d.at("gain").get<double>()), percent(d.at("mean_score").get<double>()));
  }
  if (!r.value("complete", false)) out += "(incomplete: run the same command again to finish it)\n";
  return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> compare_rows(
    const std::vector<std::pair<std::string, json>>& reports) {
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  auto row = [&](const std::string& name, const std::function<std::string(const json&)>& cell) {
    std::vector<std::string> cells;
    for (const auto& [label, r] : reports) {
      try {
        cells.push_back(cell(r));
      } catch (const std::exception&) {
        cells.push_back("-");  // a field this report lacks or holds as null
      }
    }
    rows.emplace_back(name, cells);
  };
  row("report", [&](const json& r) {
    for (const auto& [label, j] : reports)
      if (&j == &r) return label;
    return std::string();
  });
  row("game", [](const json& r) { return game_text(r); });
  row("player", [](const json& r) { return is_baseline(r) ? baseline_label(r) : r.at("model").get<std::string>(); });
  // The terminal's warnings (a size or pie rule the model was not trained with), without
  // their "warning: model '<path>' " prefix (the row above names the model).
  row("model warnings", [](const json& r) {
    std::string cell;
    for (const json& w : r.value("model_warnings", json::array())) {
      std::string text = w.get<std::string>();
      if (const size_t quote = text.find("' "); text.rfind("warning: model '", 0) == 0 && quote != std::string::npos)
        text = text.substr(quote + 2);
      cell += (cell.empty() ? "" : "; ") + text;
    }
    return cell.empty() ? std::string("none") : cell;
  });
  row("first player, no swap", [](const json& r) { return rate_cell(r.at("first_player").at("without_swap")); });
  row("first player, swap", [](const json& r) { return rate_cell(r.at("first_player").at("with_swap")); });
  row("swap taken", [](const json& r) {
    const json& w = r.at("first_player").at("with_swap");
    return fmt::format("{} of {}", w.at("swapped").get<int>(), w.at("games").get<int>());
  });
  auto extreme = [](const json& r, bool best) {
    const json& o = r.at("openings");
    if (!o.is_array() || o.empty()) return std::string("-");
    const json* pick = &o.at(0);
    for (const json& x : o)
      if (best ? x.at("value").get<double>() > pick->at("value").get<double>()
               : x.at("value").get<double>() < pick->at("value").get<double>())
        pick = &x;
    return fmt::format("{} {:+.2f}", pick->at("move").get<std::string>(), pick->at("value").get<double>());
  };
  row("best opening", [&](const json& r) { return extreme(r, true); });
  row("worst opening", [&](const json& r) { return extreme(r, false); });
  row("openings good for the opener", [](const json& r) {
    int good = 0;
    for (const json& o : r.at("openings")) good += o.at("value").get<double>() > 0;
    return fmt::format("{} of {}", good, r.at("openings").size());
  });
  row("openings proven (win/loss/draw)", [](const json& r) {
    int w = 0, l = 0, d = 0;
    for (const json& o : r.at("openings")) {
      if (o.at("proven").is_null()) continue;
      const std::string p = o.at("proven").get<std::string>();
      (p == "win" ? w : p == "loss" ? l : d)++;
    }
    return fmt::format("{}/{}/{}", w, l, d);
  });
  row("length (mean; quartiles)", [](const json& r) {
    const json& l = r.at("length");
    return fmt::format("{:.1f}; {}/{}/{}", l.at("mean").get<double>(), l.at("q1").get<int>(), l.at("median").get<int>(),
                       l.at("q3").get<int>());
  });
  row("draw rate", [](const json& r) { return percent(r.at("draw_rate").get<double>()); });
  row("decided from", [](const json& r) { return percent(r.at("decisiveness").at("share").get<double>()); });
  row("lead changes per game",
      [](const json& r) { return fmt::format("{:.2f}", r.at("lead_changes").at("mean").get<double>()); });
  row("skill: doublings > 55%", [](const json& r) {
    const json& d = r.at("skill_depth");
    return fmt::format("{} of {}", d.at("doublings_gaining").get<int>(), r.at("skill_trace").size());
  });
  row("skill: mean score of 2x",
      [](const json& r) { return percent(r.at("skill_depth").at("mean_score").get<double>()); });
  return rows;
}

std::string compare_markdown(const std::vector<std::pair<std::string, json>>& reports,
                             const std::vector<std::string>& maps) {
  const auto rows = compare_rows(reports);
  std::string out = "# Balance reports side by side\n\n";
  for (const auto& [name, cells] : rows) {
    if (&name == &rows.front().first) {
      out += "| |";
      for (const auto& c : cells) out += " " + c + " |";
      out += "\n|---|";
      for (size_t i = 0; i < cells.size(); ++i) out += "---|";
      out += "\n";
      continue;
    }
    out += "| " + name + " |";
    for (const auto& c : cells) out += " " + c + " |";
    out += "\n";
  }
  out += "| opening map |";
  for (size_t i = 0; i < reports.size(); ++i) out += " " + (i < maps.size() ? "![map](" + maps[i] + ")" : "-") + " |";
  out += "\n";
  return out;
}

}  // namespace quax
