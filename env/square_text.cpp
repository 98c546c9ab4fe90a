// SquareGame's notation, diagram and words for people (env/game_state.h): `c5`, `e2-f3`
// (southern cell first), `swap`, `pass`; the board as the play-by-email server draws it, V and
// H for the stones and `/`, `\` for the links between the rows.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/quoted_input.h"
#include "env/move_text.h"
#include "env/square_game.h"

namespace quax {

// --- Notation -------------------------------------------------------------------------

std::string SquareGame::action_to_string(int action) const {
  if (action < 0 || action >= num_actions()) return "?";
  if (action < nn_) return cell_name(action, n_);
  if (action < 3 * nn_) {
    const int d = action < 2 * nn_ ? 0 : 1;
    const int block = action - (1 + d) * nn_;
    // Southern cell first.
    if (d == 0) return cell_name(block, n_) + "-" + cell_name(block + n_ + 1, n_);
    return cell_name(block + 1, n_) + "-" + cell_name(block + n_, n_);
  }
  return action == swap_action() ? "swap" : "pass";
}

int SquareGame::parse_action(std::string_view text, std::string* error) const {
  std::string t = move_text(text);
  if (t.empty()) return not_a_move(error, "empty move");
  if (t == "swap") return swap_action();
  if (t == "pass") return pass_action();
  // One or two cells: letter, digits, optional '-', letter, digits.
  size_t i = 0;
  // The kinds of move this game has, so that the message offers no link or pass it lacks.
  const std::string expected = quoted_input(text) + " is not a move (expected e.g. c5" +
                               (link_moves_ ? ", e2-f3" : "") + (spec_.swap ? ", swap" : "") +
                               (diagonals_connect_ ? ", pass" : "") + ")";
  int c1, r1, c2, r2;
  if (!read_cell(t, &i, &c1, &r1)) return not_a_move(error, expected);
  auto off = [&](int c, int r) { return c < 0 || r < 0 || c >= n_ || r >= n_; };
  if (i == t.size()) {
    if (off(c1, r1)) return not_a_move(error, off_board(text, n_));
    return r1 * n_ + c1;
  }
  if (t[i] == '-') ++i;
  if (!read_cell(t, &i, &c2, &r2) || i != t.size()) return not_a_move(error, expected);
  if (off(c1, r1) || off(c2, r2)) return not_a_move(error, off_board(text, n_));
  if (std::abs(c1 - c2) != 1 || std::abs(r1 - r2) != 1)
    return not_a_move(error, quoted_input(text) + ": a link joins two diagonally adjacent cells");
  const int bc = std::min(c1, c2), br = std::min(r1, r2);
  const int d = ((c2 - c1) == (r2 - r1)) ? 0 : 1;
  return link_action(bc, br, d);
}

std::vector<std::string> SquareGame::stones_of(Player p) const {
  std::vector<std::string> out;
  for (int cell = 0; cell < nn_; ++cell)
    if (stone_at(cell) == p) out.push_back(cell_name(cell, n_));
  return out;
}

std::vector<std::string> SquareGame::links_of(Player p) const {
  std::vector<std::string> out;
  for (int block = 0; block < nn_; ++block) {
    int d = 0;  // link_on() leaves d alone on a free block: links_of(kNone) must list nothing
    if (p != Player::kNone && link_on(block % n_, block / n_, &d) == p)
      out.push_back(action_to_string((1 + d) * nn_ + block));
  }
  return out;
}

std::string SquareGame::board_text() const {
  std::ostringstream os;
  auto letters = [&] {
    os << "   ";
    for (int c = 0; c < n_; ++c) os << ' ' << static_cast<char>('a' + c) << (c + 1 < n_ ? "  " : "");
    os << '\n';
  };
  letters();
  for (int r = n_ - 1; r >= 0; --r) {
    char label[16];
    std::snprintf(label, sizeof label, "%2d ", r + 1);
    os << label;
    for (int c = 0; c < n_; ++c) {
      const Player p = stone_at(r * n_ + c);
      os << ' ' << (p == Player::kBlack ? 'V' : p == Player::kWhite ? 'H' : '.') << (c + 1 < n_ ? "  " : "");
    }
    os << "  " << r + 1 << '\n';
    if (r > 0) {
      std::string line(3 + 4 * n_, ' ');
      bool any = false;
      for (int c = 0; c + 1 < n_; ++c) {
        int d;
        if (link_on(c, r - 1, &d) != Player::kNone) {
          line[3 + 4 * c + 3] = d == 0 ? '/' : '\\';
          any = true;
        }
      }
      if (any) {
        line.erase(line.find_last_not_of(' ') + 1);
        os << line << '\n';
      }
    }
  }
  letters();
  os << "V = black (north-south), H = white (west-east); " << status_line();
  return os.str();
}

std::string SquareGame::status_line() const {
  if (outcome_ == Outcome::kDraw) return "draw";
  if (outcome_ != Outcome::kOngoing) return player_name(winner_of(outcome_)) + " wins";
  return player_name(to_move_) + " to move" + (must_pass_ ? " (must pass)" : "") +
         (swap_available() ? ", swap available" : "");
}

std::string SquareGame::move_help() const {
  if (outcome_ != Outcome::kOngoing) return "No moves: the game is over.";
  if (must_pass_) return "Moves: pass, the only one (every empty cell would complete a checkerboard).";
  // The examples are the notation's first cell and link, the same all game long, so that the
  // line changes only when the moves do.
  std::string help = "Moves: a stone on an empty cell";
  if (diagonals_connect_) {
    help += " that completes no checkerboard (e.g. a1)";
  } else if (auto_links_) {
    help += " (e.g. a1); it links itself to each of your stones diagonal to it in a block without a link";
  } else if (fill_cascade_) {
    help += " (e.g. a1); then each block with a diagonal pair, one stone of the other colour and one empty cell "
            "gets that cell filled in the pair's colour";
  } else if (link_moves_) {  // the variants whose players make links
    help += " (e.g. a1), or a link between two of your stones that are diagonal neighbours, in a block without a "
            "link (e.g. " + action_to_string(link_action(0, 0, 0)) + ")";
  } else {
    help += " (e.g. a1)";
  }
  if (swap_available()) {
    // The one black stone of ply 1 and its mirror across the a1 diagonal (docs/RULES.md section 1).
    const int stone = static_cast<int>(std::find(cells_.begin(), cells_.end(), uint8_t{1}) - cells_.begin());
    help += ", or swap (black's " + cell_name(stone, n_) + " becomes your " + cell_name((stone % n_) * n_ + stone / n_, n_) + ")";
  }
  return help + ".";
}

}  // namespace quax
