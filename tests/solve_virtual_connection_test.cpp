// Virtual connections of quax, link, quickway and crossway (solve/virtual_connection.h), each
// rule checked against the plain proof search (the rules off) on random positions: a virtual
// win is always a proven win, every stone outside the must-play region a proven loss, and the
// search with the rules gives the values of the search without them. Then drawn positions for
// what the detector must see.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "diagram_position.h"
#include "env/rng.h"
#include "env/square_game.h"
#include "plain_search.h"
#include "random_plies.h"
#include "solve/connection_distance.h"
#include "solve/proof_search.h"
#include "solve/solver.h"
#include "solve/virtual_connection.h"

namespace quax {
namespace {

constexpr size_t kMemory = 32u << 20;

struct Board {
  Variant variant;
  int size;
  int min_plies, max_plies;
  int positions;  // for the two rules
  int solved;     // for the whole search, twice each
  // At least one position in `rarity` holds a virtual win (quadrex's fills end its random
  // games young, before many are built).
  int rarity = 20;
};

struct Sample {
  uint64_t seed;
  std::unique_ptr<GameState> state;
};

// Games of `b` (no pie rule) `min_plies`..`max_plies` random moves in, from seeds first_seed,
// first_seed + 1, ...: the `count` tried, less those already over.
std::vector<Sample> random_positions(const Board& b, int count, uint64_t first_seed) {
  std::vector<Sample> out;
  for (int i = 0; i < count; ++i) {
    const uint64_t seed = first_seed + static_cast<uint64_t>(i);
    auto s = after_random_plies(GameSpec{b.variant, b.size, false}, b.min_plies + i % (b.max_plies - b.min_plies + 1),
                                seed);
    if (!s->is_over()) out.push_back({seed, std::move(s)});
  }
  return out;
}

class RandomPositions : public ::testing::TestWithParam<Board> {};
// Quax, link, quickway and crossway only: quadrex's scan tries every empty cell.
class ThreatScan : public ::testing::TestWithParam<Board> {};

// Every virtual win found is a win, for either player, whoever is to move.
TEST_P(RandomPositions, AVirtualWinIsAProvenWin) {
  const Board& b = GetParam();
  const auto plain = plain_search(GameSpec{b.variant, b.size, false}, kMemory);
  int found = 0, with_carrier = 0;
  for (const auto& [seed, s] : random_positions(b, b.positions, 1000)) {
    const auto& game = static_cast<const SquareGame&>(*s);
    for (Player p : {Player::kBlack, Player::kWhite}) {
      CellSet carrier;
      if (!virtual_win(game, p, &carrier)) continue;
      ++found;
      if (carrier.any()) ++with_carrier;
      ASSERT_TRUE(plain_win(*plain, *s, p)) << "seed " << seed << ", player "
                                           << (p == Player::kBlack ? "black" : "white") << "\n"
                                           << s->board_text();
    }
  }
  // The property is not vacuous: virtual wins, most of them through bridges, were met.
  EXPECT_GT(found, b.positions / b.rarity);
  EXPECT_GT(with_carrier, found / 4);
}

// Facing threats, every stone outside the must-play region, and every link outside the
// threats' key blocks, loses.
TEST_P(RandomPositions, EveryMoveOutsideTheMustPlayRegionLoses) {
  const Board& b = GetParam();
  const GameSpec spec{b.variant, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  int pruned = 0, kept = 0, pruned_links = 0;
  auto child = new_game(spec);
  std::vector<uint8_t> legal(static_cast<size_t>(child->num_actions()));
  const int nn = b.size * b.size;
  for (const auto& [seed, s] : random_positions(b, b.positions, 5000)) {
    const auto& game = static_cast<const SquareGame&>(*s);
    const Player mover = s->to_move();
    bool threatened = false;
    CellSet link_blocks;
    const CellSet region = must_play_against(game, opponent(mover), &threatened, &link_blocks);
    if (!threatened) continue;
    s->legal_mask(legal.data());
    // Stones (cells), then links (actions nn..3nn, on block a % nn).
    for (int a = 0; a < 3 * nn; ++a) {
      // (Crossway: an empty cell where the mover's stone would complete a checkerboard.)
      if (!legal[static_cast<size_t>(a)]) continue;
      if ((a < nn ? region : link_blocks)[static_cast<size_t>(a % nn)]) {
        ++kept;
        continue;
      }
      (a < nn ? pruned : pruned_links)++;
      child->copy_from(*s);
      child->apply(a);
      const bool mover_won = child->is_over() ? winner_of(child->outcome()) == mover : plain_win(*plain, *child, mover);
      ASSERT_FALSE(mover_won) << "seed " << seed << ": " << s->action_to_string(a) << " wins for the mover\n"
                              << s->board_text();
    }
  }
  EXPECT_GT(pruned, b.positions / 2);
  EXPECT_GT(kept, 0);
  if (variant_info(b.variant).links == LinkRule::kChosen) {
    EXPECT_GT(pruned_links, b.positions / 10);
  }
}

// The threat scan tries only bridge_threat_cells' cells: every stone of the mover's that gives
// them a virtual win is among them (one outside would be a threat the scan misses).
TEST_P(ThreatScan, EveryThreatKeyIsAThreatCell) {
  const Board& b = GetParam();
  const GameSpec spec{b.variant, b.size, false};
  auto child = new_game(spec);
  std::vector<uint8_t> legal(static_cast<size_t>(child->num_actions()));
  std::vector<uint8_t> cells(static_cast<size_t>(b.size * b.size));
  int keys = 0, skipped = 0;
  for (const auto& [seed, s] : random_positions(b, b.positions, 7000)) {
    const auto& game = static_cast<const SquareGame&>(*s);
    const Player mover = s->to_move();
    if (bridge_threat_cells(game, mover, cells.data()) != 1) continue;
    s->legal_mask(legal.data());
    for (int cell = 0; cell < b.size * b.size; ++cell) {
      const int action = game.cell_action(cell % b.size, cell / b.size);
      if (!legal[static_cast<size_t>(action)]) continue;
      child->copy_from(*s);
      child->apply(action);
      const bool key = !child->is_over() && virtual_win(static_cast<const SquareGame&>(*child), mover);
      if (key) ++keys;
      if (!cells[static_cast<size_t>(cell)]) {
        ++skipped;
        ASSERT_FALSE(key) << "seed " << seed << ": " << s->action_to_string(action) << " is a threat's key\n"
                          << s->board_text();
      }
    }
  }
  // Not vacuous: keys were met, and the cells left out are most of the board.
  EXPECT_GT(keys, b.positions / 50);
  EXPECT_GT(skipped, keys);
}

// The search with the rules gives every value and winning move of the search without them.
TEST_P(RandomPositions, TheSearchGivesThePlainSearchsValues) {
  const Board& b = GetParam();
  const GameSpec spec{b.variant, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  ProofSearch pruned(spec, kMemory);
  int wins = 0, losses = 0;
  for (const auto& [seed, s] : random_positions(b, b.solved, 9000)) {
    const Solution with = solve_moves(pruned, *s, false), without = solve_moves(*plain, *s, false);
    ASSERT_NE(without.value, GameValue::kUnknown);
    ASSERT_EQ(with.value, without.value) << "seed " << seed << "\n" << s->board_text();
    ASSERT_EQ(with.winning_moves, without.winning_moves) << "seed " << seed << "\n" << s->board_text();
    (with.value == GameValue::kWin ? wins : losses)++;
  }
  EXPECT_GT(wins, 0);
  EXPECT_GT(losses, 0);
  // The rules do work: fewer positions expanded than without them.
  EXPECT_LT(pruned.stats().nodes, plain->stats().nodes);
}

const Board kLinkBoards[] = {
    Board{Variant::kQuax, 4, 4, 12, 2000, 150},    Board{Variant::kLink, 4, 4, 12, 1000, 100},
    Board{Variant::kQuax, 5, 10, 18, 800, 40},     Board{Variant::kQuickway, 4, 3, 10, 2000, 150},
    Board{Variant::kQuickway, 5, 6, 14, 800, 40},  Board{Variant::kCrossway, 4, 3, 10, 2000, 150},
    Board{Variant::kCrossway, 5, 6, 14, 800, 40}};
const Board kFillBoards[] = {Board{Variant::kQuadrex, 4, 6, 12, 2000, 150, 50},
                             Board{Variant::kQuadrex, 5, 12, 19, 800, 40, 50}};

std::string board_name(const ::testing::TestParamInfo<Board>& info) {
  return std::string(variant_info(info.param.variant).name) + "_" + std::to_string(info.param.size);
}

INSTANTIATE_TEST_SUITE_P(Solve, RandomPositions, ::testing::ValuesIn(kLinkBoards), board_name);
INSTANTIATE_TEST_SUITE_P(Fills, RandomPositions, ::testing::ValuesIn(kFillBoards), board_name);
INSTANTIATE_TEST_SUITE_P(Solve, ThreatScan, ::testing::ValuesIn(kLinkBoards), board_name);

// Black's stones a1, b2 (a bridge: b1 and a2 empty), b3 (beside b2), c4 (a bridge from b3:
// c3 and b4 empty) and c5 join row 1 to row 5: a virtual win whose carrier is the four
// crossing cells. White to move cannot stop it.
TEST(VirtualConnection, BridgesWithDisjointCarriersAreAVirtualWin) {
  const auto d = testing::parse_diagram(R"(
    . . V . .
    . . V . .
    . V . . .
    . V . . .
    V . . . .
  )");
  const auto game = d.position(Variant::kQuax, Player::kWhite, 5, false);
  CellSet carrier;
  ASSERT_TRUE(virtual_win(*game, Player::kBlack, &carrier));
  CellSet expected;
  for (const char* cell : {"b1", "a2", "c3", "b4"})
    expected.set(static_cast<size_t>(game->parse_action(cell, nullptr)));
  EXPECT_EQ(carrier, expected);
  EXPECT_FALSE(virtual_win(*game, Player::kWhite));
  const auto plain = plain_search(game->spec(), kMemory);
  EXPECT_TRUE(plain_win(*plain, *game, Player::kBlack));
}

// The same chain with White on both crossing cells of the first bridge: White links b1-a2
// next, so the chain is only a threat (Black's link a1-b2 makes it whole): no virtual win, and
// White, to move, must play inside the second bridge's carrier or cut the link's block.
TEST(VirtualConnection, ABridgeWhoseCrossingIsTheOpponentsIsOnlyAThreat) {
  const auto d = testing::parse_diagram(R"(
    . . V . .
    . . V . .
    . V . . .
    H V . . .
    V H . . .
  )");
  const auto game = d.position(Variant::kQuax, Player::kWhite, 7, false);
  EXPECT_FALSE(virtual_win(*game, Player::kBlack));
  EXPECT_TRUE(has_threat(*game, Player::kBlack));
  bool threatened = false;
  const CellSet region = must_play_against(*game, Player::kBlack, &threatened);
  ASSERT_TRUE(threatened);
  CellSet expected;
  for (const char* cell : {"c3", "b4"}) expected.set(static_cast<size_t>(game->parse_action(cell, nullptr)));
  EXPECT_EQ(region, expected);
}

// Two bridges whose carriers share their one empty cell (a2): White's stone there makes
// both links possible at once, and Black, walled in, can save only one. Combining them would
// claim a win for Black in a position White wins.
TEST(VirtualConnection, BridgesSharingACarrierCellAreNotCombined) {
  const auto d = testing::parse_diagram(R"(
    V . . . .
    V . . . .
    V H H . .
    . V H . .
    V H H . .
  )");
  const auto game = d.position(Variant::kQuax, Player::kWhite, 10, false);
  EXPECT_FALSE(virtual_win(*game, Player::kBlack));
  const auto plain = plain_search(game->spec(), kMemory);
  EXPECT_TRUE(plain_win(*plain, *game, Player::kWhite));
}

// Black's b2 and b3 on 4x4 touch neither edge, but each has an edge template (b2: b1 with a1
// and a2, or c1 and c2; b3 the same toward row 4): a virtual win with White to move, through
// two templates of three cells each.
TEST(VirtualConnection, StonesNextToTheEdgesWithTemplatesAreAVirtualWin) {
  const auto d = testing::parse_diagram(R"(
    . . . H
    . V . .
    . V . .
    . . . .
  )");
  const auto game = d.position(Variant::kQuax, Player::kWhite, 3, false);
  CellSet carrier;
  ASSERT_TRUE(virtual_win(*game, Player::kBlack, &carrier));
  EXPECT_EQ(carrier.count(), 6u);
  for (const char* cell : {"b1", "b4"}) EXPECT_TRUE(carrier[static_cast<size_t>(game->parse_action(cell, nullptr))]);
  const auto plain = plain_search(game->spec(), kMemory);
  EXPECT_TRUE(plain_win(*plain, *game, Player::kBlack));
}

// One Black stone on b3 of 4x4, two rows from row 1 and one from row 4: the two-row template
// (b2, b1, c2, c3, c1, d2, d1, a2, a1 empty) joins it to row 1, the one-row template (b4 with
// a4 and a3) to row 4. A virtual win after Black's first move, with White to move.
TEST(VirtualConnection, AStoneTwoRowsFromAnEdgeWithItsTemplateIsJoinedToIt) {
  const auto d = testing::parse_diagram(R"(
    . . . .
    . V . .
    . . . .
    . . . .
  )");
  const auto game = d.position(Variant::kQuax, Player::kWhite, 1, false);
  CellSet carrier;
  ASSERT_TRUE(virtual_win(*game, Player::kBlack, &carrier));
  EXPECT_EQ(carrier.count(), 12u);
  for (const char* cell : {"b1", "b2", "b4"}) EXPECT_TRUE(carrier[static_cast<size_t>(game->parse_action(cell, nullptr))]);
  const auto plain = plain_search(game->spec(), kMemory);
  EXPECT_TRUE(plain_win(*plain, *game, Player::kBlack));
}

// The same stones on the a-file with White beside them: each template's only side (b1 and b2,
// b4 and b3) holds a White stone, so no template, and indeed White, to move, wins (a1 and then
// the link a1-b2 across Black's only way down).
TEST(VirtualConnection, ATemplateNeedsItsSideCellsEmpty) {
  const auto d = testing::parse_diagram(R"(
    . . . .
    V H . .
    V H . .
    . . . .
  )");
  const auto game = d.position(Variant::kQuax, Player::kWhite, 4, false);
  EXPECT_FALSE(virtual_win(*game, Player::kBlack));
  const auto plain = plain_search(game->spec(), kMemory);
  EXPECT_TRUE(plain_win(*plain, *game, Player::kWhite));
}

// Quickway: Black's c1, c3 and c5 are joined by two gaps (each with two routes: c2 or a cell
// beside it, c4 or a cell beside it), and b1, c3 and d5 by two knight's moves; in each
// position the two joins' carriers (routes and empty side cells, four cells each) can be
// chosen apart, so Black has won, White to move. The same in crossway, where a route across a
// diagonal needs no link and the checkerboard rule cannot stop it while the side cells are not
// White's.
TEST(VirtualConnection, QuickwayAndCrosswayGapsAndKnightsMovesAreJoins) {
  constexpr const char* kDrawings[] = {R"(
    . . V . .
    . . . . .
    . . V . .
    . . . . .
    . . V . .
  )", R"(
    . . . V .
    . . . . .
    . . V . .
    . . . . .
    . V . . .
  )"};
  for (Variant v : {Variant::kQuickway, Variant::kCrossway}) {
    for (const char* drawing : kDrawings) {
      const auto game = testing::parse_diagram(drawing).position(v, Player::kWhite, 5, false);
      CellSet carrier;
      ASSERT_TRUE(virtual_win(*game, Player::kBlack, &carrier)) << game->board_text();
      EXPECT_EQ(carrier.count(), 8u) << game->board_text();
      EXPECT_FALSE(virtual_win(*game, Player::kWhite));
      const auto plain = plain_search(game->spec(), kMemory);
      EXPECT_TRUE(plain_win(*plain, *game, Player::kBlack)) << game->board_text();
    }
  }
}

// A knight's move whose side cell is the opponent's is no join: White's stone on b2 would link
// itself to c1 across b1-c2, and take the other route (b2) at the same time.
TEST(VirtualConnection, AQuickwayJoinNeedsItsSideCellsFree) {
  const auto d = testing::parse_diagram(R"(
    . . . V .
    . . . . .
    . . V . .
    . . . . .
    . V H . .
  )");
  const auto game = d.position(Variant::kQuickway, Player::kWhite, 5, false);
  EXPECT_FALSE(virtual_win(*game, Player::kBlack));
  // The same stones in quax make no join at all: there a diagonal needs a link move.
  EXPECT_FALSE(virtual_win(*d.position(Variant::kQuax, Player::kWhite, 5, false), Player::kBlack));
}

// Crossway's knight's move b1-c3 with White on its side cell c1: White plays b2, and c2, the
// other route, would complete the checkerboard b1 c2 / c1 b2, so it is illegal for Black. No
// join, no virtual win, and White, to move, wins; with c1 empty the join holds and Black wins.
TEST(VirtualConnection, ACrosswayJoinNeedsItsSideCellsFree) {
  const auto with_side = testing::parse_diagram(R"(
    . . . .
    . . V .
    . . . .
    . V H .
  )").position(Variant::kCrossway, Player::kWhite, 3, false);
  EXPECT_FALSE(virtual_win(*with_side, Player::kBlack));
  const auto plain = plain_search(with_side->spec(), kMemory);
  EXPECT_TRUE(plain_win(*plain, *with_side, Player::kWhite));
  const auto free_side = testing::parse_diagram(R"(
    . . . .
    . . V .
    . . . .
    . V . H
  )").position(Variant::kCrossway, Player::kWhite, 3, false);
  EXPECT_TRUE(virtual_win(*free_side, Player::kBlack));
  EXPECT_TRUE(plain_win(*plain, *free_side, Player::kBlack));
}

// Quadrex (solve/fill_connection.h): Black's c1-c2 and d3-d4-d5 meet across the bridge c2-d3,
// whose carrier is d2 and c3. A White stone on either fills the other for Black, but a
// cascade might fill both for White unless one of them is fill-proof: d2 is when Black holds
// d1 (the block d1-e1-d2-e2 can then never hold White's pair away from d2), c3 when Black
// holds b3; with neither, the rule claims nothing.
TEST(FillConnection, ABridgeWithAFillProofCellIsAVirtualWin) {
  const char* const kBoard = R"(
    H H . V H
    H . . V H
    . %c . V .
    . . V . .
    . . V %c .
  )";
  const auto plain = plain_search(GameSpec{Variant::kQuadrex, 5, false}, kMemory);
  struct Case {
    char b3, d1;
    bool virtual_win;
  };
  for (const Case& c : {Case{'.', 'V', true}, Case{'V', '.', true}, Case{'.', '.', false}}) {
    char board[256];
    std::snprintf(board, sizeof board, kBoard, c.b3, c.d1);
    const auto d = testing::parse_diagram(board);
    const auto game = d.position(Variant::kQuadrex, Player::kWhite, 11, false);
    ASSERT_FALSE(game->is_over());
    CellSet carrier;
    ASSERT_EQ(virtual_win(*game, Player::kBlack, &carrier), c.virtual_win) << board;
    EXPECT_FALSE(virtual_win(*game, Player::kWhite));
    // Black wins in every case, White to move: the rule is a sufficient condition.
    EXPECT_TRUE(plain_win(*plain, *game, Player::kBlack)) << board;
    if (!c.virtual_win) continue;
    CellSet expected;
    for (const char* cell : {"d2", "c3"}) expected.set(static_cast<size_t>(game->parse_action(cell, nullptr)));
    EXPECT_EQ(carrier, expected);
  }
}

// Quadrex's edge templates: Black's c2-c3-c4 reaches row 1 from c2 (c1 below it; d1 and d2
// beside, d2 fill-proof thanks to c2 and e2) and row 5 from c4 (c5; d5 and d4, fill-proof
// thanks to c4 and e4). Without e2, d2 is not fill-proof (a cascade could fill it for White)
// and, b2 not being fill-proof either, c2 has no template: the rule claims nothing.
TEST(FillConnection, EdgeTemplatesJoinAStoneOneLineFromItsEdge) {
  const char* const kBoard = R"(
    . . . . .
    H H V . V
    H H V . .
    . . V . %c
    . . . . .
  )";
  const auto plain = plain_search(GameSpec{Variant::kQuadrex, 5, false}, kMemory);
  for (const bool e2 : {true, false}) {
    char board[256];
    std::snprintf(board, sizeof board, kBoard, e2 ? 'V' : '.');
    const auto game = testing::parse_diagram(board).position(Variant::kQuadrex, Player::kWhite, e2 ? 9 : 8, false);
    ASSERT_FALSE(game->is_over());
    CellSet carrier;
    ASSERT_EQ(virtual_win(*game, Player::kBlack, &carrier), e2) << board;
    if (!e2) continue;
    CellSet expected;
    for (const char* cell : {"c1", "d1", "d2", "c5", "d5", "d4"})
      expected.set(static_cast<size_t>(game->parse_action(cell, nullptr)));
    EXPECT_EQ(carrier, expected);
    EXPECT_TRUE(plain_win(*plain, *game, Player::kBlack)) << board;
  }
}

TEST(VirtualConnection, AppliesToTheSquareFamilyOnly) {
  for (Variant v : {Variant::kQuax, Variant::kLink, Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex})
    EXPECT_TRUE(virtual_connections_apply(GameSpec{v, 5, false}));
  for (Variant v : {Variant::kTorax, Variant::kQuikQuax, Variant::kStymie, Variant::kHex})
    EXPECT_FALSE(virtual_connections_apply(GameSpec{v, 6, false}));
}

}  // namespace
}  // namespace quax
