// Books: listing their positions within limits, reading them back with every entry checked
// against its position, and solving them in pieces (stopped, then resumed).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "solve/book.h"
#include "solve/proof_search.h"

namespace quax {
namespace {

const GameSpec k3x3{Variant::kQuax, 3, false};

uint64_t key_after(const GameSpec& spec, const std::vector<int>& line) {
  auto s = new_game(spec);
  for (int a : line) s->apply(a);
  return s->position_key();
}

TEST(BookListing, EveryPositionOnceBreadthFirst) {
  // 3x3 without swap to depth 2: 1 + 9 + 9*8 positions, none repeated yet, none over.
  PositionList list = positions_up_to_depth(k3x3, {}, 2);
  EXPECT_EQ(list.stop, PositionList::Stop::kComplete);
  EXPECT_EQ(list.positions.size(), 82u);
  EXPECT_EQ(list.plies, 2);
  // Depth 3: a position reached by two orders of the same moves is listed once, by its first line.
  list = positions_up_to_depth(k3x3, {}, 3);
  std::set<uint64_t> keys;
  size_t last_length = 0;
  for (const auto& line : list.positions) {
    EXPECT_TRUE(keys.insert(key_after(k3x3, line)).second);
    EXPECT_GE(line.size(), last_length);  // breadth first
    last_length = line.size();
  }
  EXPECT_LT(list.positions.size(), 1u + 9 + 72 + 72 * 7);
}

TEST(BookListing, StopsAtItsMemoryLimit) {
  ListingLimits limits;
  limits.max_bytes = 64 * 1024;
  const GameSpec spec{Variant::kQuax, 11, true};
  const PositionList list = positions_up_to_depth(spec, {}, 40, limits);
  EXPECT_EQ(list.stop, PositionList::Stop::kMemory);
  EXPECT_GT(list.positions.size(), 0u);
  EXPECT_LT(list.positions.size() * (sizeof(std::vector<int>) + 16), limits.max_bytes);
  EXPECT_GE(list.plies, 0);
  EXPECT_LT(list.plies, 3);
}

TEST(BookListing, StopsAtItsDeadline) {
  ListingLimits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  const GameSpec spec{Variant::kQuax, 11, true};
  const auto start = std::chrono::steady_clock::now();
  const PositionList list = positions_up_to_depth(spec, {}, 40, limits);
  EXPECT_EQ(list.stop, PositionList::Stop::kDeadline);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(BookListing, AlongRecordsHonoursTheLimits) {
  const std::vector<std::vector<int>> records(1000, std::vector<int>{0, 1, 3, 4, 6});
  EXPECT_EQ(positions_along(k3x3, records, 0, 100).positions.size(), 5000u);  // the 5th move wins
  ListingLimits limits;
  limits.max_bytes = 4096;
  const PositionList list = positions_along(k3x3, records, 0, 100, limits);
  EXPECT_EQ(list.stop, PositionList::Stop::kMemory);
  EXPECT_LT(list.positions.size(), 100u);
}

class BookFile : public ::testing::Test {
 protected:
  // One file per test: ctest runs the tests of this fixture as separate processes at once.
  std::string path_ = ::testing::TempDir() + "/solve_book_test_" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl";
  void TearDown() override { std::remove(path_.c_str()); }
  void write(const std::vector<std::string>& lines) {
    std::ofstream out(path_);
    for (const auto& line : lines) out << line << "\n";
  }
  std::string error() {
    try {
      read_book(path_);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  }
  static std::string entry(const std::string& record, const std::string& to_move, const std::string& moves) {
    return R"({"variant":"quax","size":5,"swap":true,"record":")" + record + R"(","to_move":")" + to_move +
           R"(","value":"win","winning_moves":[)" + moves + "]}";
  }
};

TEST_F(BookFile, WinningMovesAreLegalMovesInCanonicalNotation) {
  write({entry("c3 b2", "black", R"("D4","b3")")});
  const auto book = read_book(path_);
  ASSERT_EQ(book.size(), 1u);
  EXPECT_EQ(book[0].winning_moves, (std::vector<std::string>{"d4", "b3"}));
}

TEST_F(BookFile, AMoveOffTheBoardOrIllegalIsRefusedWithItsLine) {
  write({entry("c3 b2", "black", R"("d4")"), "", entry("c3 b2", "black", R"("d4","z9")")});
  EXPECT_EQ(error(), path_ + ":3: winning move 'z9' is off the 5x5 board");
  write({entry("c3 b2", "black", R"("b2")")});
  EXPECT_EQ(error(), path_ + ":1: winning move 'b2' is illegal: b2 is occupied");
  write({entry("c3 b2", "black", R"("e2-f3")")});
  EXPECT_EQ(error().rfind(path_ + ":1: winning move 'e2-f3' ", 0), 0u) << error();
}

TEST_F(BookFile, ARecordThatDoesNotReplayOrAWrongMoverIsRefused) {
  write({entry("c3 c3", "white", "")});
  EXPECT_EQ(error(), path_ + ":1: record 'c3 c3': ply 2 (move 'c3'): c3 is occupied");
  write({entry("c3", "black", "")});
  EXPECT_EQ(error(), path_ + ":1: to_move is black but white is to move after the record");
}

// A value that its moves contradict is refused with its line (solve --resume once kept such
// lines, and perfect-check counted duplicated winning moves into a share over 100%).
TEST_F(BookFile, AValueThatItsMovesContradictIsRefused) {
  auto line = [](const std::string& value, const std::string& moves) {
    return R"({"variant":"quax","size":5,"swap":true,"record":"c3 b2","to_move":"black","value":")" + value +
           R"(","winning_moves":[)" + moves + "]}";
  };
  write({line("win", R"("d4")"), line("loss", R"("d4")")});
  EXPECT_EQ(error(), path_ + ":2: value loss lists winning moves");
  write({line("win", "")});
  EXPECT_EQ(error(), path_ + ":1: value win lists no winning move");
  write({line("win", R"("d4","b3","D4")")});
  EXPECT_EQ(error(), path_ + ":1: winning move 'd4' is listed twice");
  write({line("draw", "")});
  EXPECT_EQ(error(), path_ + ":1: value draw, but quax cannot end in a draw");
  write({line("loss", ""), line("unknown", "")});
  EXPECT_EQ(error(), "");
}

// Lines must agree where one position follows another by one move: a flipped value once passed
// whenever its own moves were consistent with it.
TEST_F(BookFile, LinesThatDisagreeAcrossAMoveAreRefused) {
  auto line = [](const std::string& record, const std::string& to_move, const std::string& value,
                 const std::string& moves) {
    return R"({"variant":"quax","size":5,"swap":true,"record":")" + record + R"(","to_move":")" + to_move +
           R"(","value":")" + value + R"(","winning_moves":[)" + moves + "]}";
  };
  // White to move after c3 loses, so every white move leaves black a won position.
  write({line("c3", "white", "loss", ""), line("c3 b2", "black", "win", R"("d4")")});
  EXPECT_EQ(error(), "");
  write({line("c3", "white", "loss", ""), line("c3 b2", "black", "loss", "")});
  EXPECT_EQ(error(), path_ + ":1: value loss, but line 2 after its move 'b2' is a loss for black: the two lines disagree");
  // A move listed as winning must leave the opponent lost.
  write({line("c3 b2", "black", "loss", ""), line("c3", "white", "win", R"("b2")")});
  EXPECT_EQ(error(), "");
  write({line("c3", "white", "win", R"("b2")"), "", line("c3 b2", "black", "win", R"("d4")")});
  EXPECT_EQ(error(), path_ + ":1: winning move 'b2' leads to line 3, a win for black: the two lines disagree");
  // A won position may lack moves its solve's deadline left unknown.
  write({line("c3", "white", "win", R"("d4")"), line("c3 b2", "black", "loss", "")});
  EXPECT_EQ(error(), "");
  // One position, two values.
  write({line("c3", "white", "win", R"("d4")"), line("c3", "white", "loss", "")});
  EXPECT_EQ(error(), path_ + ":2: value loss, but line 1 has the same position as a win");
}

TEST_F(BookFile, ADirectoryIsNamedAsOne) {
  EXPECT_THROW(read_book(::testing::TempDir()), std::runtime_error);
  try {
    read_book(::testing::TempDir());
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory, not a regular solved-positions file"), std::string::npos)
        << e.what();
  }
}

// Solving books in pieces: quax 4x4 without swap to depth 2 (257 positions once repeats are
// dropped), each piece with a fresh search (its own table), as a resumed command has.
const GameSpec k4x4{Variant::kQuax, 4, false};

std::vector<std::vector<int>> listed_4x4() { return positions_up_to_depth(k4x4, {}, 2).positions; }

BookRun solve_4x4(BookOptions options, const std::atomic<bool>* search_stop = nullptr,
                  std::function<void(const ProofStats&)> search_progress = {}) {
  ProofSearch search(k4x4, size_t{16} << 20);
  search.set_stop_flag(search_stop);
  if (search_progress) search.set_progress(search_progress, 0.0);
  return solve_book(search, listed_4x4(), options);
}

// The book solved whole in one call, once for all the tests.
const BookRun& whole_4x4() {
  static const BookRun whole = solve_4x4({});
  return whole;
}

// The same book: the same positions, in the same order, with the same values and moves.
void expect_same_book(const std::vector<BookEntry>& a, const std::vector<BookEntry>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(book_line(a[i]), book_line(b[i])) << i;
}

TEST(BookSolving, AResumedBookSolvesOnlyWhatItLacksAndEndsAsAWholeRun) {
  const BookRun& whole = whole_4x4();
  ASSERT_EQ(whole.entries.size(), 257u);
  EXPECT_EQ(whole.solved, 257u);
  EXPECT_EQ(whole.listed_done, listed_4x4().size());
  EXPECT_FALSE(whole.stopped);
  for (size_t kept : {size_t{1}, size_t{100}, size_t{257}}) {
    BookOptions o;
    o.known.assign(whole.entries.begin(), whole.entries.begin() + static_cast<std::ptrdiff_t>(kept));
    const BookRun resumed = solve_4x4(o);
    EXPECT_EQ(resumed.solved, 257u - kept) << kept;
    expect_same_book(resumed.entries, whole.entries);
  }
  // A known entry left 'unknown' (a deadline's) is solved again, in its listed place.
  BookOptions o;
  o.known.assign(whole.entries.begin(), whole.entries.begin() + 10);
  o.known[9].value = GameValue::kUnknown;
  o.known[9].winning_moves.clear();
  const BookRun resumed = solve_4x4(o);
  EXPECT_EQ(resumed.solved, 257u - 9);
  expect_same_book(resumed.entries, whole.entries);
}

TEST(BookSolving, AStopBetweenPositionsKeepsEverySolvedOne) {
  const BookRun& whole = whole_4x4();
  std::atomic<bool> stop{false};
  BookOptions o;
  o.stop = &stop;
  o.progress = [&](const BookRun& run) {
    if (run.solved == 40) stop = true;
  };
  const BookRun first = solve_4x4(o, &stop);
  EXPECT_TRUE(first.stopped);
  ASSERT_EQ(first.entries.size(), 40u);
  expect_same_book(first.entries, {whole.entries.begin(), whole.entries.begin() + 40});

  BookOptions rest;
  rest.known = first.entries;
  const BookRun second = solve_4x4(rest);
  EXPECT_FALSE(second.stopped);
  EXPECT_EQ(second.solved, 257u - 40);
  expect_same_book(second.entries, whole.entries);
}

TEST(BookSolving, AStopInsideAProofLeavesThatPositionOut) {
  // The stop comes from inside a search (as Ctrl-C does, any time): the position being solved
  // then has no complete solution and must not enter the book, not even as 'unknown' or with
  // the winning moves found so far. Stops after 1 to 144 progress calls (each 256 nodes) fall
  // in the proofs of values and of moves, winning and losing.
  const BookRun& whole = whole_4x4();
  for (int stop_at : {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144}) {
    std::atomic<bool> stop{false};
    int calls = 0;
    BookOptions o;
    o.stop = &stop;
    const BookRun first = solve_4x4(o, &stop, [&](const ProofStats&) {
      if (++calls == stop_at) stop = true;
    });
    ASSERT_TRUE(first.stopped) << stop_at;
    ASSERT_LT(first.entries.size(), whole.entries.size());
    expect_same_book(first.entries, {whole.entries.begin(),
                                     whole.entries.begin() + static_cast<std::ptrdiff_t>(first.entries.size())});
    if (stop_at != 34) continue;
    BookOptions rest;
    rest.known = first.entries;
    expect_same_book(solve_4x4(rest).entries, whole.entries);
  }
}

TEST(BookSolving, KnownEntriesOfAnotherGameAreRefused) {
  ProofSearch search(k3x3, size_t{16} << 20);
  BookOptions o;
  o.known = whole_4x4().entries;
  o.known.resize(1);
  EXPECT_THROW(solve_book(search, {{}}, o), std::runtime_error);
  // One of the same game whose record does not replay there (a move off a 3x3 board).
  o.known[0].spec = k3x3;
  o.known[0].record = "d4";
  EXPECT_THROW(solve_book(search, {{}}, o), std::runtime_error);
}

}  // namespace
}  // namespace quax
