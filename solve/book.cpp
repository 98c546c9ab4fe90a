#include "solve/book.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "core/bounded_json.h"
#include "core/atomic_file.h"
#include "core/bounded_file.h"
#include "core/quoted_input.h"
#include "env/notation.h"
#include "solve/symmetric_key.h"

namespace quax {

std::string book_line(const BookEntry& e) {
  nlohmann::json j;
  j["variant"] = variant_info(e.spec.variant).name;
  j["size"] = e.spec.size;
  j["swap"] = e.spec.swap;
  j["record"] = e.record;
  j["to_move"] = player_name(e.to_move);
  j["value"] = value_name(e.value);
  j["winning_moves"] = e.winning_moves;
  return j.dump();
}

bool parse_book_line(const std::string& line, BookEntry* out, std::string* error) {
  std::string parse_error;
  const nlohmann::json j = parse_json_or_discarded(line, "not JSON", &parse_error);
  if (j.is_discarded()) {
    *error = parse_error;
    return false;
  }
  if (!j.is_object()) {
    *error = "not a JSON object";
    return false;
  }
  auto need = [&](const char* field, bool ok) {
    if (!ok) *error = std::string("field '") + field + "' is missing or of the wrong type";
    return ok;
  };
  if (!need("variant", j.contains("variant") && j["variant"].is_string()) ||
      !need("size", j.contains("size") && j["size"].is_number_integer()) ||
      !need("swap", j.contains("swap") && j["swap"].is_boolean()) ||
      !need("record", j.contains("record") && j["record"].is_string()) ||
      !need("to_move", j.contains("to_move") && j["to_move"].is_string()) ||
      !need("value", j.contains("value") && j["value"].is_string()) ||
      !need("winning_moves", j.contains("winning_moves") && j["winning_moves"].is_array()))
    return false;
  BookEntry e;
  const auto variant = parse_variant(j["variant"].get<std::string>());
  if (!variant) {
    *error = "unknown variant " + quoted_input(j["variant"].get<std::string>());
    return false;
  }
  // Checked before the cast: a size of 2^40 would wrap to 0 and be reported as "size 0".
  if (!j["size"].is_number_unsigned() || j["size"].get<uint64_t>() > 1000) {
    *error = "size " + j["size"].dump() + " is not a board size";
    return false;
  }
  e.spec = GameSpec{*variant, j["size"].get<int>(), j["swap"].get<bool>()};
  if (const std::string bad = check_spec(e.spec); !bad.empty()) {
    *error = bad;
    return false;
  }
  e.record = j["record"].get<std::string>();
  const auto mover = parse_player(j["to_move"].get<std::string>());
  if (!mover) {
    *error = "to_move " + quoted_input(j["to_move"].get<std::string>()) + " is not a player";
    return false;
  }
  e.to_move = *mover;
  if (!parse_value(j["value"].get<std::string>(), &e.value)) {
    *error = "value " + quoted_input(j["value"].get<std::string>()) + " is not win, loss, draw or unknown";
    return false;
  }
  for (const auto& m : j["winning_moves"]) {
    if (!m.is_string()) {
      *error = "winning_moves holds a non-string";
      return false;
    }
    e.winning_moves.push_back(m.get<std::string>());
  }
  *out = std::move(e);
  return true;
}

namespace {

// Empty when the entry's record replays to a position that is not over, with `to_move` to
// Where an entry stands among the others: its position, and the position before its last move
// with that move (canonical notation), for the checks across lines.
struct EntryPlace {
  uint64_t key = 0;
  bool has_parent = false;
  uint64_t parent_key = 0;
  std::string last_move;
};

// A key of `state` in `spec`'s game: books may mix games (concatenated files).
uint64_t book_key(const GameSpec& spec, const GameState& state) {
  const uint64_t game = (static_cast<uint64_t>(spec.variant) << 40) ^ (static_cast<uint64_t>(spec.size) << 8) ^ spec.swap;
  return state.position_key() ^ (game * 0x9e3779b97f4a7c15ULL);
}

// Checks that the entry's record replays to a position that is not over, with its to_move to
// move, where every winning move is a legal move (rewritten in canonical notation, the form
// readers compare with action_to_string); else one line saying what is wrong. Sets *place.
std::string check_entry_position(BookEntry* e, EntryPlace* place) {
  std::string error;
  const auto state = book_position(*e, &error);
  if (!state) return "record " + quoted_input(e->record) + ": " + error;
  place->key = book_key(e->spec, *state);
  if (ParsedRecord record; parse_record(e->record, &record, &error) && !record.moves.empty()) {  // its parent
    ParsedRecord before = record;
    before.moves.pop_back();
    std::vector<int> actions;
    if (auto parent = replay_record(e->spec, before, &error, &actions)) {
      const int last = parent->parse_action(record.moves.back(), &error);
      if (last >= 0) {
        place->has_parent = true;
        place->parent_key = book_key(e->spec, *parent);
        place->last_move = parent->action_to_string(last);
      }
    }
  }
  if (state->to_move() != e->to_move)
    return "to_move is " + player_name(e->to_move) + " but " + player_name(state->to_move()) +
           " is to move after the record";
  for (std::string& move : e->winning_moves) {
    const int action = state->parse_action(move, &error);
    if (action < 0) return "winning move " + error;
    if (const std::string why = state->why_illegal(action); !why.empty())
      return "winning move " + quoted_input(move) + " is illegal: " + why;
    move = state->action_to_string(action);
  }
  // The value and its moves must agree: a "loss" or "draw" listing winning moves, a "win"
  // listing none, a move listed twice (perfect-check once counted "29854.1%" of random moves
  // winning) or a draw in a game that cannot end drawn is a damaged or forged line.
  for (size_t i = 0; i < e->winning_moves.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (e->winning_moves[i] == e->winning_moves[k])
        return "winning move " + quoted_input(e->winning_moves[i]) + " is listed twice";
  if (e->value == GameValue::kWin && e->winning_moves.empty()) return "value win lists no winning move";
  if (e->value != GameValue::kWin && !e->winning_moves.empty())
    return "value " + value_name(e->value) + " lists winning moves";
  if (e->value == GameValue::kDraw && !variant_info(e->spec.variant).can_draw)
    return std::string("value draw, but ") + variant_info(e->spec.variant).name + " cannot end in a draw";
  return "";
}

}  // namespace

namespace {

GameValue for_other_player(GameValue v) {
  return v == GameValue::kWin ? GameValue::kLoss : v == GameValue::kLoss ? GameValue::kWin : v;
}

// The lines must agree with each other where one's position follows another's by one move:
// a move listed as winning leads to a position won for the player who made it (lost for the
// player then to move, when the turn passes), and no move of a lost or drawn position does. A
// flipped value shows there unless its line is the book's last ply, which only solving again
// would check. The same position listed twice must have one value. Throws "<path>:<line>: ...".
void check_lines_agree(const std::string& path, const std::vector<BookEntry>& entries,
                       const std::vector<EntryPlace>& places, const std::vector<int>& line_numbers) {
  std::unordered_map<uint64_t, size_t> by_key;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto [it, fresh] = by_key.emplace(places[i].key, i);
    if (!fresh && entries[it->second].value != GameValue::kUnknown && entries[i].value != GameValue::kUnknown &&
        entries[it->second].value != entries[i].value)
      throw std::runtime_error(path + ":" + std::to_string(line_numbers[i]) + ": value " +
                               value_name(entries[i].value) + ", but line " + std::to_string(line_numbers[it->second]) +
                               " has the same position as a " + value_name(entries[it->second].value));
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!places[i].has_parent || entries[i].value == GameValue::kUnknown) continue;
    const auto it = by_key.find(places[i].parent_key);
    if (it == by_key.end() || entries[it->second].value == GameValue::kUnknown) continue;
    const BookEntry& parent = entries[it->second];
    const BookEntry& child = entries[i];
    const GameValue for_parent_mover =
        child.to_move == parent.to_move ? child.value : for_other_player(child.value);
    const std::string& move = places[i].last_move;
    const bool listed =
        std::find(parent.winning_moves.begin(), parent.winning_moves.end(), move) != parent.winning_moves.end();
    if (listed && for_parent_mover != GameValue::kWin)
      throw std::runtime_error(path + ":" + std::to_string(line_numbers[it->second]) + ": winning move " +
                               quoted_input(move) + " leads to line " + std::to_string(line_numbers[i]) + ", a " +
                               value_name(child.value) + " for " + player_name(child.to_move) +
                               ": the two lines disagree");
    // A won position's list may lack moves a solve's deadline left unknown; a lost or drawn
    // one has no winning move at all.
    if (parent.value != GameValue::kWin && for_parent_mover == GameValue::kWin)
      throw std::runtime_error(path + ":" + std::to_string(line_numbers[it->second]) + ": value " +
                               value_name(parent.value) + ", but line " + std::to_string(line_numbers[i]) +
                               " after its move " + quoted_input(move) + " is a " + value_name(child.value) + " for " +
                               player_name(child.to_move) + ": the two lines disagree");
  }
}

}  // namespace

std::vector<BookEntry> read_book(const std::string& path) {
  std::istringstream in(read_regular_file(path, kBookFileLimit, "solved-positions file"));
  std::vector<BookEntry> out;
  std::vector<EntryPlace> places;
  std::vector<int> line_numbers;
  std::string line, error;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    BookEntry e;
    EntryPlace place;
    if (!parse_book_line(line, &e, &error)) throw std::runtime_error(path + ":" + std::to_string(n) + ": " + error);
    if (error = check_entry_position(&e, &place); !error.empty())
      throw std::runtime_error(path + ":" + std::to_string(n) + ": " + error);
    out.push_back(std::move(e));
    places.push_back(std::move(place));
    line_numbers.push_back(n);
  }
  check_lines_agree(path, out, places, line_numbers);
  return out;
}

void write_book(const std::string& path, const std::vector<BookEntry>& entries) {
  std::string text;
  for (const BookEntry& e : entries) text += book_line(e) + '\n';
  write_file_atomically(path, text);
}

std::unique_ptr<GameState> book_position(const BookEntry& entry, std::string* error) {
  std::unique_ptr<GameState> s;
  if (entry.record.find_first_not_of(" \t,") == std::string::npos) {
    s = new_game(entry.spec);
  } else {
    ParsedRecord record;
    if (!parse_record(entry.record, &record, error)) return nullptr;
    s = replay_record(entry.spec, record, error);
    if (!s) return nullptr;
  }
  if (s->is_over()) {
    *error = "the game is over in this position";
    return nullptr;
  }
  return s;
}

namespace {

// What a listing holds, counted as it grows, and whether a limit has come.
class ListingBudget {
 public:
  explicit ListingBudget(const ListingLimits& limits) : limits_(limits) {}

  // Counts one more line of `length` moves (and, with `keyed`, its entry in a set of
  // position keys); false once the list is over its bytes or the clock over its deadline.
  bool add(size_t length, bool keyed) {
    // The line's own block with the allocator's header, and its slot in a doubling vector.
    bytes_ += sizeof(std::vector<int>) * 2 + 16 + length * sizeof(int) + (keyed ? kKeyBytes : 0);
    if (bytes_ > limits_.max_bytes) {
      stop_ = PositionList::Stop::kMemory;
      return false;
    }
    // Reading the clock for every line would cost more than making the line.
    if (++since_clock_ >= 1024) {
      since_clock_ = 0;
      if (std::chrono::steady_clock::now() >= limits_.deadline) {
        stop_ = PositionList::Stop::kDeadline;
        return false;
      }
    }
    return true;
  }
  // Uncounts a line given up (the frontier of a ply once it is listed).
  void drop(size_t length) { bytes_ -= sizeof(std::vector<int>) * 2 + 16 + length * sizeof(int); }
  PositionList::Stop stop() const { return stop_; }

 private:
  static constexpr size_t kKeyBytes = 48;  // an unordered_set<uint64_t> node and its bucket
  const ListingLimits& limits_;
  size_t bytes_ = 0;
  int since_clock_ = 0;
  PositionList::Stop stop_ = PositionList::Stop::kComplete;
};

}  // namespace

PositionList positions_up_to_depth(const GameSpec& spec, const std::vector<int>& start_actions, int depth,
                                   const ListingLimits& limits) {
  PositionList result;
  ListingBudget budget(limits);
  auto s = new_game(spec);
  for (int a : start_actions) s->apply(a);
  if (s->is_over()) return result;
  // Keys of the positions listed or waiting in the frontier: a position reached again by
  // another line (a transposition) is neither listed nor expanded twice.
  std::unordered_set<uint64_t> listed{s->position_key()};
  std::vector<std::vector<int>> frontier{start_actions};
  if (!budget.add(start_actions.size(), true)) {
    result.stop = budget.stop();
    return result;
  }
  std::vector<int> legal;
  auto child = s->clone();
  for (int ply = 0; ply <= depth && !frontier.empty(); ++ply) {
    std::vector<std::vector<int>> next;
    for (std::vector<int>& line : frontier) {
      if (ply < depth) {
        s = new_game(spec);
        for (int a : line) s->apply(a);
        s->legal_actions(&legal);
        for (int a : legal) {
          child->copy_from(*s);
          child->apply(a);
          if (child->is_over() || !listed.insert(child->position_key()).second) continue;
          if (!budget.add(line.size() + 1, true)) {
            result.stop = budget.stop();
            return result;
          }
          std::vector<int> longer;
          longer.reserve(line.size() + 1);
          longer = line;
          longer.push_back(a);
          next.push_back(std::move(longer));
        }
      }
      budget.drop(line.size());
      result.positions.push_back(std::move(line));
      if (!budget.add(result.positions.back().size(), false)) {
        result.stop = budget.stop();
        return result;
      }
    }
    result.plies = ply;
    frontier = std::move(next);
  }
  return result;
}

PositionList positions_along(const GameSpec& spec, const std::vector<std::vector<int>>& records, int min_ply,
                             int max_ply, const ListingLimits& limits) {
  PositionList result;
  ListingBudget budget(limits);
  for (const auto& record : records) {
    auto s = new_game(spec);
    for (int ply = 0; ply <= max_ply && ply <= static_cast<int>(record.size()); ++ply) {
      if (ply > 0) s->apply(record[ply - 1]);
      if (s->is_over()) break;
      if (ply < min_ply) continue;
      if (!budget.add(static_cast<size_t>(ply), false)) {
        result.stop = budget.stop();
        return result;
      }
      result.positions.emplace_back(record.begin(), record.begin() + ply);
    }
  }
  return result;
}

BookRun solve_book(ProofSearch& search, const std::vector<std::vector<int>>& positions, const BookOptions& options) {
  return solve_book(std::vector<ProofSearch*>{&search}, positions, options);
}

BookRun solve_book(const std::vector<ProofSearch*>& searches, const std::vector<std::vector<int>>& positions,
                   const BookOptions& options) {
  const GameSpec spec = searches[0]->spec();
  auto key_of = [&](const GameState& s) { return options.symmetry ? symmetric_key(s) : s.position_key(); };
  std::unordered_set<uint64_t> seen;
  BookRun run;
  for (const BookEntry& e : options.known) {
    if (!(e.spec == spec))
      throw std::runtime_error("a known entry is of " + describe(e.spec) + ", not of " + describe(spec));
    std::string error;
    const auto s = book_position(e, &error);
    if (!s) throw std::runtime_error("known entry '" + e.record + "': " + error);
    if (e.value == GameValue::kUnknown || !seen.insert(key_of(*s)).second) continue;
    run.entries.push_back(e);
  }
  auto stop_asked = [&] { return options.stop && options.stop->load(std::memory_order_relaxed); };
  for (const std::vector<int>& line : positions) {
    if (stop_asked()) {
      run.stopped = true;
      break;
    }
    auto s = new_game(spec);
    for (int a : line) s->apply(a);
    if (s->is_over() || !seen.insert(key_of(*s)).second) {
      ++run.listed_done;
      continue;
    }
    const Solution sol = solve_moves(searches, *s, options.symmetry);
    // A solve the stop cut short is left out: the resumed book solves it whole.
    if (stop_asked() && (sol.value == GameValue::kUnknown || !sol.unknown_moves.empty())) {
      run.stopped = true;
      break;
    }
    BookEntry e;
    e.spec = spec;
    e.record = record_text(spec, line);
    e.to_move = s->to_move();
    e.value = sol.value;
    for (int a : sol.winning_moves) e.winning_moves.push_back(s->action_to_string(a));
    run.entries.push_back(std::move(e));
    ++run.listed_done;
    ++run.solved;
    if (options.progress) options.progress(run);
  }
  return run;
}

}  // namespace quax
