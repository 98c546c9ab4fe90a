// One line of `quax analysis` (docs/ANALYSIS.md) read into what the searcher needs: the
// positions of a query, each a search to run, or an action (terminate, query_version). The
// JSON is parsed by core/bounded_json.h's parse_json; every refusal is one error with the
// field it concerns, so the engine answers it with one line and serves on.
#pragma once

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "mcts/search_limits.h"

namespace quax {

// Bounds of a query (docs/ANALYSIS.md).
inline constexpr size_t kMaxAnalysisLineBytes = 1 << 20;
inline constexpr size_t kMaxAnalysisMoves = 10000;
inline constexpr double kMaxReportEverySeconds = 3600;

// What the engine fills in where a query leaves a field out.
struct AnalysisDefaults {
  GameSpec spec;
  int visits = 200;
};

// One position of a query to search.
struct AnalysisPosition {
  std::string id;
  int turn = 0;  // moves played before it (its index in analyzeTurns)
  std::unique_ptr<GameState> state;
  int visits = 0;
  bool include_policy = false;
  bool include_ownership = false;
  double report_every = 0;  // seconds; 0: no answers during the search
  int priority = 0;
  uint64_t sequence = 0;  // order of arrival, for equal priorities
  std::shared_ptr<std::atomic<bool>> terminated;  // shared by the positions of one query
};

struct AnalysisLine {
  enum class Kind { kError, kQuery, kTerminate, kTerminateAll, kQueryVersion } kind = Kind::kError;
  nlohmann::json id;         // null when the line had none (or it was not a string)
  std::string error, field;  // kError: the reason (one line) and the field ("" for the line)
  std::string terminate_id;  // kTerminate
  GameSpec spec;             // kQuery
  std::vector<AnalysisPosition> positions;  // kQuery, in analyzeTurns order
};

// Reads one line (without its newline). Never throws for bad input.
AnalysisLine parse_analysis_line(const std::string& line, const AnalysisDefaults& defaults);

// The error line: {"id": id (null when none), "error": ..., "field": ...}.
nlohmann::json analysis_error(const nlohmann::json& id, const std::string& error, const std::string& field);

}  // namespace quax
