// ToraxGame's notation, records, diagram and words for people (env/game_state.h): cells `c5`,
// links `a1-i9` across the seams, `adopt`, `end`, `pass`; an auction turn in a record as one
// token (`c3g7`); the torus drawn with the links of its seams above and beside the board.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "core/quoted_input.h"
#include "env/move_text.h"
#include "env/torax_game.h"

namespace quax {

// --- Notation -------------------------------------------------------------------------

int ToraxGame::parse_action(std::string_view text, std::string* error) const {
  std::string t = move_text(text);
  if (t == "adopt") return adopt_action();
  if (t == "end") return end_action();
  if (t == "pass") return pass_action();
  if (t.rfind("block", 0) == 0) t = t.substr(5);
  const std::string expected = quoted_input(text) + " is not a move (expected e.g. c5, a1-i9, adopt, end, pass)";
  size_t i = 0;
  auto off = [&](int c, int r) { return c < 0 || r < 0 || c >= n_ || r >= n_; };
  int c1, r1, c2, r2;
  if (!read_cell(t, &i, &c1, &r1)) return not_a_move(error, expected);
  if (i == t.size()) return off(c1, r1) ? not_a_move(error, off_board(text, n_)) : r1 * n_ + c1;
  if (t[i] == '-') ++i;
  if (!read_cell(t, &i, &c2, &r2) || i != t.size()) return not_a_move(error, expected);
  if (off(c1, r1) || off(c2, r2)) return not_a_move(error, off_board(text, n_));
  // Diagonal neighbours on the torus: one step each way, counting across the seams.
  const bool east2 = wrap(c1 + 1, n_) == c2, west2 = wrap(c1 - 1, n_) == c2;
  const bool north2 = wrap(r1 + 1, n_) == r2, south2 = wrap(r1 - 1, n_) == r2;
  if (!(east2 || west2) || !(north2 || south2)) return not_a_move(error, quoted_input(text) + ": a link joins two diagonally adjacent cells");
  const int west_c = east2 ? c1 : c2, south_r = north2 ? r1 : r2;
  const int d = (east2 == north2) ? 0 : 1;  // the western cell is the southern one for `/`
  return (1 + d) * nn_ + south_r * n_ + west_c;
}

GameState::RecordForm ToraxGame::record_form(int action) const {
  if (!in_auction()) return RecordForm::kToken;
  if (action == end_action()) return RecordForm::kImplied;
  if (action < nn_ && blocks_this_turn_ > 0) return RecordForm::kJoined;
  return RecordForm::kToken;
}

std::vector<int> ToraxGame::parse_record_token(std::string_view token, std::string* error) const {
  const std::string t = move_text(token);
  const bool cells_only = !t.empty() && std::all_of(t.begin(), t.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)); }) &&
                          t.rfind("block", 0) != 0 && t != "adopt" && t != "end" && t != "pass";
  if (!in_auction() || !cells_only) return GameState::parse_record_token(token, error);
  // The blocks of one auction turn: cells joined, the turn's `end` implied.
  std::vector<int> out;
  for (size_t i = 0; i < t.size();) {
    size_t j = i + 1;
    while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
    const int a = parse_action(t.substr(i, j - i), error);
    if (a < 0 || a >= nn_) {
      if (a >= nn_ && error) *error = quoted_input(token) + ": an auction turn is blocks on cells, e.g. c3g7";
      return {};
    }
    out.push_back(a);
    i = j;
  }
  if (static_cast<int>(out.size()) > n_) {
    if (error) *error = quoted_input(token) + ": at most " + std::to_string(n_) + " blocks in one auction turn";
    return {};
  }
  // The N-th block, or the last empty cell, ends the turn by itself.
  if (static_cast<int>(out.size()) < n_ && static_cast<int>(out.size()) < empties_) out.push_back(end_action());
  return out;
}

std::vector<std::string> ToraxGame::stones_of(Player colour) const {
  std::vector<std::string> out;
  for (int x = 0; x < nn_; ++x)
    if (colour != Player::kNone && colour_at(x) == colour) out.push_back(cell_name(x, n_));
  return out;
}

std::vector<std::string> ToraxGame::links_of(Player colour) const {
  std::vector<std::string> out;
  for (int b = 0; b < nn_; ++b)
    if (colour != Player::kNone && links_[b] != 0 && (links_[b] - 1) % 2 == index_of(colour))
      out.push_back(action_to_string((1 + (links_[b] - 1) / 2) * nn_ + b));
  return out;
}

std::string ToraxGame::board_text() const {
  std::ostringstream os;
  auto letters = [&] {
    os << "   ";
    for (int c = 0; c < n_; ++c) os << ' ' << static_cast<char>('a' + c) << (c + 1 < n_ ? "  " : "");
    os << '\n';
  };
  // Links of a row of blocks are drawn between the block's two rows; a link of the top row
  // (crossing the north-south seam) is drawn above the board, one of the last column (the
  // west-east seam) after the last column.
  auto link_row = [&](int r) {
    std::string line(3 + 4 * n_ + 2, ' ');
    bool any = false;
    for (int c = 0; c < n_; ++c) {
      const uint8_t l = links_[r * n_ + c];
      if (l == 0) continue;
      line[3 + 4 * c + 3] = (l - 1) / 2 == 0 ? '/' : '\\';
      any = true;
    }
    if (any) {
      line.erase(line.find_last_not_of(' ') + 1);
      os << line << '\n';
    }
  };
  letters();
  link_row(n_ - 1);
  for (int r = n_ - 1; r >= 0; --r) {
    char label[16];
    std::snprintf(label, sizeof label, "%2d ", r + 1);
    os << label;
    for (int c = 0; c < n_; ++c) {
      const uint8_t v = cells_[r * n_ + c];
      os << ' ' << (v == 1 ? 'X' : v == 2 ? 'O' : '.') << (c + 1 < n_ ? "  " : "");
    }
    os << "  " << r + 1 << '\n';
    if (r > 0) link_row(r - 1);
  }
  letters();
  os << "X = black stones, O = white stones and blocks (the torus wraps both ways); " << status_line();
  return os.str();
}

std::string ToraxGame::status_line() const {
  if (outcome_ != Outcome::kOngoing)
    return player_name(winner_of(outcome_)) + " (the " + (winner_of(outcome_) == connector_ ? "connector" : "blocker") +
           ") wins";
  if (in_auction()) {
    // The bid is every block on the board: the adopter plays White with all of them. During
    // the auction every stone is a block.
    const int blocks = nn_ - empties_;
    return "auction: " + player_name(to_move_) + " to move, " + std::to_string(blocks) + " block" +
           (blocks == 1 ? "" : "s") + " on the board, " + std::to_string(blocks_this_turn_) + " this turn (at most " +
           std::to_string(n_) + ")";
  }
  return player_name(to_move_) + " (" + (to_move_ == connector_ ? "black stones" : "white stones") + ") to move" +
         (must_pass_ ? " (must pass)" : "");
}

std::string ToraxGame::move_help() const {
  if (outcome_ != Outcome::kOngoing) return "No moves: the game is over.";
  if (must_pass_) return "Moves: pass, the only one (no empty cell and no link for you).";
  // Examples from the notation, the same all game long: the line changes only when the moves do.
  if (in_auction()) {
    if (blocks_this_turn_ == 0)
      return "Auction: place blocks (white stones) on empty cells, one a move (e.g. a1), up to " + std::to_string(n_) +
             " this turn, then end; or adopt: you take the white stones with every block (the blocker), and the "
             "other seat plays black and moves first.";
    return "Auction: another block on an empty cell, up to " + std::to_string(n_ - blocks_this_turn_) +
           " more this turn, or end to close your turn.";
  }
  const std::string stone =
      empties_ > 0 ? "a " + player_name(colour_of(to_move_)) + " stone on an empty cell (e.g. a1), or " : "";
  // Block nn-1's `/` joins the last cell to a1 across both seams.
  return "Moves: " + stone + "a link between two of your stones that are diagonal neighbours, in a block without a "
         "link (e.g. " + action_to_string(nn_) + ", or across the edges " + action_to_string(2 * nn_ - 1) + ").";
}

}  // namespace quax
