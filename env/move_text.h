// The pieces of move notation that every board shares (docs/RULES.md section 1): a cell is its
// column letter and row number, `c5`; a move is read lower case and without white space.
// Each game class keeps what is its own (links, `c5+`, `swap`, its messages).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace quax {

// `text` lower case (ASCII), for names of players, variants and moves.
std::string lower_case(std::string_view text);

// `text` lower case with every white-space character removed: what the move parsers read, so
// that `C 5` and `c5` are one move.
std::string move_text(std::string_view text);

// The letter of column `column` (0 = `a`). Precondition: 0 <= column < 26.
std::string column_letter(int column);

// The name of grid cell `cell` = row * n + column: column letter (`a` = 0), then the row
// counted from 1, e.g. cell 2 * n + 2 is `c3`. Precondition: 0 <= cell < n * n, n <= 26.
std::string cell_name(int cell, int n);

// Reads one cell name from move_text `t` at *i: a letter a..z, then 1 to 3 digits. On success
// sets *column (0 for `a`) and *row (the number minus one; -1 for a row written as 0) and moves
// *i past it; false when no letter and digit stand at *i (*i may then have moved). The caller
// checks the board's bounds.
bool read_cell(std::string_view t, size_t* i, int* column, int* row);

// "'<text>' is off the 7x7 board": the refusal of a cell outside an n x n board (text quoted as
// core/quoted_input.h quotes hostile input).
std::string off_board(std::string_view text, int n);

// How GameState::parse_action refuses a text: sets *error (when given) to `why`, one line, and
// returns -1.
int not_a_move(std::string* error, const std::string& why);

}  // namespace quax
