// Virtual connections of hex (the rhombus, one game, boards up to 11x11): positions a player
// has won though the game goes on, the cells where the other player must move against a
// connection one move away, and the distance that orders the proof search. Used by
// solve/proof_search.h while the pie rule is out of play, as solve/virtual_connection.h is for
// the square variants. The connections come from H-search (solve/hex_h_search.h), which finds
// bridges, the edge templates of rows two and three (the ziggurat) and their chains.
//
// A *virtual win* of p: a full connection of p's two edges. p wins from there whoever is to
// move: each opponent stone lands in the carrier and p restores the connection at once (on p's
// own turn p fills the carrier); once filled, p's edges are joined.
// A *threat* of p: a semi connection of p's edges, key c and carrier K (c included): p playing
// c makes a virtual win. The opponent to move, facing threats, must play in the carrier of
// every one (the *must-play* region): any stone outside one leaves it whole, and p plays its key.
#pragma once

#include "env/hex_game.h"
#include "solve/virtual_connection.h"  // CellSet

namespace quax {

// Hex on the rhombus (no sub-games) up to 11x11; the functions below take only positions of
// such specs.
bool hex_connections_apply(const GameSpec& spec);

// Empty cells `p` needs to connect its edges if the opponent never replied (0 when connected);
// kNoPath (solve/connection_distance.h) when the opponent has cut every path.
int hex_connection_distance(const HexGame& game, Player p);

// Does `p` hold a virtual win? On true, *carrier (when given) is its carrier (empty when p is
// connected). H-search is bounded: false means "none found", never "none exists".
bool hex_virtual_win(const HexGame& game, Player p, CellSet* carrier = nullptr);

// Does `p` hold a virtual win, or a threat (one stone away from one)? On true, *carrier (when
// given) is the carrier of one: the virtual win's, or the smallest threat's (its key included).
bool hex_has_threat(const HexGame& game, Player p, CellSet* carrier = nullptr);

// The cells where `p`'s opponent must place a stone to stop every threat of `p`'s, and whether
// `p` has any (*threatened; when false the region is the whole board). A virtual win `p`
// already holds counts as a threat with an empty region. When threatened, *threat_cells (when
// given) is the union of the threats' carriers: the cells the region's reason lies in.
CellSet hex_must_play_against(const HexGame& game, Player p, bool* threatened, CellSet* threat_cells = nullptr);

}  // namespace quax
