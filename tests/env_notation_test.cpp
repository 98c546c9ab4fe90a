// Notation: moves, game records and replays (RULES.md section 1, issue 2 item 3).
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "env/notation.h"
#include "env/rng.h"
#include "env/square_game.h"

namespace quax {
namespace {

int parse(const GameState& s, const std::string& text) {
  std::string error;
  return s.parse_action(text, &error);
}

TEST(Notation, EveryActionRoundTripsThroughItsName) {
  for (Variant v : {Variant::kQuax, Variant::kCrossway}) {
    for (int n : {3, 4, 5, 8, 11, 19, 26}) {
      SquareGame s(GameSpec{v, n, true});
      std::set<std::string> seen;
      for (int a = 0; a < s.num_actions(); ++a) {
        // Link actions on the last row or column name no block on the board.
        const bool link = a >= n * n && a < 3 * n * n;
        const int block = (a - n * n) % (n * n);
        if (link && (block / n == n - 1 || block % n == n - 1)) continue;
        const std::string name = s.action_to_string(a);
        EXPECT_TRUE(seen.insert(name).second) << "two actions named " << name;
        EXPECT_EQ(parse(s, name), a) << name << " on " << n << "x" << n;
        // Upper case is accepted too.
        std::string upper = name;
        for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        EXPECT_EQ(parse(s, upper), a) << upper;
      }
      EXPECT_EQ(seen.size(), static_cast<size_t>(n * n + 2 * (n - 1) * (n - 1) + 2));
    }
  }
}

TEST(Notation, CanonicalForms) {
  SquareGame s(GameSpec{Variant::kQuax, 11, true});
  EXPECT_EQ(s.action_to_string(s.cell_action(2, 4)), "c5");
  EXPECT_EQ(s.action_to_string(s.link_action(4, 1, 0)), "e2-f3");  // `/`: south-west cell first
  EXPECT_EQ(s.action_to_string(s.link_action(4, 1, 1)), "f2-e3");  // `\`: southern cell first
  EXPECT_EQ(s.action_to_string(s.swap_action()), "swap");
  EXPECT_EQ(s.action_to_string(s.pass_action()), "pass");
  EXPECT_EQ(s.action_to_string(s.cell_action(10, 10)), "k11");
}

TEST(Notation, AllLinkSpellingsAreOneAction) {
  SquareGame s(GameSpec{Variant::kQuax, 11, true});
  const int slash = s.link_action(4, 1, 0);
  for (const char* t : {"e2-f3", "E2F3", "f3-e2", "F3-E2", "e2f3", "f3e2", "E2-f3"}) EXPECT_EQ(parse(s, t), slash) << t;
  const int backslash = s.link_action(4, 1, 1);
  for (const char* t : {"f2-e3", "e3-f2", "E3F2", "f2e3"}) EXPECT_EQ(parse(s, t), backslash) << t;
  EXPECT_EQ(parse(s, "C5"), s.cell_action(2, 4));
  EXPECT_EQ(parse(s, "SWAP"), s.swap_action());
  EXPECT_EQ(parse(s, "Pass"), s.pass_action());
  // Two-digit rows inside a link without a dash.
  EXPECT_EQ(parse(s, "j10k11"), s.link_action(9, 9, 0));
  EXPECT_EQ(parse(s, "k10j11"), s.link_action(9, 9, 1));
}

TEST(Notation, MalformedMovesAreRejectedWithAReason) {
  SquareGame s(GameSpec{Variant::kQuax, 11, true});
  for (const char* bad : {"", "5", "c", "c0", "l1", "a12", "z3", "e2-e3", "e2-g4", "e2-f3-g4", "e2--f3", "resign",
                          "c5x", "-e2f3", "e2 f3 g4"}) {
    std::string error;
    EXPECT_EQ(s.parse_action(bad, &error), -1) << "'" << bad << "'";
    EXPECT_FALSE(error.empty()) << "'" << bad << "'";
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  std::string error;
  s.parse_action("l1", &error);
  EXPECT_NE(error.find("off the 11x11 board"), std::string::npos) << error;
  s.parse_action("e2-g4", &error);
  EXPECT_NE(error.find("diagonally adjacent"), std::string::npos) << error;
}

// --- Records ---------------------------------------------------------------------------

TEST(Record, SpacesAndCommasSeparateMoves) {
  ParsedRecord r;
  std::string error;
  ASSERT_TRUE(parse_record("d3 f5, f8 h8,g6  f7 ,\n e2f3\tswap", &r, &error)) << error;
  EXPECT_EQ(r.moves, (std::vector<std::string>{"d3", "f5", "f8", "h8", "g6", "f7", "e2f3", "swap"}));
  EXPECT_EQ(r.resigned, Player::kNone);
}

TEST(Record, ResignationByAnyPlayerName) {
  const std::pair<const char*, Player> cases[] = {
      {"Black", Player::kBlack}, {"Red", Player::kWhite}, {"White", Player::kWhite}, {"V", Player::kBlack},
      {"horz", Player::kWhite},  {"x", Player::kBlack},   {"o", Player::kWhite},
  };
  for (const auto& [who, player] : cases) {
    ParsedRecord r;
    std::string error;
    ASSERT_TRUE(parse_record(std::string("d3 f5, ") + who + " resigns", &r, &error)) << who << ": " << error;
    EXPECT_EQ(r.moves, (std::vector<std::string>{"d3", "f5"}));
    EXPECT_EQ(r.resigned, player) << who;
  }
  ParsedRecord r;
  std::string error;
  ASSERT_TRUE(parse_record("Black RESIGNS", &r, &error)) << error;
  EXPECT_TRUE(r.moves.empty());
  EXPECT_EQ(r.resigned, Player::kBlack);
}

TEST(Record, MalformedRecordsAreRejected) {
  for (const char* bad : {"", "  , ,", "resigns", "d3 Blue resigns", "d3 Black resigns f5", "Black resigns, White resigns"}) {
    ParsedRecord r;
    std::string error;
    EXPECT_FALSE(parse_record(bad, &r, &error)) << "'" << bad << "'";
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
}

std::string replay_error(const GameSpec& spec, const std::string& text) {
  ParsedRecord r;
  std::string error;
  if (!parse_record(text, &r, &error)) return "record: " + error;
  auto state = replay_record(spec, r, &error);
  return state ? "" : error;
}

TEST(Replay, FirstIllegalMoveIsNamedWithItsPly) {
  const GameSpec quax{Variant::kQuax, 11, true};
  EXPECT_EQ(replay_error(quax, "d3 f5, f8 h8"), "");
  EXPECT_EQ(replay_error(quax, "d3 f5, d3 h8"), "ply 3 (move 'd3'): d3 is occupied");
  EXPECT_EQ(replay_error(quax, "d3 f5, q3"), "ply 3: 'q3' is off the 11x11 board");
  EXPECT_EQ(replay_error(quax, "d3 e4 d3e4"), "ply 3 (move 'd3e4'): d3-e4: both cells must hold black stones");
  EXPECT_EQ(replay_error(quax, "d3 swap swap"), "ply 3 (move 'swap'): swap is only allowed as white's first move");
  EXPECT_EQ(replay_error(quax, "d3 xx"),
            "ply 2: 'xx' is not a move (expected e.g. c5, e2-f3, swap)");
  EXPECT_NE(replay_error(GameSpec{Variant::kQuax, 11, false}, "d3 swap").find("ply 2 (move 'swap')"),
            std::string::npos);
  // A resignation after the end is an error; before it, it is recorded.
  const GameSpec small{Variant::kQuax, 3, true};
  EXPECT_EQ(replay_error(small, "a1 b1 a2 b2 White resigns"), "");
  EXPECT_NE(replay_error(small, "a1 b1 a2 b2 a3 White resigns"), "");
  EXPECT_EQ(replay_error(small, "a1 b1 a2 b2 a3 b3"), "ply 6 (move 'b3'): b3: the game is over");
}

TEST(Replay, RandomGamesRoundTripThroughTheirRecords) {
  Rng rng(11);
  for (Variant v : {Variant::kQuax, Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    for (int n : {4, 7, 11}) {
      const GameSpec spec{v, n, true};
      for (int g = 0; g < 20; ++g) {
        auto s = new_game(spec);
        std::vector<int> played, legal;
        while (!s->is_over()) {
          s->legal_actions(&legal);
          const int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
          s->apply(a);
          played.push_back(a);
        }
        ParsedRecord r;
        std::string error;
        ASSERT_TRUE(parse_record(record_text(spec, played), &r, &error)) << error;
        std::vector<int> replayed;
        auto t = replay_record(spec, r, &error, &replayed);
        ASSERT_NE(t, nullptr) << error;
        EXPECT_EQ(replayed, played);
        EXPECT_EQ(t->position_key(), s->position_key());
        EXPECT_EQ(t->outcome(), s->outcome());
      }
    }
  }
}

// --- The text board ----------------------------------------------------------------------

TEST(BoardText, StonesAndLinksInTheServersStyle) {
  SquareGame s(GameSpec{Variant::kQuax, 3, true});
  for (const char* m : {"a1", "c1", "b2", "a3", "a1-b2"}) s.apply(s.parse_action(m, nullptr));
  const std::string text = s.board_text();
  // Row 2 holds V at b2; between rows 2 and 1 a `/` sits between columns a and b.
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == '\n') {
      lines.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  int row2 = -1, row1 = -1;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    if (lines[i].rfind(" 2 ", 0) == 0) row2 = i;
    if (lines[i].rfind(" 1 ", 0) == 0) row1 = i;
  }
  ASSERT_GE(row2, 0);
  ASSERT_EQ(row1, row2 + 2) << text;
  const std::string& link_line = lines[row2 + 1];
  const size_t a_col = lines[row1].find('V'), b_col = lines[row2].find('V');
  ASSERT_NE(a_col, std::string::npos);
  ASSERT_NE(b_col, std::string::npos);
  ASSERT_EQ(link_line.find_first_not_of(' '), link_line.find('/')) << text;
  EXPECT_GT(link_line.find('/'), a_col);
  EXPECT_LT(link_line.find('/'), b_col);
  EXPECT_NE(lines[row1].find('H'), std::string::npos);
}

}  // namespace
}  // namespace quax
