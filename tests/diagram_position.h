// Test helper: positions drawn as the play-by-email server draws them.
//
//   . . . V . . . .      <- north row first
//   . . . V H H H H
//          \             <- a link row: `/` or `\` between the two cells it sits between
//   H H H H V . . .
//
// Stone rows: `.` empty, `?` empty but marked, V/v/X/x black, H/h/O/o white; row numbers at
// either end are ignored. A link belongs to the colour of the two stones it joins (they must
// match). The board is square: as many rows as cells in a row. Throws std::runtime_error
// naming the line for anything else.
#pragma once

#include <array>
#include <cctype>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/square_game.h"

namespace quax::testing {

struct Diagram {
  int size = 0;
  std::vector<Player> stones;                // cell r*N+c
  std::vector<std::array<int, 3>> links;     // block r*N+c, d (0 `/`, 1 `\`), owner
  std::vector<int> marked;                   // cells drawn `?`
  std::vector<int> upper;                    // cells drawn in upper case (e.g. the last move)

  std::unique_ptr<SquareGame> position(Variant v, Player mover, int ply, bool swap = true) const {
    return SquareGame::from_position(GameSpec{v, size, swap}, stones, links, mover, ply);
  }
  Player at(const std::string& cell) const {
    return stones[(std::stoi(cell.substr(1)) - 1) * size + (cell[0] - 'a')];
  }
};

inline Diagram parse_diagram(const std::string& text) {
  struct Row {
    std::vector<char> cells;
    std::vector<size_t> columns;  // character column of each cell
  };
  struct LinkRow {
    size_t after_row;  // index of the stone row above it
    std::string line;
  };
  std::vector<Row> rows;
  std::vector<LinkRow> link_rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (line.find_first_not_of(" /\\") == std::string::npos) {
      if (rows.empty()) throw std::runtime_error("link row before any stone row: '" + line + "'");
      link_rows.push_back({rows.size() - 1, line});
      continue;
    }
    Row row;
    size_t i = 0;
    while (i < line.size()) {
      if (line[i] == ' ') { ++i; continue; }
      const size_t start = i;
      while (i < line.size() && line[i] != ' ') ++i;
      const std::string token = line.substr(start, i - start);
      if (std::isdigit(static_cast<unsigned char>(token[0]))) continue;  // row label
      if (token.size() != 1 || std::string(".?VvXxHhOo").find(token[0]) == std::string::npos)
        throw std::runtime_error("bad token '" + token + "' in diagram line '" + line + "'");
      row.cells.push_back(token[0]);
      row.columns.push_back(start);
    }
    rows.push_back(row);
  }
  Diagram d;
  d.size = static_cast<int>(rows.size());
  const int n = d.size;
  d.stones.assign(n * n, Player::kNone);
  for (int i = 0; i < n; ++i) {
    if (static_cast<int>(rows[i].cells.size()) != n)
      throw std::runtime_error("diagram row " + std::to_string(i + 1) + " has " +
                               std::to_string(rows[i].cells.size()) + " cells, not " + std::to_string(n));
    const int r = n - 1 - i;  // first line is the north row
    for (int c = 0; c < n; ++c) {
      const char ch = rows[i].cells[c];
      const int cell = r * n + c;
      if (std::string("VvXx").find(ch) != std::string::npos) d.stones[cell] = Player::kBlack;
      if (std::string("HhOo").find(ch) != std::string::npos) d.stones[cell] = Player::kWhite;
      if (ch == '?') d.marked.push_back(cell);
      if (std::isupper(static_cast<unsigned char>(ch))) d.upper.push_back(cell);
    }
  }
  for (const LinkRow& lr : link_rows) {
    if (lr.after_row + 1 >= rows.size()) throw std::runtime_error("link row below the last stone row");
    const Row& above = rows[lr.after_row];
    const int r = n - 2 - static_cast<int>(lr.after_row);  // the block's (southern) row
    for (size_t p = 0; p < lr.line.size(); ++p) {
      if (lr.line[p] == ' ') continue;
      int c = -1;
      for (int k = 0; k + 1 < n; ++k)
        if (above.columns[k] < p && p < above.columns[k + 1]) c = k;
      if (c < 0) throw std::runtime_error("link at column " + std::to_string(p) + " is not between two cells");
      const int dgl = lr.line[p] == '/' ? 0 : 1;
      const int a = dgl == 0 ? r * n + c : r * n + c + 1;
      const int b = dgl == 0 ? (r + 1) * n + c + 1 : (r + 1) * n + c;
      if (d.stones[a] == Player::kNone || d.stones[a] != d.stones[b])
        throw std::runtime_error("link '" + std::string(1, lr.line[p]) + "' does not join two stones of one colour");
      d.links.push_back({r * n + c, dgl, index_of(d.stones[a])});
    }
  }
  return d;
}

}  // namespace quax::testing
