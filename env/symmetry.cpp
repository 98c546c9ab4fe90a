#include "env/symmetry.h"

#include <algorithm>
#include <cassert>

#include "env/square_game.h"

namespace quax {

std::string symmetry_name(Symmetry s) {
  static const char* const kNames[kNumSymmetries] = {
      "identity",  "transpose",       "mirror_we", "quarter_turn_ccw",
      "mirror_ns", "quarter_turn_cw", "half_turn", "anti_transpose"};
  return kNames[s.index()];
}

void map_point(Symmetry s, int m, int x, int y, int* out_x, int* out_y) {
  if (s.transpose) std::swap(x, y);
  if (s.flip_columns) x = m - 1 - x;
  if (s.flip_rows) y = m - 1 - y;
  *out_x = x;
  *out_y = y;
}

Symmetry compose(Symmetry a, Symmetry b) {
  // The group is tiny: find the element that agrees with b(a(.)) on a 3x3 grid, whose
  // points are enough to tell all 8 apart.
  for (int k = 0; k < kNumSymmetries; ++k) {
    const Symmetry cand = Symmetry::from_index(k);
    bool same = true;
    for (int y = 0; y < 3 && same; ++y) {
      for (int x = 0; x < 3 && same; ++x) {
        int ax, ay, bx, by, cx, cy;
        map_point(a, 3, x, y, &ax, &ay);
        map_point(b, 3, ax, ay, &bx, &by);
        map_point(cand, 3, x, y, &cx, &cy);
        same = bx == cx && by == cy;
      }
    }
    if (same) return cand;
  }
  assert(false && "the dihedral group is closed");
  return Symmetry{};
}

Symmetry inverse(Symmetry s) {
  for (int k = 0; k < kNumSymmetries; ++k)
    if (compose(s, Symmetry::from_index(k)).index() == 0) return Symmetry::from_index(k);
  assert(false && "every element has an inverse");
  return Symmetry{};
}

int map_cell(Symmetry s, int n, int cell) {
  int x, y;
  map_point(s, n, cell % n, cell / n, &x, &y);
  return y * n + x;
}

int map_block(Symmetry s, int n, int block) {
  int x, y;
  map_point(s, n - 1, block % n, block / n, &x, &y);
  return y * n + x;
}

Player map_player(Symmetry s, Player p) { return s.swaps_colours() ? opponent(p) : p; }

Outcome map_outcome(Symmetry s, Outcome o) {
  if (!s.swaps_colours()) return o;
  if (o == Outcome::kBlackWins) return Outcome::kWhiteWins;
  if (o == Outcome::kWhiteWins) return Outcome::kBlackWins;
  return o;
}

int map_square_action(Symmetry s, int n, int action) {
  const int nn = n * n;
  if (action < nn) return map_cell(s, n, action);
  if (action >= 3 * nn) return action;  // swap, pass
  const int d = action < 2 * nn ? 0 : 1;
  const int block = action - (1 + d) * nn;
  if (block % n == n - 1 || block / n == n - 1) return action;  // padding
  const int d2 = s.swaps_diagonals() ? 1 - d : d;
  return (1 + d2) * nn + map_block(s, n, block);
}

std::unique_ptr<SquareGame> transform_position(Symmetry s, const SquareGame& game) {
  const int n = game.size(), nn = n * n;
  std::vector<Player> stones(nn, Player::kNone);
  std::vector<std::array<int, 3>> links;
  for (int cell = 0; cell < nn; ++cell) {
    const int c = cell % n, r = cell / n;
    const Player p = game.stone(c, r);
    if (p != Player::kNone) stones[map_cell(s, n, cell)] = map_player(s, p);
    if (c < n - 1 && r < n - 1) {
      int d = 0;
      const Player owner = game.link_on(c, r, &d);
      if (owner != Player::kNone)
        links.push_back({map_block(s, n, cell), s.swaps_diagonals() ? 1 - d : d, index_of(map_player(s, owner))});
    }
  }
  Player mover = game.to_move();
  if (mover == Player::kNone) mover = game.move_number() % 2 == 0 ? Player::kBlack : Player::kWhite;
  return SquareGame::from_position(game.spec(), stones, links, map_player(s, mover), game.move_number());
}

Symmetry net_symmetry(Symmetry g, Player mover) {
  const Symmetry id{};
  const Symmetry frame = mover == Player::kWhite ? transpose_symmetry() : id;
  const Symmetry frame_after = map_player(g, mover) == Player::kWhite ? transpose_symmetry() : id;
  // frame^-1 first (the transpose is its own inverse), then g, then the new frame.
  return compose(compose(frame, g), frame_after);
}

const std::vector<PlaneSpec>& square_input_planes() {
  // own stones, opponent stones, own /, own \, opponent /, opponent \, swap available, ones.
  static const std::vector<PlaneSpec> kPlanes = {
      {PlaneKind::kCell, -1},       {PlaneKind::kCell, -1},          {PlaneKind::kBlockSlash, 3},
      {PlaneKind::kBlockBackslash, 2}, {PlaneKind::kBlockSlash, 5}, {PlaneKind::kBlockBackslash, 4},
      {PlaneKind::kConstant, -1},   {PlaneKind::kConstant, -1}};
  return kPlanes;
}

const std::vector<PlaneSpec>& square_action_planes() {
  static const std::vector<PlaneSpec> kPlanes = {
      {PlaneKind::kCell, -1}, {PlaneKind::kBlockSlash, 2}, {PlaneKind::kBlockBackslash, 1}};
  return kPlanes;
}

namespace {

template <typename T>
void transform_spatial(Symmetry s, int n, const std::vector<PlaneSpec>& planes, const T* in, T* out) {
  const int nn = n * n;
  // Point maps computed once per call rather than once per plane.
  std::vector<int> cell_map(nn), block_map(nn, -1);
  for (int i = 0; i < nn; ++i) {
    cell_map[i] = map_cell(s, n, i);
    if (i % n < n - 1 && i / n < n - 1) block_map[i] = map_block(s, n, i);
  }
  const int count = static_cast<int>(planes.size());
  for (int p = 0; p < count; ++p) {
    const T* src = in + static_cast<size_t>(p) * nn;
    switch (planes[p].kind) {
      case PlaneKind::kCell: {
        T* dst = out + static_cast<size_t>(p) * nn;
        for (int i = 0; i < nn; ++i) dst[cell_map[i]] = src[i];
        break;
      }
      case PlaneKind::kBlockSlash:
      case PlaneKind::kBlockBackslash: {
        assert(planes[p].partner >= 0 && planes[p].partner < count);
        const int target = s.swaps_diagonals() ? planes[p].partner : p;
        T* dst = out + static_cast<size_t>(target) * nn;
        std::fill(dst, dst + nn, T(0));
        for (int i = 0; i < nn; ++i)
          if (block_map[i] >= 0) dst[block_map[i]] = src[i];
        break;
      }
      case PlaneKind::kConstant:
        std::copy(src, src + nn, out + static_cast<size_t>(p) * nn);
        break;
    }
  }
}

}  // namespace

void transform_planes(Symmetry s, int n, const std::vector<PlaneSpec>& planes, const float* in, float* out) {
  transform_spatial(s, n, planes, in, out);
}

void transform_policy(Symmetry s, int n, const std::vector<PlaneSpec>& planes, int extra, const float* in,
                      float* out) {
  transform_spatial(s, n, planes, in, out);
  const size_t spatial = planes.size() * static_cast<size_t>(n) * n;
  std::copy(in + spatial, in + spatial + extra, out + spatial);
}

void transform_policy(Symmetry s, int n, const std::vector<PlaneSpec>& planes, int extra, const uint8_t* in,
                      uint8_t* out) {
  transform_spatial(s, n, planes, in, out);
  const size_t spatial = planes.size() * static_cast<size_t>(n) * n;
  std::copy(in + spatial, in + spatial + extra, out + spatial);
}

}  // namespace quax
