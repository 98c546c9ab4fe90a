// The solved books kept in tests/data/books (tests/data/README.md says how each was made):
// every entry (from a ply on, where earlier ones take minutes each) is re-proven by today's
// solver, which must give its value and its list of winning moves, so a change to the search
// or its pruning rules that alters a proven result fails here, and the books models are scored
// on (quax perfect-check) stay true. The earlier entries are read and checked (legal winning
// moves) like any book.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "solve/book.h"
#include "solve/proof_search.h"
#include "solve/solver.h"
#include "test_data.h"

namespace quax {
namespace {

struct Book {
  const char* file;
  size_t at_least;  // entries the file holds
  size_t every;     // re-prove every this many-th entry (the test's time on 2 cores)
  size_t min_ply = 0;  // ... of those this many plies or more from the start
};

class ShippedBook : public ::testing::TestWithParam<Book> {};

TEST_P(ShippedBook, TodaysSolverGivesEveryValueAndWinningMove) {
  const Book& b = GetParam();
  const std::vector<BookEntry> book = read_book(testing::test_data_path(b.file));
  ASSERT_GE(book.size(), b.at_least);
  ProofSearch search(book.front().spec, size_t{256} << 20);
  int wins = 0, losses = 0;
  size_t late = 0;  // entries min_ply or more plies in, so far
  for (const BookEntry& e : book) {
    SCOPED_TRACE(std::string(b.file) + ": \"" + e.record + "\"");
    std::string error;
    const auto position = book_position(e, &error);
    ASSERT_TRUE(position) << error;
    if (static_cast<size_t>(position->move_number()) < b.min_ply || late++ % b.every != 0) continue;
    const Solution s = solve_moves(search, *position, false);
    ASSERT_EQ(s.value, e.value);
    std::vector<std::string> moves;
    for (int a : s.winning_moves) moves.push_back(position->action_to_string(a));
    EXPECT_EQ(moves, e.winning_moves);
    (s.value == GameValue::kWin ? wins : losses)++;
  }
  EXPECT_GT(wins, 0);
  EXPECT_GT(losses, 0);
}

INSTANTIATE_TEST_SUITE_P(Books, ShippedBook, ::testing::Values(Book{"books/quax-5x5-games.jsonl", 350, 5},
                                                          Book{"books/quax-6x6.jsonl", 110, 1, 18},
                                                          Book{"books/hex-7x7.jsonl", 260, 3, 14}),
                         [](const ::testing::TestParamInfo<Book>& info) {
                           std::string name = info.param.file;
                           name = name.substr(name.find('/') + 1);
                           for (char& c : name)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// The hex 7x7 opening map (the book's first entry, an hour of two threads to prove): it is
// symmetric under the half turn, as the game is; and the openings today's solver proves in
// seconds (the centre and e3, which win; e1 and f1, which lose) are on the side the map puts them.
TEST(ShippedBook, Hex7x7MapHoldsItsQuickOpenings) {
  const std::vector<BookEntry> book = read_book(testing::test_data_path("books/hex-7x7.jsonl"));
  ASSERT_FALSE(book.empty());
  const BookEntry& map = book.front();
  ASSERT_EQ(map.record, "");
  ASSERT_EQ(map.value, GameValue::kWin);
  auto listed = [&](const std::string& move) {
    return std::find(map.winning_moves.begin(), map.winning_moves.end(), move) != map.winning_moves.end();
  };
  for (const std::string& move : map.winning_moves) {
    const std::string image = {static_cast<char>('a' + 'g' - move[0]), static_cast<char>('1' + '7' - move[1])};
    EXPECT_TRUE(listed(image)) << move << " wins but its half turn " << image << " is not listed";
  }
  ProofSearch search(map.spec, size_t{256} << 20);
  std::string error;
  const auto start = book_position(map, &error);
  ASSERT_TRUE(start) << error;
  for (const std::string move : {"d4", "e3", "e1", "f1"}) {
    auto s = start->clone();
    const int action = s->parse_action(move, &error);
    ASSERT_GE(action, 0) << error;
    s->apply(action);
    EXPECT_EQ(value_for(search, *s, Player::kBlack) == GameValue::kWin, listed(move)) << move;
  }
}

}  // namespace
}  // namespace quax
