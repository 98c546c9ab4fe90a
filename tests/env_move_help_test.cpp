// GameState::move_help() and status_line(), the words `quax play` and the browser show (issue
// 29: one list of moves, links and pass included, was printed for every variant): each variant
// offers only the moves it has and the rules allow at that point, torax explains its auction,
// stymie its turn shapes, and the status line is the board's last line.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "play_moves.h"
#include "diagram_position.h"
#include "env/game_state.h"
#include "env/rng.h"

namespace quax {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `word` as a word of its own ("end", not the "end" of "depends").
bool has_word(const std::string& text, const std::string& word) {
  return std::regex_search(text, std::regex("\\b" + word + "\\b"));
}

using testing::play;

TEST(MoveHelp, HexAndYOfferStonesOnlyAndSwapOnlyWhileItIsLegal) {
  for (Variant v : {Variant::kHex, Variant::kQuadhex, Variant::kY, Variant::kQuady}) {
    const bool triangle = v == Variant::kY || v == Variant::kQuady;
    SCOPED_TRACE(variant_info(v).name);
    auto s = new_game(GameSpec{v, 6 - (v == Variant::kQuady ? 1 : 0), true});
    EXPECT_TRUE(has(s->move_help(), "a stone on an empty cell (e.g. a1")) << s->move_help();
    EXPECT_FALSE(has(s->move_help(), "link")) << s->move_help();
    EXPECT_FALSE(has_word(s->move_help(), "pass")) << s->move_help();
    EXPECT_FALSE(has_word(s->move_help(), "swap")) << s->move_help();  // black's first move
    EXPECT_EQ(s->status_line(), "black to move");
    play(*s, "a2");
    // The rhombus mirrors the stone across the a1 diagonal, the triangle only recolours it.
    EXPECT_TRUE(has(s->move_help(), triangle ? "or swap (black's a2 becomes yours)" : "or swap (black's a2 becomes your b1)"))
        << s->move_help();
    EXPECT_EQ(s->status_line(), "white to move, swap available");
    play(*s, "c3");
    EXPECT_FALSE(has_word(s->move_help(), "swap")) << s->move_help();
    EXPECT_EQ(s->status_line(), "black to move");

    auto off = new_game(GameSpec{v, 6 - (v == Variant::kQuady ? 1 : 0), false});
    play(*off, "a2");
    EXPECT_FALSE(has_word(off->move_help(), "swap")) << off->move_help();
    EXPECT_EQ(off->status_line(), "white to move");
  }
}

TEST(MoveHelp, OnlyQuaxAndLinkOfferLinkMoves) {
  auto quax = new_game(GameSpec{Variant::kQuax, 5, true});
  EXPECT_EQ(quax->move_help(),
            "Moves: a stone on an empty cell (e.g. a1), or a link between two of your stones that are diagonal "
            "neighbours, in a block without a link (e.g. a1-b2).");
  play(*quax, "b3");
  EXPECT_TRUE(has(quax->move_help(), "a link between")) << quax->move_help();
  EXPECT_TRUE(has(quax->move_help(), ", or swap (black's b3 becomes your c2).")) << quax->move_help();
  play(*quax, "d4");
  EXPECT_FALSE(has_word(quax->move_help(), "swap")) << quax->move_help();

  auto link = new_game(default_spec(Variant::kLink));  // pie rule off by default
  play(*link, "b3");
  EXPECT_TRUE(has(link->move_help(), "a link between")) << link->move_help();
  EXPECT_FALSE(has_word(link->move_help(), "swap")) << link->move_help();

  for (Variant v : {Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    SCOPED_TRACE(variant_info(v).name);
    auto s = new_game(GameSpec{v, 5, true});
    play(*s, "b3");
    EXPECT_TRUE(has(s->move_help(), "a stone on an empty cell")) << s->move_help();
    EXPECT_FALSE(has(s->move_help(), "a link between")) << s->move_help();
    EXPECT_FALSE(has(s->move_help(), "a1-b2")) << s->move_help();
    EXPECT_FALSE(has_word(s->move_help(), "pass")) << s->move_help();
    EXPECT_TRUE(has_word(s->move_help(), "swap")) << s->move_help();
  }
  EXPECT_TRUE(has(new_game(GameSpec{Variant::kQuickway, 5, true})->move_help(), "links itself"));
  EXPECT_TRUE(has(new_game(GameSpec{Variant::kCrossway, 5, true})->move_help(), "completes no checkerboard"));
}

// Kam's double hole (as in env_rules_test's ForcedPassOnlyWhenNoPlacementExists): White must
// pass, Black may not.
TEST(MoveHelp, CrosswayOffersPassOnlyWhenItIsForced) {
  const auto d = testing::parse_diagram(
      "H H V H V\n"
      "V H . V V\n"
      "V V . H V\n"
      "V H V H V\n"
      "H H V H H");
  auto white = d.position(Variant::kCrossway, Player::kWhite, 22);
  EXPECT_TRUE(has(white->move_help(), "Moves: pass, the only one")) << white->move_help();
  EXPECT_EQ(white->status_line(), "white to move (must pass)");
  auto black = d.position(Variant::kCrossway, Player::kBlack, 21);
  EXPECT_FALSE(has_word(black->move_help(), "pass")) << black->move_help();
}

TEST(MoveHelp, ToraxExplainsItsAuctionThenThePlay) {
  auto s = new_game(GameSpec{Variant::kTorax, 5, false});
  const std::string opening = s->move_help();
  EXPECT_TRUE(has(opening, "Auction: place blocks (white stones)")) << opening;
  EXPECT_TRUE(has(opening, "up to 5 this turn, then end")) << opening;
  EXPECT_TRUE(has(opening, "or adopt: you take the white stones")) << opening;
  EXPECT_FALSE(has(opening, "link")) << opening;
  EXPECT_EQ(s->status_line(), "auction: black to move, 0 blocks on the board, 0 this turn (at most 5)");
  play(*s, "c3");
  EXPECT_EQ(s->move_help(), "Auction: another block on an empty cell, up to 4 more this turn, or end to close your turn.");
  EXPECT_EQ(s->status_line(), "auction: black to move, 1 block on the board, 1 this turn (at most 5)");
  play(*s, "end");
  EXPECT_EQ(s->status_line(), "auction: white to move, 1 block on the board, 0 this turn (at most 5)");
  play(*s, "adopt");  // white's seat takes the white stones; black's seat plays black and moves
  ASSERT_FALSE(s->is_over());
  EXPECT_EQ(s->status_line(), "black (black stones) to move");
  const std::string play_help = s->move_help();
  EXPECT_EQ(play_help,
            "Moves: a black stone on an empty cell (e.g. a1), or a link between two of your stones that are diagonal "
            "neighbours, in a block without a link (e.g. a1-b2, or across the edges a1-e5).");
  EXPECT_FALSE(has_word(play_help, "end")) << play_help;
  EXPECT_FALSE(has_word(play_help, "adopt")) << play_help;
}

TEST(MoveHelp, StymieNamesTheShapesOfATurnAndItsEnd) {
  auto s = new_game(GameSpec{Variant::kStymie, 4, true});
  EXPECT_EQ(s->move_help(),
            "Moves: the opening is one piece, an octagon (e.g. a1) or a square (e.g. a1+, between a1, b1, a2 and b2).");
  play(*s, "a2");  // the opening ends black's turn by itself
  const std::string second = s->move_help();
  EXPECT_TRUE(has(second, "or an octagon and a square touching it")) << second;
  EXPECT_FALSE(has(second, "since your opponent played a single piece")) << second;  // the opening is no single
  EXPECT_TRUE(has(second, "Or swap (black's a2 becomes your b1)")) << second;
  play(*s, "c3");
  EXPECT_TRUE(has(s->move_help(), "This turn so far: c3. Next: a piece that keeps the turn a shape (")) << s->move_help();
  EXPECT_TRUE(has(s->move_help(), "or end to finish the turn here.")) << s->move_help();
  EXPECT_EQ(s->status_line(), "white to move, this turn: c3");
  play(*s, "end");  // a single piece: black may answer with three
  EXPECT_TRUE(has(s->move_help(), "since your opponent played a single piece")) << s->move_help();
  EXPECT_EQ(s->status_line(), "black to move, triple allowed");
  play(*s, "a1 b1");  // two octagons: only the square they share completes the turn
  EXPECT_EQ(s->move_help(), "This turn so far: a1 b1. Next: a piece that keeps the turn a shape (a1+); the turn is not a shape yet.");
}

TEST(MoveHelp, QuikquaxCountsTheStonesAndQuadrantsOfTheTurn) {
  auto s = new_game(GameSpec{Variant::kQuikQuax, 4, false});
  EXPECT_TRUE(has(s->move_help(), "in a quadrant of your choice, 1 stone left this turn")) << s->move_help();
  EXPECT_EQ(s->status_line(), "black to move, quikquax turn 1: 1 stone left");
  play(*s, "a1");
  EXPECT_TRUE(has(s->move_help(), "3 stones left this turn")) << s->move_help();
  play(*s, "c3");
  EXPECT_TRUE(has(s->move_help(), "in a quadrant not used yet this turn, 2 stones left")) << s->move_help();
  EXPECT_EQ(s->status_line(), "white to move, quikquax turn 2: 2 stones left, quadrants used: north-east");
  for (const char* absent : {"swap", "pass", "end"}) EXPECT_FALSE(has_word(s->move_help(), absent)) << absent;
}

// Random games of every variant: `swap`, `pass` and `adopt` are named exactly when they are
// legal, `end` whenever it is; the help and the status are one line; the board ends with
// the status; a finished game says so.
TEST(MoveHelp, EveryVariantNamesItsWordMovesExactlyWhenTheRulesAllowThem) {
  int count = 0;
  const VariantInfo* variants = all_variants(&count);
  for (int i = 0; i < count; ++i) {
    const Variant v = variants[i].variant;
    GameSpec spec = default_spec(v);
    spec.size = nearest_valid_size(v, 5);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(describe(spec) + " seed " + std::to_string(seed));
      auto s = new_game(spec);
      Rng rng(seed);
      std::vector<int> legal;
      while (true) {
        const std::string help = s->move_help(), status = s->status_line();
        ASSERT_FALSE(help.empty());
        ASSERT_FALSE(has(help, "\n")) << help;
        ASSERT_FALSE(status.empty());
        ASSERT_FALSE(has(status, "\n")) << status;
        if (v != Variant::kQuikQuax) {  // quikquax's board puts the turn on a line of its own
          const std::string board = s->board_text();
          ASSERT_EQ(board.substr(board.size() - std::min(board.size(), status.size())), status) << board;
        }
        if (s->is_over()) {
          EXPECT_EQ(help, "No moves: the game is over.");
          EXPECT_TRUE(has(status, "wins") || status == "draw") << status;
          break;
        }
        const int spatial = s->spatial_planes() * s->size() * s->size();
        for (int a = spatial; a < s->num_actions(); ++a) {
          const std::string name = s->action_to_string(a);
          if (name == "end") {
            if (s->is_legal(a)) {
              ASSERT_TRUE(has_word(help, "end")) << help;
            }
          } else {
            ASSERT_EQ(has_word(help, name), s->is_legal(a)) << name << " at ply " << s->move_number() << ": " << help;
          }
        }
        s->legal_actions(&legal);
        s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      }
    }
  }
}

}  // namespace
}  // namespace quax
