// HexGame::board_text(): diagrams in the style of the play-by-email server's Hex, Quadrant
// Hex and Quadrant Y help pages, and points_text(), their score line. The rhombus is drawn
// as every board of the project is, north up: row N first and row 1 last (the server's pages
// draw row 1 first), each row a half cell further left than the one above (so (x+1, y-1) and
// (x-1, y+1) are the diagonal neighbours), V and H for the stones and `-` for the empty cells
// of every other quadrant. The triangle is drawn apex first, x and o for the stones and `+` for the empty
// cells on a sub-game's border. status_line() and move_help() as GameState describes them.
#include <cstdio>
#include <sstream>

#include "env/hex_game.h"
#include "env/move_text.h"

namespace quax {

namespace {
std::string pad_left(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}
}  // namespace

std::string HexGame::points_text() const {
  const HexGeometry& geo = *geo_;
  if (geo.games.size() < 2) return "";
  const int whole = game_winner_[0];
  std::ostringstream os;
  os << "points (" << geo.points_to_win << " of " << geo.games.size() << " win): black " << points_[0] << ", white "
     << points_[1] << "; whole board: " << (whole < 0 ? "open" : player_name(static_cast<Player>(whole)));
  return os.str();
}

std::string HexGame::board_text() const {
  const HexGeometry& geo = *geo_;
  std::ostringstream os;
  auto letters = [&](int indent) {
    os << std::string(indent, ' ');
    for (int x = 0; x < n_; ++x) os << static_cast<char>('a' + x) << (x + 1 < n_ ? " " : "");
    os << '\n';
  };
  if (!geo.triangle) {
    letters(n_ + 3);
    for (int y = n_ - 1; y >= 0; --y) {
      os << std::string(y, ' ') << pad_left(std::to_string(y + 1), 2) << ' ';
      for (int x = 0; x < n_; ++x) {
        const int cell = y * n_ + x;
        const Player p = stone(cell);
        os << (p == Player::kBlack ? 'V' : p == Player::kWhite ? 'H' : geo.shade[cell] ? '-' : '.') << ' ';
      }
      os << y + 1 << '\n';
    }
    letters(3);
    os << "V = black (rows 1 and " << n_ << "), H = white (columns a and " << static_cast<char>('a' + n_ - 1) << ")";
  } else {
    const size_t label_width = std::to_string(n_).size() + 1;
    for (int y = 0; y < n_; ++y) {
      os << std::string(n_ - 1 - y, ' ') << pad_left(std::to_string(y + 1) + "-", label_width);
      for (int x = 0; x <= y; ++x) {
        const int cell = y * n_ + x;
        const Player p = stone(cell);
        os << ' ' << (p == Player::kBlack ? 'x' : p == Player::kWhite ? 'o' : geo.border[cell] ? '+' : '.');
      }
      os << '\n';
    }
    os << std::string(label_width + 1, ' ');
    for (int x = 0; x < n_; ++x) os << '\\' << (x + 1 < n_ ? " " : "");
    os << '\n';
    letters(static_cast<int>(label_width) + 2);
    os << "x = black, o = white (connect all three sides)";
  }
  if (geo.games.size() > 1) os << '\n' << points_text();
  os << '\n' << status_line();
  return os.str();
}

std::string HexGame::status_line() const {
  if (outcome_ != Outcome::kOngoing) return player_name(winner_of(outcome_)) + " wins";
  return player_name(to_move_) + " to move" + (swap_available() ? ", swap available" : "");
}

std::string HexGame::move_help() const {
  if (outcome_ != Outcome::kOngoing) return "No moves: the game is over.";
  std::string help = std::string("Moves: a stone on an empty cell (e.g. a1") +
                     (geo_->triangle ? "; rows count from the apex, row r has the columns a to the r-th letter)" : ")");
  if (swap_available()) {
    // The one black stone of ply 1; swap mirrors it on the rhombus and recolours it on the
    // triangle (docs/RULES.md section 1).
    int stone_cell = 0;
    for (int16_t cell : geo_->board_cells)
      if (cells_[cell] != 0) stone_cell = cell;
    help += geo_->triangle ? ", or swap (black's " + cell_name(stone_cell, n_) + " becomes yours)"
                           : ", or swap (black's " + cell_name(stone_cell, n_) + " becomes your " +
                                 cell_name(geo_->transposed[stone_cell], n_) + ")";
  }
  return help + ".";
}

}  // namespace quax
