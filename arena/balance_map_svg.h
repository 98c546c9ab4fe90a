// The opening map of `quax balance` as a self-contained SVG: the board drawn with the layout
// the browser board uses (env/board_layout.h), each first move's cell coloured by its value
// for the player who made it (red: loses, white: even, blue: wins), the value in hundredths
// and the solver's proof (W, L, D) written on it, and a legend of the colour scale.
#pragma once

#include <string>
#include <vector>

#include "arena/balance_openings.h"
#include "env/types.h"

namespace quax {

// The fill colour of a value in [-1, 1] (clamped), "#rrggbb": red at -1, white at 0, blue at +1.
std::string value_colour(double value);

// The map of `openings` (opening_map's entries) on the board of `spec`; cells that are no
// first move stay grey. `title` heads the picture.
std::string opening_map_svg(const GameSpec& spec, const std::vector<OpeningValue>& openings, const std::string& title);

}  // namespace quax
