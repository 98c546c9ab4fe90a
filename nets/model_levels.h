// The difficulty levels a model file carries: "levels" in its quax.json, written by `quax
// levels` (command/levels.cpp), which measured them on this model. A model without them
// plays the default table (mcts/play_levels.h).
//
//   "levels": {"size": 11, "swap": true, "games": 40,
//              "table": [{"sims": 1, "temperature": 2.9, "elo": 0}, ... 10 entries, level 1 first]}
//
// "temperature" -1 plays the search's move; "elo" is each level's rating with level 1 at 0,
// from the games of the measurement ("size", "swap": the game they were played on; "games":
// per pair of neighbouring candidates).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/types.h"
#include "mcts/play_levels.h"

namespace quax {

struct ModelLevels {
  LevelTable table{};
  std::vector<double> elo;  // one per level, level 1 at 0
  int size = 0;
  bool swap = false;
  int games = 0;
};

nlohmann::json model_levels_json(const ModelLevels& levels);
// Throws std::runtime_error with one line naming the first field that is wrong: not an
// object, a table of other than 10 entries, a setting check_level_table refuses, an Elo that is
// not a finite number. (Measured ratings may dip from one level to the next: few games.)
ModelLevels model_levels_from_json(const nlohmann::json& levels);

// The level table of the model file at `path`: its own, or the default one when it carries
// none or cannot be read (whoever loads the model then says why). Reads only the file's
// description, once per version of the file (cached by path, size and modification time).
LevelTable level_table_of(const std::string& path);

// The card's lines for `levels` of a model of `variant`: where they were measured, then one line
// per level.
std::vector<std::string> model_levels_lines(const ModelLevels& levels, Variant variant);

}  // namespace quax
