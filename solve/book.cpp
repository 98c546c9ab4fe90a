#include "solve/book.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_set>

#include "core/atomic_file.h"
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
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
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
    *error = "unknown variant '" + j["variant"].get<std::string>() + "'";
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
    *error = "to_move '" + j["to_move"].get<std::string>() + "' is not a player";
    return false;
  }
  e.to_move = *mover;
  if (!parse_value(j["value"].get<std::string>(), &e.value)) {
    *error = "value '" + j["value"].get<std::string>() + "' is not win, loss, draw or unknown";
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

std::vector<BookEntry> read_book(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  std::vector<BookEntry> out;
  std::string line, error;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    BookEntry e;
    if (!parse_book_line(line, &e, &error)) throw std::runtime_error(path + ":" + std::to_string(n) + ": " + error);
    out.push_back(std::move(e));
  }
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
    GameRecord record;
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

std::vector<std::vector<int>> positions_up_to_depth(const GameSpec& spec, const std::vector<int>& start_actions,
                                                   int depth) {
  std::vector<std::vector<int>> out, frontier;
  auto s = new_game(spec);
  for (int a : start_actions) s->apply(a);
  if (s->is_over()) return out;
  frontier.push_back(start_actions);
  std::vector<int> legal;
  for (int ply = 0; ply <= depth && !frontier.empty(); ++ply) {
    std::vector<std::vector<int>> next;
    // Expanding only the first line of each position keeps the frontier free of transpositions.
    std::unordered_set<uint64_t> expanded;
    for (std::vector<int>& line : frontier) {
      out.push_back(line);
      if (ply == depth) continue;
      s = new_game(spec);
      for (int a : line) s->apply(a);
      if (!expanded.insert(s->position_key()).second) continue;
      s->legal_actions(&legal);
      auto child = s->clone();
      for (int a : legal) {
        child->copy_from(*s);
        child->apply(a);
        if (child->is_over()) continue;
        std::vector<int> longer = line;
        longer.push_back(a);
        next.push_back(std::move(longer));
      }
    }
    frontier = std::move(next);
  }
  return out;
}

std::vector<std::vector<int>> positions_along(const GameSpec& spec, const std::vector<std::vector<int>>& records,
                                             int min_ply, int max_ply) {
  std::vector<std::vector<int>> out;
  for (const auto& record : records) {
    auto s = new_game(spec);
    for (int ply = 0; ply <= max_ply && ply <= static_cast<int>(record.size()); ++ply) {
      if (ply > 0) s->apply(record[ply - 1]);
      if (s->is_over()) break;
      if (ply >= min_ply) out.emplace_back(record.begin(), record.begin() + ply);
    }
  }
  return out;
}

std::vector<BookEntry> solve_book(ProofSearch& search, const std::vector<std::vector<int>>& positions, bool symmetry,
                                  const std::function<void(const BookEntry&, size_t done)>& progress) {
  const GameSpec spec = search.spec();
  std::unordered_set<uint64_t> seen;
  std::vector<BookEntry> out;
  for (const std::vector<int>& line : positions) {
    auto s = new_game(spec);
    for (int a : line) s->apply(a);
    if (s->is_over()) continue;
    if (!seen.insert(symmetry ? symmetric_key(*s) : s->position_key()).second) continue;
    BookEntry e;
    e.spec = spec;
    e.record = record_text(spec, line);
    e.to_move = s->to_move();
    const Solution sol = solve_moves(search, *s, symmetry);
    e.value = sol.value;
    for (int a : sol.winning_moves) e.winning_moves.push_back(s->action_to_string(a));
    out.push_back(std::move(e));
    if (progress) progress(out.back(), out.size());
  }
  return out;
}

}  // namespace quax
