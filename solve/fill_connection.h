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
// A *virtual win* of p: p's stones joined along sides and across fill bridges from one of
// p's edges to the other. Why p wins whoever is to move:
//  - p plays a carrier cell of a bridge not yet joined; every stone the opponent places or
//    fills on a carrier joins that bridge for p (above); once every bridge is joined, p's
//    chain runs along sides from edge to edge.
//  - The opponent cannot win meanwhile: their chain is joined along sides (4-connected) and
//    p's is a path of p's stones joined along sides or diagonally (8-connected) between the
//    other edges; two such paths on a square grid share a cell.
// A *threat* of p: an empty cell k after whose stone (with no fill counted) p has a virtual
// win. When p is to move, p plays it: the fills that follow add p's stones, and the bridges
// hold whatever they bring (a carrier cell fill-proof with k's stone counted stays so). When
// the opponent is to move and k is itself fill-proof, every opponent stone outside k and the
// carriers loses. No opponent fill reaches k, nor a carrier cell fill-proof with k counted
// (where its proof rests on k, the fill would need k itself). An opponent stone filled on
// the other cell of a bridge with k at one end is looked at again when p places k, which
// then fills the fill-proof cell for p. So p plays k and holds a virtual win, and the
// opponent's stone did not win either: its chain would cross p's future one at k, the only
// cell of it not yet p's.
// These are the must-play cells of solve/virtual_connection.h for quadrex.
#pragma once

#include "env/square_game.h"
#include "solve/virtual_connection.h"

namespace quax {

// Does `p` hold a virtual win (fill bridges) in `game`, a quadrex position? *carrier, when
// given: the carrier cells of the bridges on the chain found (empty when p is connected).
bool fill_virtual_win(const SquareGame& game, Player p, CellSet* carrier = nullptr);

// A virtual win, or an empty cell after whose stone `p` would hold one (p to move wins).
bool fill_has_threat(const SquareGame& game, Player p);

// The cells where `p`'s opponent, to move, must place a stone against p's threats whose key
// is fill-proof (the intersection of their keys and carriers); *threatened says whether p
// has such a threat or a virtual win (then the region is empty). The whole board otherwise.
CellSet fill_must_play_against(const SquareGame& game, Player p, bool* threatened);

}  // namespace quax
