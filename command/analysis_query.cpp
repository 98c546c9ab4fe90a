#include "command/analysis_query.h"

#include <algorithm>
#include <cmath>

#include "core/bounded_json.h"
#include "core/quoted_input.h"

namespace quax {
namespace {

const char* const kQueryFields[] = {"id",           "variant",          "size",
                                    "swap",         "moves",            "analyzeTurns",
                                    "maxVisits",    "includePolicy",    "includeOwnership",
                                    "reportDuringSearchEvery", "priority", "action",
                                    "terminateId"};

struct Refusal {
  std::string error, field;
};

// An integer of [lo, hi] or a Refusal naming `field`.
int read_int(const nlohmann::json& v, const char* field, long long lo, long long hi) {
  if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() &&
                                   std::isfinite(v.get<double>())))
    throw Refusal{std::string("'") + field + "' must be an integer", field};
  const double d = v.get<double>();
  if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
    throw Refusal{std::string("'") + field + "' must be from " + std::to_string(lo) + " to " + std::to_string(hi), field};
  return static_cast<int>(d);
}

bool read_bool(const nlohmann::json& v, const char* field) {
  if (!v.is_boolean()) throw Refusal{std::string("'") + field + "' must be true or false", field};
  return v.get<bool>();
}

void read_query(const nlohmann::json& q, const AnalysisDefaults& defaults, AnalysisLine* out) {
  GameSpec spec = defaults.spec;
  if (q.contains("variant")) {
    const auto& v = q["variant"];
    if (!v.is_string()) throw Refusal{"'variant' must be a string", "variant"};
    const auto variant = parse_variant(v.get<std::string>());
    if (!variant)
      throw Refusal{"unknown variant " + quoted_input(v.get<std::string>()) + " (known: " + variant_list() + ")", "variant"};
    if (*variant != spec.variant) spec = default_spec(*variant);
  }
  if (q.contains("size")) spec.size = read_int(q["size"], "size", 1, 1000);
  if (q.contains("swap")) spec.swap = read_bool(q["swap"], "swap");
  if (auto err = check_spec(spec); !err.empty()) throw Refusal{err, q.contains("size") ? "size" : "variant"};
  out->spec = spec;

  int visits = defaults.visits;
  if (q.contains("maxVisits")) visits = read_int(q["maxVisits"], "maxVisits", 1, kMaxServedSimulations);
  const bool policy = q.contains("includePolicy") && read_bool(q["includePolicy"], "includePolicy");
  const bool ownership = q.contains("includeOwnership") && read_bool(q["includeOwnership"], "includeOwnership");
  double every = 0;
  if (q.contains("reportDuringSearchEvery")) {
    const auto& v = q["reportDuringSearchEvery"];
    if (!v.is_number() || !(v.get<double>() >= 0.001 && v.get<double>() <= kMaxReportEverySeconds))
      throw Refusal{"'reportDuringSearchEvery' must be a number of seconds from 0.001 to 3600", "reportDuringSearchEvery"};
    every = v.get<double>();
  }
  const int priority = q.contains("priority") ? read_int(q["priority"], "priority", -1000000000, 1000000000) : 0;

  // The moves, applied one by one; the states at the analysed turns are kept.
  std::vector<std::string> moves;
  if (q.contains("moves")) {
    const auto& m = q["moves"];
    if (!m.is_array()) throw Refusal{"'moves' must be a list of moves in the game's notation", "moves"};
    if (m.size() > kMaxAnalysisMoves) throw Refusal{"'moves' has more than 10000 moves", "moves"};
    for (size_t i = 0; i < m.size(); ++i) {
      if (!m[i].is_string())
        throw Refusal{"moves[" + std::to_string(i) + "] must be a string (a move such as \"c3\")", "moves"};
      moves.push_back(m[i].get<std::string>());
    }
  }
  std::vector<int> turns;
  if (q.contains("analyzeTurns")) {
    const auto& t = q["analyzeTurns"];
    if (!t.is_array() || t.empty()) throw Refusal{"'analyzeTurns' must be a non-empty list of turn numbers", "analyzeTurns"};
    for (const auto& v : t) {
      const int turn = read_int(v, "analyzeTurns", 0, static_cast<long long>(moves.size()));
      if (std::find(turns.begin(), turns.end(), turn) != turns.end())
        throw Refusal{"'analyzeTurns' lists turn " + std::to_string(turn) + " twice", "analyzeTurns"};
      turns.push_back(turn);
    }
  } else {
    turns.push_back(static_cast<int>(moves.size()));
  }

  auto terminated = std::make_shared<std::atomic<bool>>(false);
  auto state = new_game(spec);
  std::vector<std::unique_ptr<GameState>> at(moves.size() + 1);
  auto keep = [&](int turn) {
    if (std::find(turns.begin(), turns.end(), turn) != turns.end()) at[turn] = state->clone();
  };
  keep(0);
  for (size_t i = 0; i < moves.size(); ++i) {
    std::string why;
    const int action = state->parse_action(moves[i], &why);
    if (action >= 0) why = state->why_illegal(action);
    if (!why.empty()) throw Refusal{"moves[" + std::to_string(i) + "] " + quoted_input(moves[i]) + ": " + why, "moves"};
    state->apply(action);
    keep(static_cast<int>(i + 1));
  }
  for (int turn : turns) {
    AnalysisPosition p;
    p.id = out->id.get<std::string>();
    p.turn = turn;
    p.state = std::move(at[turn]);
    p.visits = visits;
    p.include_policy = policy;
    p.include_ownership = ownership;
    p.report_every = every;
    p.priority = priority;
    p.terminated = terminated;
    out->positions.push_back(std::move(p));
  }
}

}  // namespace

nlohmann::json analysis_error(const nlohmann::json& id, const std::string& error, const std::string& field) {
  return {{"id", id}, {"error", error}, {"field", field}};
}

AnalysisLine parse_analysis_line(const std::string& line, const AnalysisDefaults& defaults) {
  AnalysisLine out;
  std::string error;
  const nlohmann::json q = parse_json_or_discarded(line, "query", &error);
  if (q.is_discarded()) {
    out.error = error;
    return out;
  }
  if (!q.is_object()) {
    out.error = "a query must be a JSON object";
    return out;
  }
  try {
    if (q.contains("id")) {
      if (!q["id"].is_string()) throw Refusal{"'id' must be a string", "id"};
      out.id = q["id"];
    }
    for (const auto& item : q.items())
      if (std::find(std::begin(kQueryFields), std::end(kQueryFields), item.key()) == std::end(kQueryFields))
        throw Refusal{"unknown field " + quoted_input(item.key()), item.key().size() <= 60 ? item.key() : ""};
    if (!q.contains("id")) throw Refusal{"a query needs an 'id' (a string)", "id"};
    if (q.contains("action")) {
      const auto& a = q["action"];
      if (!a.is_string()) throw Refusal{"'action' must be a string", "action"};
      const std::string action = a.get<std::string>();
      if (action == "terminate") {
        if (!q.contains("terminateId") || !q["terminateId"].is_string())
          throw Refusal{"terminate needs a 'terminateId' (a string)", "terminateId"};
        out.terminate_id = q["terminateId"].get<std::string>();
        out.kind = AnalysisLine::Kind::kTerminate;
      } else if (action == "terminate_all") {
        out.kind = AnalysisLine::Kind::kTerminateAll;
      } else if (action == "query_version") {
        out.kind = AnalysisLine::Kind::kQueryVersion;
      } else {
        throw Refusal{"unknown action " + quoted_input(action) + " (known: terminate, terminate_all, query_version)", "action"};
      }
      return out;
    }
    read_query(q, defaults, &out);
    out.kind = AnalysisLine::Kind::kQuery;
  } catch (const Refusal& r) {
    out.kind = AnalysisLine::Kind::kError;
    out.positions.clear();
    out.error = r.error;
    out.field = r.field;
  }
  return out;
}

}  // namespace quax
