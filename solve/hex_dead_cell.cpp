#include "solve/hex_dead_cell.h"

#include <vector>

namespace quax {

namespace {

// The six neighbour steps in order around a cell, each next to the one before (and the last
// next to the first).
constexpr int kRing[6][2] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};

// What a neighbour holds for the test: empty, one player's (stone or edge), or neither's.
enum class Holder : uint8_t { kEmpty, kBlack, kWhite, kNeither };

Holder holder_of(Player p) { return p == Player::kBlack ? Holder::kBlack : Holder::kWhite; }

// Does every pair of neighbours `x` could take join without the cell (see the header)?
bool useless_for(const Holder ring[6], Holder x) {
  auto usable = [&](int i) { return ring[i] == x || ring[i] == Holder::kEmpty; };
  // All the neighbours strictly between i and j, walking up from i, are x's.
  auto held_between = [&](int i, int j) {
    for (int k = (i + 1) % 6; k != j; k = (k + 1) % 6)
      if (ring[k] != x) return false;
    return true;
  };
  for (int i = 0; i < 6; ++i) {
    if (!usable(i)) continue;
    for (int j = i + 1; j < 6; ++j) {
      if (!usable(j) || j == i + 1 || (i == 0 && j == 5)) continue;
      if (!held_between(i, j) && !held_between(j, i)) return false;
    }
  }
  return true;
}

}  // namespace

bool hex_dead_cell(int n, const Player* stones, int cell) {
  const int x = cell % n, y = cell / n;
  Holder ring[6];
  for (int k = 0; k < 6; ++k) {
    const int nx = x + kRing[k][0], ny = y + kRing[k][1];
    const bool off_x = nx < 0 || nx >= n, off_y = ny < 0 || ny >= n;
    if (off_x && off_y) {
      ring[k] = Holder::kNeither;  // past the obtuse corner: both edges (see the header)
    } else if (off_y) {
      ring[k] = Holder::kBlack;  // Black's edges are the first and last rows
    } else if (off_x) {
      ring[k] = Holder::kWhite;
    } else {
      const Player s = stones[ny * n + nx];
      ring[k] = s == Player::kNone ? Holder::kEmpty : holder_of(s);
    }
  }
  return useless_for(ring, Holder::kBlack) && useless_for(ring, Holder::kWhite);
}

bool hex_dead_cell(const HexGame& game, int cell) {
  const HexGeometry& geo = game.geometry();
  std::vector<Player> stones(static_cast<size_t>(geo.nn));
  for (int c : geo.board_cells) stones[c] = game.stone(c);
  return hex_dead_cell(geo.n, stones.data(), cell);
}

int fill_dead_cells(int n, std::vector<Player>* stones, Player filler) {
  int filled = 0;
  for (bool again = true; again;) {
    again = false;
    for (int c = 0; c < n * n; ++c) {
      if ((*stones)[c] != Player::kNone || !hex_dead_cell(n, stones->data(), c)) continue;
      (*stones)[c] = filler;
      ++filled;
      again = true;
    }
  }
  return filled;
}

bool hex_captured_pair(int n, std::vector<Player>* stones, Player p, int a, int b) {
  std::vector<Player>& s = *stones;
  auto dead_beside = [&](int stone, int cell) {
    s[stone] = p;
    const bool dead = hex_dead_cell(n, s.data(), cell);
    s[stone] = Player::kNone;
    return dead;
  };
  return dead_beside(b, a) && dead_beside(a, b);
}

int fill_dead_and_captured_cells(int n, std::vector<Player>* stones, Player p, std::vector<int>* captured) {
  // Three of the six neighbour steps: each adjacent pair once.
  constexpr int kForward[3][2] = {{1, 0}, {0, 1}, {-1, 1}};
  std::vector<Player>& s = *stones;
  int filled = 0;
  for (bool again = true; again;) {
    filled += fill_dead_cells(n, stones, p);
    again = false;
    for (int a = 0; a < n * n; ++a) {
      if (s[a] != Player::kNone) continue;
      for (const auto& step : kForward) {
        const int bx = a % n + step[0], by = a / n + step[1];
        if (bx < 0 || bx >= n || by >= n) continue;
        const int b = by * n + bx;
        if (s[b] != Player::kNone || !hex_captured_pair(n, stones, p, a, b)) continue;
        s[a] = s[b] = p;
        captured->push_back(a);
        captured->push_back(b);
        filled += 2;
        again = true;
        break;
      }
    }
  }
  return filled;
}

int drop_dead_cells(const HexGame& game, uint8_t* mask) {
  const HexGeometry& geo = game.geometry();
  const int nn = geo.nn;
  std::vector<Player> stones(static_cast<size_t>(nn));
  for (int c : geo.board_cells) stones[c] = game.stone(c);
  int first_cleared = -1, cleared = 0;
  bool any_kept = false;
  for (int c = 0; c < nn; ++c) {
    if (!mask[c]) continue;
    if (!hex_dead_cell(geo.n, stones.data(), c)) {
      any_kept = true;
      continue;
    }
    mask[c] = 0;
    if (first_cleared < 0) first_cleared = c;
    ++cleared;
  }
  if (!any_kept && first_cleared >= 0) {
    mask[first_cleared] = 1;  // every empty cell is dead: the first stays
    --cleared;
  }
  return cleared;
}

}  // namespace quax
