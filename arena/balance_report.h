// The files of `quax balance` (docs/BALANCE.md): balance.json, assembled from the parts the
// lab measures (kept meanwhile in balance.partial.json so that a stopped run resumes), the
// text report, and the side-by-side table of `quax balance compare`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "arena/balance_games.h"
#include "arena/balance_openings.h"
#include "arena/balance_skill.h"

namespace quax {

// The parts as JSON (the fields docs/BALANCE.md describes), and back where a resumed run
// needs them. The readers throw std::runtime_error (one line naming the field) on a
// malformed part.
nlohmann::json openings_json(const std::vector<OpeningValue>& openings);
std::vector<OpeningValue> openings_from_json(const GameSpec& spec, const nlohmann::json& openings);
nlohmann::json first_player_json(const FirstPlayerTally& tally);
nlohmann::json length_json(const LengthSummary& length);
nlohmann::json flow_json(const GameFlow& flow);
nlohmann::json skill_point_json(const SkillPoint& point);
SkillPoint skill_point_from_json(const nlohmann::json& point);
nlohmann::json skill_depth_json(const SkillDepth& depth);

// The measurements of one set of self-play games from the start: the first player's tally,
// length, draws and flow, as the partial file keeps them.
nlohmann::json games_part_json(const std::vector<PlayedGame>& games, bool can_draw);

// balance.json from the partial file's object: {"variant", "size", "swap", "model", "player",
// "baseline", "settings", "parts": {"openings", "games_without_swap", "games_with_swap", "skill"}}, any
// part missing giving null fields. `swap` chooses which games' length and flow are reported.
nlohmann::json assemble_balance(const nlohmann::json& partial);

// "uct:2000 (baseline, no model)": how the text, the map and the compare table name the player
// of a report made without a model (balance.json's "baseline": true, "player": "uct:2000").
std::string baseline_label(const nlohmann::json& report);

// The text report (several lines, each ending in '\n') of a balance.json object. Throws (a
// std::exception) on a report with a field missing or of the wrong type.
std::string balance_text(const nlohmann::json& report);

// `quax balance compare`: one row per figure, one column per report (label, balance.json):
// the rows as (figure, cells), and the same as a Markdown table.
std::vector<std::pair<std::string, std::vector<std::string>>> compare_rows(
    const std::vector<std::pair<std::string, nlohmann::json>>& reports);
// `maps`: the opening map of each report as the Markdown file should link it (relative to it).
std::string compare_markdown(const std::vector<std::pair<std::string, nlohmann::json>>& reports,
                             const std::vector<std::string>& maps);

}  // namespace quax
