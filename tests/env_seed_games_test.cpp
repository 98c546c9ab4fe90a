// The games, positions and figures of the original rule texts: those read from tests/data
// (tests/data/README.md names each file's source) and the small figures written out below.
#include <gtest/gtest.h>

#include <sstream>

#include "diagram_position.h"
#include "env/notation.h"
#include "env/square_game.h"
#include "test_data.h"

namespace quax {
namespace {

using testing::parse_diagram;
using testing::read_test_data;

std::vector<std::string> names(const GameState& s, const std::vector<int>& actions) {
  std::vector<std::string> out;
  for (int a : actions) out.push_back(s.action_to_string(a));
  return out;
}

// --- The three sample games of the Quax page ------------------------------------------

struct SampleGame {
  size_t moves;
  Player resigned;
};
const SampleGame kSampleGames[] = {{22, Player::kBlack}, {19, Player::kWhite}, {16, Player::kBlack}};

// `data`: a file of tests/data holding the three records, one a line.
void check_sample_games(const std::string& data) {
  const auto records = read_test_data(data);
  ASSERT_EQ(records.size(), 3u) << data;
  for (size_t g = 0; g < 3; ++g) {
    SCOPED_TRACE(data + " game " + std::to_string(g + 1) + ": " + records[g]);
    ParsedRecord record;
    std::string error;
    ASSERT_TRUE(parse_record(records[g], &record, &error)) << error;
    EXPECT_EQ(record.moves.size(), kSampleGames[g].moves);
    EXPECT_EQ(record.resigned, kSampleGames[g].resigned);
    auto state = replay_record(GameSpec{Variant::kQuax, 11, true}, record, &error);
    ASSERT_NE(state, nullptr) << error;
    EXPECT_EQ(state->outcome(), Outcome::kOngoing);
    // Each game ends with the player to move resigning.
    EXPECT_EQ(state->to_move(), kSampleGames[g].resigned);
  }
}

TEST(SeedGames, QuaxOverviewSampleGamesReplayLegallyWithNoWinner) {
  check_sample_games("quax-sample-games-overview.txt");
}
TEST(SeedGames, QuaxPageSampleGamesReplayLegallyWithNoWinner) { check_sample_games("quax-sample-games-page.txt"); }

TEST(SeedGames, FirstSampleGameLinksAndStones) {
  const auto records = read_test_data("quax-sample-games-overview.txt");
  ParsedRecord record;
  std::string error;
  ASSERT_TRUE(parse_record(records[0], &record, &error)) << error;
  std::vector<int> actions;
  auto state = replay_record(GameSpec{Variant::kQuax, 11, true}, record, &error, &actions);
  ASSERT_NE(state, nullptr) << error;
  // "e3 e2f3": White links e2-f3; "f4g3 h3", "g5 f5g4", "h4 g4h3": the other links.
  EXPECT_EQ(state->links_of(Player::kWhite), (std::vector<std::string>{"e2-f3", "h3-g4", "g4-f5"}));
  EXPECT_EQ(state->links_of(Player::kBlack), std::vector<std::string>{"g3-f4"});
  EXPECT_EQ(state->stones_of(Player::kBlack),
            (std::vector<std::string>{"f2", "d3", "e3", "g3", "f4", "h4", "g5", "g6", "g7", "f8"}));
  EXPECT_EQ(state->stones_of(Player::kWhite),
            (std::vector<std::string>{"e2", "f3", "h3", "g4", "f5", "f7", "e8", "h8"}));
  EXPECT_EQ(names(*state, actions)[8], "f2");
  EXPECT_EQ(names(*state, actions)[11], "e2-f3");
}

// --- The finished 8x8 game of the server's Quax help page ----------------------------

// The page's diagram lost its alignment in extraction: the right-hand row labels all read 8,
// row 1 lost a leading space, and a single link row `\   /` is left between rows 3 and 2,
// where no two diagonal V stones sit in neighbouring blocks. Vert's only way down from d7 is
// a link d7-e6 (`\`); from e4 it goes on either by d3-e4 (`/`, then d3-d2-c2-c1) or f3-g2
// (`\`, then g2-g1). The text names "the link symbols \ and /", so the links are read as
// d7-e6 and d3-e4; the stones are the page's.
const char kQuaxHelpGame[] =
    "8  . . . V . . . .  8\n"
    "7  . . . V H H H H  7\n"
    "          \\\n"
    "6  H H H H V . . .  6\n"
    "5  . . . . V . . .  5\n"
    "4  . . . . V V . .  4\n"
    "          /\n"
    "3  . . . V H V H H  3\n"
    "2  . . V V . H V .  2\n"
    "1  . . V . . . V .  1\n";

TEST(SeedGames, QuaxHelpEightByEightGameIsWonByVert) {
  const auto d = parse_diagram(kQuaxHelpGame);
  ASSERT_EQ(d.size, 8);
  ASSERT_EQ(d.links.size(), 2u);
  auto won = d.position(Variant::kQuax, Player::kWhite, 40);
  EXPECT_EQ(won->links_of(Player::kBlack), (std::vector<std::string>{"d3-e4", "e6-d7"}));
  EXPECT_EQ(won->outcome(), Outcome::kBlackWins);
  EXPECT_EQ(won->to_move(), Player::kNone);

  // Without the links Vert's pieces do not reach from top to bottom, and Horz has not won
  // either (the link d7-e6 is also what cuts H's d6-e7).
  auto unlinked = testing::Diagram(d);
  unlinked.links.clear();
  auto open = unlinked.position(Variant::kQuax, Player::kBlack, 40);
  EXPECT_EQ(open->outcome(), Outcome::kOngoing);
  // Each link alone is not enough.
  for (size_t keep = 0; keep < 2; ++keep) {
    auto one = testing::Diagram(d);
    one.links = {d.links[keep]};
    EXPECT_EQ(one.position(Variant::kQuax, Player::kBlack, 40)->outcome(), Outcome::kOngoing);
  }
  // Black to move in the unlinked position wins by linking d7-e6 and then d3-e4.
  open->apply(open->parse_action("d7-e6", nullptr));
  EXPECT_EQ(open->outcome(), Outcome::kOngoing);
  open->apply(open->parse_action("h5", nullptr));
  ASSERT_EQ(open->why_illegal(open->parse_action("e4-d3", nullptr)), "");
  open->apply(open->parse_action("e4-d3", nullptr));
  EXPECT_EQ(open->outcome(), Outcome::kBlackWins);
}

// The example of the server's help: the links of each colour drawn between rows.
TEST(SeedGames, QuaxHelpLinkDiagrams) {
  auto h = parse_diagram(". . . .\n. V H .\n   /\n. H V .\n. . . .");
  ASSERT_EQ(h.links.size(), 1u);
  EXPECT_EQ(h.links[0][2], index_of(Player::kWhite));
  auto v = parse_diagram(". . . .\n. V H .\n   \\\n. H V .\n. . . .");
  ASSERT_EQ(v.links.size(), 1u);
  EXPECT_EQ(v.links[0][2], index_of(Player::kBlack));
  // With White's link in place Black can no longer link the other diagonal.
  auto s = h.position(Variant::kQuax, Player::kBlack, 5);
  EXPECT_NE(s->why_illegal(s->parse_action("b3-c2", nullptr)), "");
}

// --- Quadrex ---------------------------------------------------------------------------

// pbmserv-quadrex.txt: H is placed at c4 (upper case = the new piece). c4-d5 is then an h
// pair with v at c5, so d4 becomes h; d4-e3 is then an h pair with v at e4, so d3 becomes h.
const char kQuadrexBefore[] =
    ". . . . . . .\n"
    ". . . . . . .\n"
    ". . v h . . .\n"
    ". . . . v . .\n"
    ". . . . h . .\n"
    ". . . . . . .\n"
    ". . . . . . .\n";
const char kQuadrexAfter[] =
    ". . . . . . .\n"
    ". . . . . . .\n"
    ". . v h . . .\n"
    ". . h h v . .\n"
    ". . . H h . .\n"
    ". . . . . . .\n"
    ". . . . . . .\n";

// docs/RULES.md fixes the cascade order (first-in first-out from the placed stone, each cell's
// blocks south-west, south-east, north-west, north-east). No position was found where that
// order changes the result, so none is tested: two blocks can only disagree about one empty
// cell, and two blocks sharing an edge at that cell always fill it with one colour (the
// shared orthogonal neighbour lies in both pairs); a search of 773,000 stable 7x7 positions
// built around the remaining case (diagonally opposite blocks), every move in both colours,
// found FIFO, LIFO and the reversed block order always agreeing. The random-game test
// compares every move with a reference cascade written in the docs/RULES.md order.
TEST(SeedGames, QuadrexCascadeExample) {
  const auto before = parse_diagram(kQuadrexBefore);
  const auto after = parse_diagram(kQuadrexAfter);
  auto s = before.position(Variant::kQuadrex, Player::kWhite, 4);
  ASSERT_EQ(s->outcome(), Outcome::kOngoing);
  s->apply(s->parse_action("c4", nullptr));
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 7; ++c)
      EXPECT_EQ(s->stone(c, r), after.stones[r * 7 + c]) << static_cast<char>('a' + c) << r + 1;
  EXPECT_EQ(s->stones_of(Player::kWhite), (std::vector<std::string>{"d3", "e3", "c4", "d4", "d5"}));
  EXPECT_EQ(s->to_move(), Player::kBlack);
}

// The 19x19 finished game on the same page: Vert's chain runs from j19 down to i1.
TEST(SeedGames, QuadrexNineteenByNineteenGameIsWonByVert) {
  std::string diagram;
  for (const std::string& line : read_test_data("quadrex-19x19-won-by-vert.txt")) diagram += line + "\n";
  const auto d = parse_diagram(diagram);
  ASSERT_EQ(d.size, 19);
  EXPECT_EQ(d.at("j19"), Player::kBlack);
  EXPECT_EQ(d.at("i1"), Player::kBlack);
  EXPECT_EQ(d.at("a10"), Player::kWhite);
  auto s = d.position(Variant::kQuadrex, Player::kWhite, 80);
  EXPECT_EQ(s->outcome(), Outcome::kBlackWins);
  // m10 is the V piece that breaks H's row 10: as H it would be H's win instead.
  auto swapped = testing::Diagram(d);
  swapped.stones[9 * 19 + 12] = Player::kWhite;
  EXPECT_EQ(swapped.position(Variant::kQuadrex, Player::kBlack, 80)->outcome(), Outcome::kWhiteWins);
}

// --- Crossway (pbmserv-crossway.txt) ------------------------------------------------------

// Figure 1: the two forbidden checkerboards. Every cell of either pattern, left empty, is
// illegal for the player whose colour completes it and legal for the other.
TEST(SeedGames, CrosswayFigure1CheckerboardsAreForbidden) {
  for (const char* figure : {". . . .\n. H V .\n. V H .\n. . . .", ". . . .\n. V H .\n. H V .\n. . . ."}) {
    const auto full = parse_diagram(figure);
    for (int cell : {5, 6, 9, 10}) {  // b2, c2, b3, c3
      auto d = testing::Diagram(full);
      const Player owner = d.stones[cell];
      d.stones[cell] = Player::kNone;
      auto own = d.position(Variant::kCrossway, owner, 4);
      EXPECT_NE(own->why_illegal(cell).find("checkerboard"), std::string::npos) << figure << " cell " << cell;
      auto other = d.position(Variant::kCrossway, opponent(owner), 4);
      EXPECT_EQ(other->why_illegal(cell), "") << figure << " cell " << cell;
    }
  }
}

// Figure 2. The caption says "legal placements for Black (H)" but the text says Black (V), and
// only V makes the marks right: b4, d3, b1 and d1 would each complete a checkerboard for V
// (b4 with c5 / b5, c4; d3 with e2 / d2, e3; b1 with a2 / a1, b2; d1 with e2 / e1, d2), while
// for H every empty cell is legal. So the marks are Black's (V's), and Black is V as elsewhere.
const char kCrosswayFigure2[] =
    "? H V V V\n"
    "H . H ? H\n"
    "V V V . H\n"
    "V H ? H V\n"
    "H . V . H\n";

TEST(SeedGames, CrosswayFigure2LegalPlacementsAreTheMarkedCells) {
  const auto d = parse_diagram(kCrosswayFigure2);
  auto black = d.position(Variant::kCrossway, Player::kBlack, 19);
  ASSERT_EQ(black->outcome(), Outcome::kOngoing);
  std::vector<int> legal;
  black->legal_actions(&legal);
  std::vector<int> marked = d.marked;
  std::sort(marked.begin(), marked.end());
  EXPECT_EQ(legal, marked);
  EXPECT_EQ(names(*black, legal), (std::vector<std::string>{"c2", "d4", "a5"}));
  auto white = d.position(Variant::kCrossway, Player::kWhite, 19);
  white->legal_actions(&legal);
  EXPECT_EQ(names(*white, legal), (std::vector<std::string>{"b1", "d1", "c2", "d3", "b4", "d4", "a5"}));
}

// Figure 3: H a2-b3-c3-d4-e5, with diagonal steps, and e5 a corner of the east edge.
TEST(SeedGames, CrosswayFigure3WhiteHasWon) {
  const auto d = parse_diagram(
      ". . . . H\n"
      "V . . H V\n"
      "V H H V .\n"
      "H . V . .\n"
      ". . . . .\n");
  auto s = d.position(Variant::kCrossway, Player::kBlack, 10);
  EXPECT_EQ(s->outcome(), Outcome::kWhiteWins);
  // Diagonal steps count only in crossway: the same stones win nothing in quax.
  EXPECT_EQ(d.position(Variant::kQuax, Player::kBlack, 10)->outcome(), Outcome::kOngoing);
}

}  // namespace
}  // namespace quax
