// Virtual connections of quadrex, whose fill-in makes them unlike quax's
// (solve/virtual_connection.h): only stones sharing a side connect, and after every stone a
// block holding two stones of one colour on one diagonal, one of the other colour on the
// other diagonal and an empty fourth cell gets that cell filled with the pair's colour, and so
// on in a cascade (docs/RULES.md).
//
// A cell c is *fill-proof* for p when every block around c has a stone of p's on its diagonal
// that does not pass through c. The opponent's fill lands on c only through a block whose
// other diagonal is the opponent's pair, so no cascade, however long, ever puts an opponent
// stone on a fill-proof cell; stones are never removed, so a cell stays fill-proof.
//
// A *fill bridge* of p: two stones a, b of p's on one diagonal of a block whose two other
// cells (its carrier, c and c') are empty, at least one of them (say c') fill-proof. Of the
// blocks around c, the bridge's holds a and b, and the two beside it hold a or b on the
// diagonal away from c; only the fourth can fill c. Whenever an opponent stone comes onto c
// or c', placed or filled, it is looked at later in the cascade (a placed stone first of
// all), and the bridge's block then holds p's pair, that stone and an empty fourth cell: the
// other cell, which nothing else can have taken meanwhile (c' is fill-proof; the only block
// holding both c and c' is the bridge's), is filled with p's stone. A bridge needs no answer:
// whoever plays or fills its carrier, p's two stones end up joined along sides. Two bridges
// may share carrier cells. (Without a fill-proof cell, a long cascade could in principle
// fill both before either is looked at; random positions never showed it, but nothing
// rules it out.)
//
// An *edge template* of p joins p's stone x, one line from one of p's edges, to that edge:
// the cell e between x and the edge, and on one side the edge cell e2 beside e and the cell
// x2 beside x, all empty, x2 fill-proof:
//      x2 x          an opponent stone on e: p plays e2, and the block of the four holds
//      e2 e   (edge)  p's pair x-e2 and the opponent's e, so x2 is filled for p (x-x2-e2);
//                     on e2 or x2: p plays e, beside x and on the edge.
// No opponent fill lands on the three cells: on x2 (fill-proof); on e, whose two blocks hold
// x on the diagonal away from it; on e2, whose blocks' diagonals away from it hold x2 or e.
// When p answers e2, x2 cannot have been taken, and the only block that could fill it holds
// p's e2 there, so the cascade fills it for p. Unlike a bridge, a template needs p's answer.
//
// A *virtual win* of p: p's stones joined along sides and across fill bridges, from one of
// p's edges (or a template to it) to the other (or a template), the templates' cells apart
// from each other's and from the bridges'. Why p wins whoever is to move:
//  - p answers a stone on a template's cells as the template says; otherwise p plays a
//    carrier cell of a bridge not yet joined or a template's e. Every stone the opponent
//    places or fills on a bridge's carrier joins that bridge for p (above), and one stone
//    meets at most one template; once every structure is joined, p's chain runs along sides
//    from edge to edge.
//  - The opponent cannot win meanwhile: their chain is joined along sides (4-connected) and
//    p's is a path of p's stones joined along sides or diagonally (8-connected) between the
//    other edges; two such paths on a square grid share a cell. (Through a template the
//    opponent holds at most the one cell p has not answered yet: p's path runs x-e, or x-e2
//    diagonally with e2 and x2 not the opponent's.)
// A *threat* of p: an empty cell k after whose stone (with no fill counted) p has a virtual
// win. When p is to move, p plays it: the fills that follow add p's stones, and the bridges
// and templates hold whatever they bring (a cell fill-proof with k's stone counted stays so).
// When the opponent is to move and k is itself fill-proof, every opponent stone outside k
// and the structures' cells loses. No opponent fill reaches k, nor a cell fill-proof with k
// counted (where its proof rests on k, the fill would need k itself), nor a template's e and
// e2 (the fills would need x, which is k or p's, or x2). An opponent stone filled on the
// other cell of a bridge with k at one end is looked at again when p places k, which then
// fills the fill-proof cell for p. So p plays k and holds a virtual win, and the opponent's
// stone did not win either: its chain would cross p's future one at a cell that is k or
// one of those cells, none of them the opponent's.
// These are the must-play cells of solve/virtual_connection.h for quadrex.
#pragma once

#include "env/square_game.h"
#include "solve/virtual_connection.h"

namespace quax {

// Does `p` hold a virtual win (fill bridges, edge templates) in `game`, a quadrex position?
// *carrier, when given: the cells of the bridges and templates on the chain found (empty
// when p is connected).
bool fill_virtual_win(const SquareGame& game, Player p, CellSet* carrier = nullptr);

// A virtual win, or an empty cell after whose stone `p` would hold one (p to move wins).
bool fill_has_threat(const SquareGame& game, Player p);

// The cells where `p`'s opponent, to move, must place a stone against p's threats whose key
// is fill-proof (the intersection of their keys and carriers); *threatened says whether p
// has such a threat or a virtual win (then the region is empty). The whole board otherwise.
CellSet fill_must_play_against(const SquareGame& game, Player p, bool* threatened);

}  // namespace quax
