// Virtual connections of hex (the rhombus, one game): positions a player has won though the
// game goes on, the cells where the other player must move against a connection one move
// away, and the distance that orders the proof search. Used by solve/proof_search.h while the
// pie rule is out of play, as solve/virtual_connection.h is for the square variants.
//
// Frames: each of a player's two edges is seen as the south row of its own frame, (u, v) with
// v = 0 the edge row and the two cells below (u, v) being (u, v - 1) and (u + 1, v - 1). Black's
// south edge is the board itself; the north edge is its half turn; White's west edge the
// transpose and its east edge the transpose's half turn. The neighbour relation is the same in
// all four frames, so one set of patterns serves every edge.
//
// The structures of a player p, each with a *carrier* (the empty cells the opponent must take
// to break it) and a reply that restores it:
//  - two of p's groups (stones joined by sides) with two common empty neighbours a and b: on a,
//    p plays b and the groups are joined (a *bridge*, between groups of any size); carrier {a, b}.
//  - a group with two empty neighbours a, b on an edge row: on a, p plays b, which is on the
//    edge (the second-row template); carrier {a, b}.
//  - the *ziggurat* (third-row template): a stone s = (u, 2) of p's and, in the frame of one of
//    p's edges, the eight cells below it empty: a = (u+1, 2); (u, 1), (u+1, 1), (u+2, 1);
//    (u, 0) .. (u+3, 0). It holds two routes with disjoint carriers: X, the stone (u, 1) beside
//    s with its second-row template {(u, 0), (u+1, 0)}; Y, the stone (u+2, 1), joined to s by
//    the bridge {a, (u+1, 1)} and to the edge by the template {(u+2, 0), (u+3, 0)}. An opponent
//    stone lands in one route's cells and p plays the other's stone, leaving structures with
//    disjoint carriers. Its mirror image: a = (u-1, 2); (u-1, 1) .. (u+1, 1); (u-1, 0) ..
//    (u+2, 0), routes (u+1, 1) with {(u+1, 0), (u+2, 0)} and (u-1, 1) by the bridge
//    {a, (u, 1)} with {(u-1, 0), (u, 0)}.
// A *virtual win* of p: a chain edge - group - ... - group - edge where each step is a group
// touching the edge, one of the structures above, or a bridge, all carriers pairwise disjoint.
// p wins from there whoever is to move: every opponent stone lands in at most one carrier and p
// restores that structure at once (on p's own turn p fills any carrier); once all are filled p
// is connected, and in hex the opponent cannot connect across p's chain before that, since a
// chain of theirs and a completed chain of p's cannot both exist and p can always complete.
// A *threat* of p: an empty cell c where p's stone would give a virtual win with carrier K. The
// opponent to move, facing threats, must play in {c} ∪ K of every one (the *must-play*
// region): any other stone leaves some threat whole, and p plays it.
#pragma once

#include "env/hex_game.h"
#include "solve/virtual_connection.h"  // CellSet

namespace quax {

// Hex on the rhombus (no sub-games); the functions below take only positions of such specs.
bool hex_connections_apply(const GameSpec& spec);

// Empty cells `p` needs to connect its edges if the opponent never replied (0 when connected);
// kNoPath (solve/connection_distance.h) when the opponent has cut every path.
int hex_connection_distance(const HexGame& game, Player p);

// Does `p` hold a virtual win? On true, *carrier (when given) is the union of the structures'
// carriers (empty when p is connected). The search over chains is bounded: false means "none
// found", never "none exists".
bool hex_virtual_win(const HexGame& game, Player p, CellSet* carrier = nullptr);

// Does `p` hold a virtual win, or a threat (one stone away from one)?
bool hex_has_threat(const HexGame& game, Player p);

// The cells where `p`'s opponent must place a stone to stop every threat of `p`'s, and whether
// `p` has any (*threatened; when false the region is the whole board). A virtual win `p`
// already holds counts as a threat with an empty region.
CellSet hex_must_play_against(const HexGame& game, Player p, bool* threatened);

}  // namespace quax
