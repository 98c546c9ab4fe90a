#include "env/torax_game.h"
#include "env/move_text.h"
#include "env/rng.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "env/size_cache.h"
#include "env/union_find.h"

namespace quax {

// Edges of the torus with the number of times each crosses the seams, so that the union-find
// can tell a wrapping cycle (non-zero total) from one that can be shrunk to a point.
struct ToraxGame::Geometry {
  std::vector<std::array<Edge, 4>> ortho;  // per cell: east, west, north, south
  std::vector<std::array<Edge, 2>> diag;   // per block: `/` (SW to NE), `\` (SE to NW)

  explicit Geometry(int n) : ortho(n * n), diag(n * n) {
    auto edge = [n](int c, int r, int dc, int dr) {
      const int bc = c + dc, br = r + dr;
      return Edge{static_cast<int16_t>(r * n + c), static_cast<int16_t>(wrap(br, n) * n + wrap(bc, n)),
                  static_cast<int8_t>(bc < 0 ? -1 : bc >= n ? 1 : 0), static_cast<int8_t>(br < 0 ? -1 : br >= n ? 1 : 0)};
    };
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        ortho[r * n + c] = {edge(c, r, 1, 0), edge(c, r, -1, 0), edge(c, r, 0, 1), edge(c, r, 0, -1)};
        diag[r * n + c] = {edge(c, r, 1, 1), edge((c + 1) % n, r, -1, 1)};
      }
    }
  }
};

ToraxGame::ToraxGame(const GameSpec& spec) : TurnTakingGame(spec), geo_(table_for_size<Geometry>(spec.size)) {
  assert(variant_info(spec.variant).shape == BoardShape::kTorus);
  cells_.assign(nn_, 0);
  links_.assign(nn_, 0);
  parent_.resize(nn_);
  for (int i = 0; i < nn_; ++i) parent_[i] = static_cast<int16_t>(i);
  wrap_c_.assign(nn_, 0);
  wrap_r_.assign(nn_, 0);
  empties_ = nn_;
}

void ToraxGame::copy_from(const GameState& other) {
  const auto& o = static_cast<const ToraxGame&>(other);
  cells_ = o.cells_;
  links_ = o.links_;
  parent_ = o.parent_;
  wrap_c_ = o.wrap_c_;
  wrap_r_ = o.wrap_r_;
  empties_ = o.empties_;
  copy_turn_from(o);
  connector_ = o.connector_;
  blocks_this_turn_ = o.blocks_this_turn_;
  must_pass_ = o.must_pass_;
}

// --- Winding union-find (env/union_find.h) ------------------------------------------------

WindingSets ToraxGame::black_sets() const { return WindingSets{parent_.data(), wrap_c_.data(), wrap_r_.data()}; }

bool ToraxGame::unite_black(const Edge& e) { return black_sets().unite(e.a, e.b, e.wc, e.wr); }

bool ToraxGame::black_can_still_win() const {
  // Black's best case: every cell not white is black, every block without a White link can
  // carry a black link. (A Black link closes its block's other diagonal, but that diagonal's
  // cells are then joined through the linked ones: nothing is lost by ignoring it.)
  int16_t parent[26 * 26];
  int8_t wc[26 * 26], wr[26 * 26];
  for (int i = 0; i < nn_; ++i) parent[i] = static_cast<int16_t>(i), wc[i] = wr[i] = 0;
  const WindingSets sets{parent, wc, wr};
  auto loop = [&](const Edge& e) { return sets.unite(e.a, e.b, e.wc, e.wr); };
  const uint8_t* cells = cells_.data();
  for (int x = 0; x < nn_; ++x) {
    if (cells[x] == 2) continue;
    for (int k = 0; k < 3; k += 2) {  // east and north: each edge once
      const Edge& e = geo_->ortho[x][k];
      if (cells[e.b] != 2 && loop(e)) return true;
    }
  }
  for (int b = 0; b < nn_; ++b) {
    const uint8_t l = links_[b];
    if (l != 0 && (l - 1) % 2 == 1) continue;  // White's link shuts both diagonals
    for (int d = 0; d < 2; ++d) {
      if (l != 0 && (l - 1) / 2 != d) continue;
      const Edge& e = geo_->diag[b][d];
      if (cells[e.a] != 2 && cells[e.b] != 2 && loop(e)) return true;
    }
  }
  return false;
}

// --- Rules ----------------------------------------------------------------------------

bool ToraxGame::link_legal(int block, int d, Player colour) const {
  if (links_[block] != 0) return false;
  const Edge& e = geo_->diag[block][d];
  const uint8_t own = static_cast<uint8_t>(index_of(colour) + 1);
  return cells_[e.a] == own && cells_[e.b] == own;
}

bool ToraxGame::has_play_move(Player colour) const {
  if (empties_ > 0) return true;
  for (int b = 0; b < nn_; ++b)
    if (link_legal(b, 0, colour) || link_legal(b, 1, colour)) return true;
  return false;
}

void ToraxGame::place(int cell, Player colour) {
  cells_[cell] = static_cast<uint8_t>(index_of(colour) + 1);
  --empties_;
  if (colour != Player::kBlack) return;
  bool loop = false;
  for (const Edge& e : geo_->ortho[cell])
    if (cells_[e.b] == 1) loop |= unite_black(e);
  if (loop) outcome_ = win_for(connector_);
}

void ToraxGame::add_link(int block, int d, Player colour) {
  links_[block] = static_cast<uint8_t>(1 + 2 * d + index_of(colour));
  if (colour == Player::kBlack && unite_black(geo_->diag[block][d])) outcome_ = win_for(connector_);
}

void ToraxGame::end_turn() {
  to_move_ = opponent(to_move_);
  blocks_this_turn_ = 0;
}

void ToraxGame::adopt() {
  connector_ = opponent(to_move_);
  to_move_ = connector_;
  blocks_this_turn_ = 0;
  if (!black_can_still_win()) outcome_ = win_for(opponent(connector_));
}

void ToraxGame::apply(int action) {
  assert(is_legal(action));
  ++ply_;
  if (in_auction()) {
    if (action == adopt_action()) {
      adopt();
    } else if (action == end_action()) {
      end_turn();
    } else {
      place(action, Player::kWhite);
      if (++blocks_this_turn_ == n_ || empties_ == 0) end_turn();
    }
    return;
  }
  const Player colour = colour_of(to_move_);
  if (action < nn_) {
    place(action, colour);
  } else if (action < 3 * nn_) {
    const int d = action < 2 * nn_ ? 0 : 1;
    add_link(action - (1 + d) * nn_, d, colour);
  }  // pass changes nothing
  if (outcome_ == Outcome::kOngoing && colour == Player::kWhite && action != pass_action() && !black_can_still_win())
    outcome_ = win_for(opponent(connector_));
  to_move_ = opponent(to_move_);
  must_pass_ = outcome_ == Outcome::kOngoing && !has_play_move(colour_of(to_move_));
}

std::string ToraxGame::why_illegal(int action) const {
  if (action < 0 || action >= num_actions()) return "action " + std::to_string(action) + " is not on this board";
  const std::string name = action_to_string(action);
  if (outcome_ != Outcome::kOngoing) return name + ": the game is over";
  if (in_auction()) {
    if (action == adopt_action())
      return blocks_this_turn_ == 0 ? "" : "adopt: only before placing blocks in a turn";
    if (action == end_action()) return blocks_this_turn_ > 0 ? "" : "end: place a block or adopt first";
    if (action >= nn_) return name + ": only blocks, end or adopt during the auction";
    return cells_[action] != 0 ? name + " is occupied" : "";
  }
  if (action == adopt_action() || action == end_action()) return name + ": the auction is over";
  if (action == pass_action())
    return must_pass_ ? "" : "pass is only allowed when no other move is legal";
  if (action < nn_) return cells_[action] != 0 ? name + " is occupied" : "";
  const int d = action < 2 * nn_ ? 0 : 1;
  const int block = action - (1 + d) * nn_;
  if (links_[block] != 0) return name + ": the block already holds a link";
  if (!link_legal(block, d, colour_of(to_move_)))
    return name + ": both cells must hold " + player_name(colour_of(to_move_)) + " stones";
  return "";
}

void ToraxGame::legal_mask(uint8_t* mask) const {
  std::fill(mask, mask + num_actions(), 0);
  if (outcome_ != Outcome::kOngoing) return;
  if (in_auction()) {
    if (blocks_this_turn_ == 0) mask[adopt_action()] = 1;
    else mask[end_action()] = 1;
    for (int x = 0; x < nn_; ++x) mask[x] = cells_[x] == 0;
    return;
  }
  if (must_pass_) {
    mask[pass_action()] = 1;
    return;
  }
  for (int x = 0; x < nn_; ++x) mask[x] = cells_[x] == 0;
  const Player colour = colour_of(to_move_);
  for (int b = 0; b < nn_; ++b)
    for (int d = 0; d < 2; ++d) mask[(1 + d) * nn_ + b] = link_legal(b, d, colour);
}

Outcome ToraxGame::play_random_to_end(Rng& rng) {
  std::vector<int> legal;
  legal.reserve(num_actions());
  std::vector<uint8_t> mask(num_actions());
  while (outcome_ == Outcome::kOngoing) {
    legal_mask(mask.data());
    legal.clear();
    for (int a = 0; a < num_actions(); ++a)
      if (mask[a]) legal.push_back(a);
    apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
  return outcome_;
}

// --- Notation (the rest in torax_text.cpp) --------------------------------------------

// Here rather than in torax_text.cpp: a link's cells come from the geometry's edges.
std::string ToraxGame::action_to_string(int action) const {
  if (action < 0 || action >= num_actions()) return "?";
  if (action < nn_) return cell_name(action, n_);
  if (action == adopt_action()) return "adopt";
  if (action == end_action()) return "end";
  if (action == pass_action()) return "pass";
  const int d = action < 2 * nn_ ? 0 : 1;
  const Edge& e = geo_->diag[action - (1 + d) * nn_][d];
  const int lo = e.a / n_ <= e.b / n_ ? e.a : e.b, hi = lo == e.a ? e.b : e.a;
  return cell_name(lo, n_) + "-" + cell_name(hi, n_);
}

// --- Network view ---------------------------------------------------------------------

std::vector<std::string> ToraxGame::plane_names() const {
  return {"black_stones",       "white_stones",  "black_links_slash",     "black_links_backslash",
          "white_links_slash",  "white_links_backslash", "mover_plays_black", "auction",
          "blocks_this_turn",   "ones"};
}

void ToraxGame::encode(float* planes) const {
  std::memset(planes, 0, sizeof(float) * kNumPlanes * nn_);
  for (int x = 0; x < nn_; ++x) {
    if (cells_[x] != 0) planes[(cells_[x] - 1) * nn_ + x] = 1.0f;
    const uint8_t l = links_[x];
    if (l != 0) planes[(2 + 2 * ((l - 1) % 2) + (l - 1) / 2) * nn_ + x] = 1.0f;
  }
  auto fill = [&](int plane, float v) { std::fill(planes + plane * nn_, planes + (plane + 1) * nn_, v); };
  fill(6, !in_auction() && to_move_ == connector_ ? 1.0f : 0.0f);
  fill(7, in_auction() ? 1.0f : 0.0f);
  fill(8, static_cast<float>(blocks_this_turn_) / static_cast<float>(n_));
  fill(9, 1.0f);
}

void ToraxGame::map_cell_xy(int sym, int c, int r, int* oc, int* orow) const {
  const int d = sym / nn_, t = sym % nn_;
  if (d & 1) std::swap(c, r);
  if (d & 2) c = n_ - 1 - c;
  if (d & 4) r = n_ - 1 - r;
  *oc = wrap(c + t % n_, n_);
  *orow = wrap(r + t / n_, n_);
}

void ToraxGame::map_block(int sym, int block, int d, int* out_block, int* out_d) const {
  // A block is its diagonal's two cells: map both and read the block back.
  const Edge& e = geo_->diag[block][d];
  int c1, r1, c2, r2;
  map_cell_xy(sym, e.a % n_, e.a / n_, &c1, &r1);
  map_cell_xy(sym, e.b % n_, e.b / n_, &c2, &r2);
  const bool east2 = wrap(c1 + 1, n_) == c2, north2 = wrap(r1 + 1, n_) == r2;
  const int west_c = east2 ? c1 : c2, south_r = north2 ? r1 : r2;
  *out_d = east2 == north2 ? 0 : 1;
  *out_block = south_r * n_ + west_c;
}

int ToraxGame::map_action(int sym, int action) const {
  if (action >= 3 * nn_) return action;
  if (action < nn_) {
    int c, r;
    map_cell_xy(sym, action % n_, action / n_, &c, &r);
    return r * n_ + c;
  }
  const int d = action < 2 * nn_ ? 0 : 1;
  int b, d2;
  map_block(sym, action - (1 + d) * nn_, d, &b, &d2);
  return (1 + d2) * nn_ + b;
}

template <typename T>
void ToraxGame::transform_layout(int sym, int spatial, const T* in, T* out, int extra) const {
  // `spatial` planes: 1 = cells only; 3 = cells, `/`, `\` (the action layout).
  for (int a = 0; a < spatial * nn_; ++a) out[map_action(sym, a)] = in[a];
  for (int k = 0; k < extra; ++k) out[spatial * nn_ + k] = in[spatial * nn_ + k];
}

void ToraxGame::transform_net_planes(int sym, const float* in, float* out) const {
  // Stones map as cells; each colour's two link planes as the action layout's link planes.
  for (int colour = 0; colour < 2; ++colour) {
    for (int x = 0; x < nn_; ++x) out[colour * nn_ + map_action(sym, x)] = in[colour * nn_ + x];
    for (int d = 0; d < 2; ++d) {
      for (int b = 0; b < nn_; ++b) {
        int b2, d2;
        map_block(sym, b, d, &b2, &d2);
        out[(2 + 2 * colour + d2) * nn_ + b2] = in[(2 + 2 * colour + d) * nn_ + b];
      }
    }
  }
  std::copy(in + 6 * nn_, in + kNumPlanes * nn_, out + 6 * nn_);
}

void ToraxGame::transform_net_policy(int sym, const float* in, float* out) const {
  transform_layout(sym, 3, in, out, 3);
}

void ToraxGame::transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const {
  transform_layout(sym, 3, in, out, 3);
}

std::vector<CellOwnership> ToraxGame::final_ownership() const {
  if (outcome_ == Outcome::kOngoing) return {};
  std::vector<CellOwnership> out(nn_);
  // Every game ends after the adoption, which fixed the seats' colours.
  const Player black_seat = connector_, white_seat = opponent(connector_);
  for (int x = 0; x < nn_; ++x) out[x].owner = cells_[x] == 0 ? Player::kNone : cells_[x] == 1 ? black_seat : white_seat;
  if (connector_ == Player::kNone || winner_of(outcome_) != connector_) return out;
  // Every black connection went through unite_black, so both ends of each are in one set; an
  // edge whose wrap vectors disagree closes a loop around the torus in that set.
  std::vector<uint8_t> wraps(nn_, 0);  // per root of the black union-find
  const WindingSets sets = black_sets();
  auto check = [&](const Edge& e) {
    int wc, wr;
    if (sets.closes_loop(e.a, e.b, e.wc, e.wr)) wraps[sets.find(e.a, &wc, &wr)] = 1;
  };
  for (int x = 0; x < nn_; ++x) {
    if (cells_[x] != 1) continue;
    for (int k = 0; k < 3; k += 2)  // east and north: each edge once
      if (cells_[geo_->ortho[x][k].b] == 1) check(geo_->ortho[x][k]);
  }
  for (int b = 0; b < nn_; ++b)
    if (links_[b] != 0 && (links_[b] - 1) % 2 == 0) check(geo_->diag[b][(links_[b] - 1) / 2]);
  for (int x = 0; x < nn_; ++x) {
    int wc, wr;
    out[x].on_chain = cells_[x] == 1 && wraps[sets.find(x, &wc, &wr)];
  }
  return out;
}

uint64_t ToraxGame::position_key() const {
  uint64_t k = mix64(static_cast<uint64_t>(index_of(to_move()) + 2) * 131 + static_cast<uint64_t>(index_of(connector_) + 2) * 7 +
                   static_cast<uint64_t>(blocks_this_turn_) * 1009);
  for (int x = 0; x < nn_; ++x) {
    if (cells_[x]) k ^= mix64(static_cast<uint64_t>(x) * 4 + cells_[x]);
    if (links_[x]) k ^= mix64(0xABCDEF00ULL + static_cast<uint64_t>(x) * 8 + links_[x]);
  }
  return k;
}

}  // namespace quax
