#include "solve/inferior_move.h"

namespace quax {

bool inferior_moves_apply(const GameSpec& spec) {
  const VariantInfo& info = variant_info(spec.variant);
  return info.shape == BoardShape::kSquare && info.turns == TurnRule::kOneAction && !info.fill_cascade &&
         (info.links == LinkRule::kChosen || info.links == LinkRule::kAutomatic);
}

namespace {

// Is the empty cell (c, r) dead (see the header)? Its neighbours are all q's for the q tried.
bool dead_cell(const SquareGame& game, int c, int r) {
  const int n = game.size();
  Player q = Player::kNone;
  constexpr int kSteps[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  for (const auto& step : kSteps) {
    const int nc = c + step[0], nr = r + step[1];
    if (nc < 0 || nr < 0 || nc >= n || nr >= n) continue;
    const Player s = game.stone(nc, nr);
    if (s == Player::kNone || (q != Player::kNone && s != q)) return false;
    q = s;
  }
  if (q == Player::kNone) return false;
  // Each block around the cell: q's stone on the opposite corner, or q's link across the
  // cell's two neighbours (the diagonal not through the cell).
  for (int dr = -1; dr <= 0; ++dr) {
    for (int dc = -1; dc <= 0; ++dc) {
      const int bc = c + dc, br = r + dr;
      if (bc < 0 || br < 0 || bc + 1 >= n || br + 1 >= n) continue;
      const int oc = dc == 0 ? c + 1 : c - 1, orow = dr == 0 ? r + 1 : r - 1;
      if (game.stone(oc, orow) == q) continue;
      // The cell is the south-west or north-east corner of its block when it lies on `/`.
      const int through_cell = (dc == dr) ? 0 : 1;
      int d = -1;
      if (game.link_on(bc, br, &d) != q || d == through_cell) return false;
    }
  }
  return true;
}

// Does the block (c, r) hold a stone of p's on the diagonal other than d?
bool third_stone(const SquareGame& game, int c, int r, int d, Player p) {
  return d == 0 ? game.stone(c + 1, r) == p || game.stone(c, r + 1) == p
                : game.stone(c, r) == p || game.stone(c + 1, r + 1) == p;
}

}  // namespace

int drop_pass_like_moves(const SquareGame& game, uint8_t* mask) {
  const int n = game.size(), nn = n * n;
  const Player mover = game.to_move();
  int dropped = 0, live = 0, first_dead = -1;
  for (int x = 0; x < nn; ++x) {
    if (!mask[x]) continue;
    if (!dead_cell(game, x % n, x / n)) {
      ++live;
      continue;
    }
    if (first_dead < 0) first_dead = x;
    mask[x] = 0;
    ++dropped;
  }
  if (live == 0 && first_dead >= 0) {
    mask[first_dead] = 1;  // every placement is a pass: one stays
    --dropped;
  }
  if (live == 0 && first_dead < 0) return dropped;  // no placement at all: links are all there is
  for (int d = 0; d < 2; ++d) {
    for (int block = 0; block < nn; ++block) {
      const int a = (1 + d) * nn + block;
      if (!mask[a] || !third_stone(game, block % n, block / n, d, mover)) continue;
      mask[a] = 0;
      ++dropped;
    }
  }
  return dropped;
}

}  // namespace quax
