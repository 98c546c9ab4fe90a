// Fuzzing books of solved positions (solve/book.h), as `quax perfect-check` reads them:
// mutated books the solver wrote, read from a file, each position replayed and its winning
// moves parsed. A book is read or refused with one short line; a line read is written back
// by book_line and must read back the same. QUAX_FUZZ_SECONDS sets the time (default 20 s).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_harness.h"
#include "solve/book.h"
#include "solve/proof_search.h"

namespace quax {
namespace {

BookOptions symmetric_book() {
  BookOptions o;
  o.symmetry = true;
  return o;
}

namespace fs = std::filesystem;

std::string temp_dir() {
  const auto dir = fs::temp_directory_path() / ("quax_fuzz_book_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir.string();
}

// Real books: every position of tiny boards up to a few plies, solved, as `quax solve --book` writes them.
std::vector<std::string> book_seeds(const std::string& dir) {
  std::vector<std::string> seeds;
  for (const GameSpec& spec : {GameSpec{Variant::kQuax, 3, true}, GameSpec{Variant::kHex, 3, true},
                               GameSpec{Variant::kLink, 3, false}, GameSpec{Variant::kStymie, 3, true}}) {
    ProofSearch search(spec, 16 << 20);
    const auto entries = solve_book(search, positions_up_to_depth(spec, {}, 2).positions, symmetric_book()).entries;
    const std::string path = dir + "/seed.book";
    write_book(path, entries);
    std::ifstream in(path, std::ios::binary);
    seeds.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return seeds;
}

bool same_entry(const BookEntry& a, const BookEntry& b) {
  return a.spec == b.spec && a.record == b.record && a.to_move == b.to_move && a.value == b.value &&
         a.winning_moves == b.winning_moves;
}

// What perfect-check does with a book: read the file, replay each position, read its moves.
void read_book_file(const std::string& bytes, const std::string& path) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  const std::vector<BookEntry> book = read_book(path);
  std::string error;
  for (const BookEntry& e : book) {
    BookEntry again;
    if (!parse_book_line(book_line(e), &again, &error) || !same_entry(again, e))
      throw fuzz::Broken{"a line read does not read back the same from book_line: " + book_line(e).substr(0, 300)};
    auto state = book_position(e, &error);
    if (!state) {
      if (error.empty() || error.find('\n') != std::string::npos || error.size() > 512)
        throw fuzz::Broken{"book_position refuses with the message '" + error.substr(0, 400) + "'"};
      continue;
    }
    for (const std::string& move : e.winning_moves) state->parse_action(move, &error);
  }
}

fuzz::MutatorOptions book_mutations() {
  fuzz::MutatorOptions m;
  m.dictionary = {"{",           "}",         "[",          "]",           "\"size\":",  "\"swap\":",
                  "\"record\":", "\"value\":", "\"to_move\":", "\"winning_moves\":", "null", "true",
                  "false",       "\"\"",       "\"win\"",     "\"unknown\"", "\"white\"", "\\u0000",
                  "\"swap\"",    "\"a1\"",     "\"c3 c3\"",   "\"z99\"",     "1e400",     "-0.0"};
  m.nesting = {{"[", "]"}, {"{\"a\":", "}"}};
  return m;
}

TEST(FuzzBooks, SeedsRead) {
  const std::string dir = temp_dir();
  const auto seeds = book_seeds(dir);
  const fuzz::Report r =
      fuzz::read_each("books", seeds, [&](const std::string& in) { read_book_file(in, dir + "/b.book"); });
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, static_cast<int64_t>(seeds.size())) << "every book the solver writes reads";
  fs::remove_all(dir);
}

TEST(FuzzBooks, MutatedBooksAreReadOrRefusedInOneLine) {
  const std::string dir = temp_dir();
  const fuzz::Budget budget = fuzz::budget_from_env(20);
  fuzz::Mutator mutator(budget.seed, book_seeds(dir), book_mutations());
  const fuzz::Report r =
      fuzz::fuzz("books", mutator, [&](const std::string& in) { read_book_file(in, dir + "/b.book"); }, budget);
  fuzz::expect_read_or_refused(r, "books");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quax
