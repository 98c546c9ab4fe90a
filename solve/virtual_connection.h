// Virtual connections of quax, link, quickway and crossway: positions a player has won though
// the game goes on, and the cells where the other player must move to stop a connection that
// is one move away.
//
// The structure is the quax *bridge*: two stones of a player on one diagonal of a block that
// holds no link, the two other cells of the block (its crossing cells) not both the
// opponent's. The owner joins them with one link move whenever they like; the opponent can
// take that away only by linking the block's other diagonal, which needs their stones on both
// crossing cells first. So a bridge's *carrier* is its empty crossing cells (one or two): as
// long as the opponent has not played on it, the bridge holds; when they do, the owner links.
//
// An *edge template* joins a stone of p's on the row next to one of p's edges (x below) to
// that edge: the edge cell beside it (e), and on one side the next edge cell (e2) and the
// stone's neighbour (x2) empty, with no link in the block of those four cells:
//      x2 x          an opponent stone on e: p plays e2, and x-e2 is a bridge whose
//      e2 e   (edge)  carrier is x2; on e2 or x2: p plays e and touches the edge.
// Its carrier is {e, e2, x2}. The opponent's only link in that block (e-x2) needs two of
// those cells, and p answers the first. A stone two rows from the edge has a nine-cell
// template built from these (solve/edge_template.h draws both and gives the answers).
// Whatever the opponent plays on a template's carrier, p's answer leaves a bridge or a
// smaller template whose carrier lies inside the first one's, or a made connection.
// In quickway a diagonal pair links itself when its second stone arrives, so there are no
// bridges; instead two stones of p's a gap apart (two cells along a line) or a knight's move
// apart, with two routes (cells next to both, empty) and two side cells that are not the
// opponent's, form a *two-way join* (solve/two_way_join.h draws both). Whatever the opponent
// plays on the routes or side cells, p plays a route and the two stones are joined: along a
// side, or across a diagonal that the route stone links by itself, because that block's
// crossing cells are the other route and a side cell, of which the opponent holds at most
// the one just played (an opponent link there needs both). Gap A . B with routes m (between)
// and s (beside m), side cells a (beside A) and b (beside B): on m, p plays s, which links to A
// across m-a and to B across m-b; on s, a or b, p plays m. Knight's move from A to B with
// routes m (beside A) and s (beside B), side cells a (beside A and s) and b (beside B and m):
// on m or a, p plays s, which links to A across m-a; on s or b, p plays m, which links to B
// across s-b. A join's carrier is its routes and its empty side cells. The edge templates
// above hold in quickway too: each answer is a stone beside, or a diagonal whose crossing
// cells are the template's, which quickway's stone links by itself where quax needs a link.
// A *virtual win* of player p: p's groups (stones joined by sides and by p's links) from one
// of p's edges to the other, consecutive groups joined by bridges (in quickway by joins),
// and a group joined to an edge it does not touch by an edge template, all their carriers
// pairwise disjoint. Why p wins
// from there whoever is to move (the proof the search relies on):
//  - p's strategy: when the opponent plays a stone on a bridge's carrier, link that bridge (it
//    is still legal: the block has no link, and the opponent, holding at most one crossing
//    cell before that stone, could not have linked it); on a join's, play its route; on a
//    template's carrier, answer as the template says; otherwise make any link of the chain.
//    (Every block whose link an answer needs has its crossing cells in that structure's
//    carrier, so an opponent stone, and the links it makes itself in quickway, touch one
//    structure only.)
//    The carriers are disjoint, so one stone touches one bridge or template, and p answers it
//    at once. Opponent links never touch the chain (they need two cells of one carrier).
//  - The opponent cannot win meanwhile: their chain would have to cross p's, and the only
//    crossing of two chains of these rules is a link across the other diagonal of one of p's
//    bridges, which the strategy above never allows. Once every bridge is linked, p is connected.
// A *threat* of p: a move of p's (a stone, or a link of p's) after which p has a virtual win.
// The player to move facing threats must play a stone on every threat's key cell or carrier
// (their intersection is the *must-play* region), or link across the key block of every
// threat (so only when all of them are links of p's, in one block); any other move lets p
// play a threat and win. A link of the opponent's elsewhere leaves every structure of p's as
// it was: it needs the opponent's stones on both ends, and no block a bridge, a join or a
// template needs linked has two opponent stones on its other diagonal (a bridge's crossing
// cells are not both the opponent's; the templates' are empty). Such a move cannot win at
// once either: a chain it completed would have to cross p's future one, through the
// threat's key cell or a carrier cell, or across the other diagonal of one of p's bridges.
//
// In quickway a threat's key stone links its diagonal neighbours itself, as the move would; an
// opponent stone on one of those blocks' crossing cells whose other crossing cell is the
// opponent's already would link across first, so such cells join the threat's cells.
//
// Crossway: stones on a diagonal are joined with no link (a checkerboard, the only way across
// them, is illegal), so groups are 8-connected and there are no bridges. A stone is illegal
// where it would complete a checkerboard: in a block holding the mover's stone on the other
// end of its diagonal and the opponent's on the two other cells. The joins and both edge
// templates hold with the same cells, because each answer stays legal:
//  - gap: m (between A and B) is always legal: every block around it has A or B on its other
//    diagonal. s (beside m) is illegal only if the opponent holds both other cells of a block
//    around s, and each such block has m, a or b among them: on m, p plays s; on s, a or b, m.
//  - knight's move (m beside A, s beside B): on m or b, p plays s (its blocks' other cells
//    include A, or m and a, or a); on s or a, p plays m (B, or s and b, or b).
//  - one-row template: e is always legal (x is on the other diagonal of both its blocks); on
//    e, p plays e2, whose blocks' other cells include x2; on e2 or x2, p plays e.
//  - two-row template: on f or e, p plays y, joined to x across the block of s and f (the
//    opponent holds one of them) with y's one-row template; elsewhere p plays f, legal as
//    every block around it has x or two carrier cells among its other cells.
// A chain crosses p's only through a cell of it or a checkerboard, so the opponent cannot win
// meanwhile, and p always has a legal answer, so the game cannot end drawn either. A threat's
// key cell must be legal for p, and an opponent stone that would make it illegal (the empty
// cell of a block around it holding p's diagonal partner and one opponent stone) stops the
// threat too: such cells join the threat's cells.
// Used by the proof search (solve/proof_search.h) for quax, link, quickway and crossway while
// the pie rule is out of play; the three functions below hand quadrex's positions, whose fills
// need structures of their own, to solve/fill_connection.h.
#pragma once

#include <bitset>

#include "env/square_game.h"

namespace quax {

using CellSet = std::bitset<26 * 26>;  // cells r * N + c of the largest board

// True for the variants whose positions the functions below understand (quax, link, quickway,
// crossway, and quadrex through solve/fill_connection.h).
bool virtual_connections_apply(const GameSpec& spec);

// Does `p` hold a virtual win in `game` (game not over or over alike)? On true, *carrier is
// the union of the bridges' carriers (empty when p is already connected). The search over
// chains of groups is bounded: a false answer means "none found", never "none exists".
bool virtual_win(const SquareGame& game, Player p, CellSet* carrier = nullptr);

// Does `p` hold a virtual win, or a threat (one move of p's away from one)?
bool has_threat(const SquareGame& game, Player p);

// The cells where `p`'s opponent must place a stone to stop every threat of `p`'s (see
// above), and whether `p` has any threat at all (*threatened; when false the region is the
// whole board). A virtual win `p` already holds counts as a threat with an empty region.
// *link_blocks (when given): the blocks (by south-west cell) across which a link of the
// opponent's stops every threat; all of them when there is none, none in quadrex's
// threatened positions (it has no links).
CellSet must_play_against(const SquareGame& game, Player p, bool* threatened, CellSet* link_blocks = nullptr);

}  // namespace quax
