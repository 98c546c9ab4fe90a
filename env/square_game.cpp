#include "env/square_game.h"
#include "core/quoted_input.h"
#include "env/rng.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

#include "env/size_cache.h"
#include "env/symmetry.h"

namespace quax {

namespace {

// Union-find has the cells 0..NN-1 and then these four edge nodes.
constexpr int kSouth = 0, kNorth = 1, kWest = 2, kEast = 3;

}  // namespace

// One block seen from one of its cells: the diagonal the cell lies on, the partner cell
// on that diagonal, and the two cells of the other diagonal.
struct BlockOfCell {
  int16_t block, d, partner, other1, other2;
};

struct SquareGame::Geometry {
  int n;
  // For each cell, its blocks in the order south-west, south-east, north-west, north-east
  // (the order docs/RULES.md fixes for the quadrex cascade); count[cell] of them exist.
  std::vector<std::array<BlockOfCell, 4>> blocks;
  std::vector<uint8_t> block_count;
  // Orthogonal neighbours (up to 4) and, for crossway, the diagonal ones.
  std::vector<std::array<int16_t, 4>> ortho;
  std::vector<uint8_t> ortho_count;
  std::vector<std::array<int16_t, 4>> diag;
  std::vector<uint8_t> diag_count;
  // Zobrist keys: stone[cell * 2 + player], link[(block * 2 + d) * 2 + player].
  std::vector<uint64_t> stone_key, link_key;
  // cell r*N + c -> c*N + r: White's network frame (also maps blocks, as a transpose keeps
  // each diagonal's orientation).
  std::vector<int16_t> transposed;
  // Which edges a cell lies on: bit kSouth, kNorth, kWest, kEast (a corner has two).
  std::vector<uint8_t> edge_bits;

  explicit Geometry(int size) : n(size) {
    const int nn = n * n;
    blocks.resize(nn);
    block_count.assign(nn, 0);
    ortho.resize(nn);
    ortho_count.assign(nn, 0);
    diag.resize(nn);
    diag_count.assign(nn, 0);
    auto at = [&](int c, int r) { return static_cast<int16_t>(r * n + c); };
    auto inside = [&](int c, int r) { return c >= 0 && r >= 0 && c < n && r < n; };
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const int x = at(c, r);
        // (block corner offset, diagonal, partner offset, other diagonal offsets)
        struct Rel { int bc, br, d, pc, pr, o1c, o1r, o2c, o2r; };
        const Rel rels[4] = {
            {c - 1, r - 1, 0, c - 1, r - 1, c, r - 1, c - 1, r},      // SW: x is NE corner
            {c, r - 1, 1, c + 1, r - 1, c, r - 1, c + 1, r},          // SE: x is NW corner
            {c - 1, r, 1, c - 1, r + 1, c - 1, r, c, r + 1},          // NW: x is SE corner
            {c, r, 0, c + 1, r + 1, c + 1, r, c, r + 1},              // NE: x is SW corner
        };
        for (const Rel& rel : rels) {
          if (rel.bc < 0 || rel.br < 0 || rel.bc >= n - 1 || rel.br >= n - 1) continue;
          blocks[x][block_count[x]++] = BlockOfCell{at(rel.bc, rel.br), static_cast<int16_t>(rel.d),
                                                    at(rel.pc, rel.pr), at(rel.o1c, rel.o1r),
                                                    at(rel.o2c, rel.o2r)};
        }
        const int oc[4][2] = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
        for (const auto& o : oc)
          if (inside(c + o[0], r + o[1])) ortho[x][ortho_count[x]++] = at(c + o[0], r + o[1]);
        const int dc[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
        for (const auto& o : dc)
          if (inside(c + o[0], r + o[1])) diag[x][diag_count[x]++] = at(c + o[0], r + o[1]);
      }
    }
    transposed.resize(nn);
    edge_bits.assign(nn, 0);
    for (int x = 0; x < nn; ++x) {
      const int c = x % n, r = x / n;
      edge_bits[x] = static_cast<uint8_t>((r == 0 ? 1 << kSouth : 0) | (r == n - 1 ? 1 << kNorth : 0) |
                                          (c == 0 ? 1 << kWest : 0) | (c == n - 1 ? 1 << kEast : 0));
    }
    for (int x = 0; x < nn; ++x) transposed[x] = static_cast<int16_t>((x % n) * n + x / n);
    stone_key.resize(nn * 2);
    link_key.resize(nn * 4);
    uint64_t seed = 0x51A7E5EEDULL + static_cast<uint64_t>(n);
    for (auto& k : stone_key) k = mix64(seed++);
    for (auto& k : link_key) k = mix64(seed++ ^ 0xABCDEFULL);
  }
};

SquareGame::SquareGame(const GameSpec& spec)
    : spec_(spec), n_(spec.size), nn_(spec.size * spec.size), geo_(table_for_size<Geometry>(spec.size)) {
  // The rules of the family member, from the facts its file registered (env/variants/).
  const VariantInfo& facts = variant_info(spec.variant);
  link_moves_ = facts.links == LinkRule::kChosen;
  auto_links_ = facts.links == LinkRule::kAutomatic;
  diagonals_connect_ = facts.links == LinkRule::kDiagonal;
  fill_cascade_ = facts.fill_cascade;
  cells_.assign(nn_, 0);
  links_.assign(nn_, 0);
  parent_.resize(nn_ + 4);
  for (int i = 0; i < nn_ + 4; ++i) parent_[i] = static_cast<int16_t>(i);
  empties_.resize(nn_);
  empty_pos_.resize(nn_);
  for (int i = 0; i < nn_; ++i) empties_[i] = empty_pos_[i] = static_cast<int16_t>(i);
  candidate_pos_.assign(nn_ * 2, -1);
  candidates_[0].reserve(nn_);
  candidates_[1].reserve(nn_);
  cascade_queue_.reserve(nn_);
}

std::unique_ptr<GameState> SquareGame::clone() const { return std::make_unique<SquareGame>(*this); }

void SquareGame::copy_from(const GameState& other) {
  const auto& o = static_cast<const SquareGame&>(other);
  assert(o.spec_ == spec_);
  // Same sizes: vector assignment reuses this state's storage.
  cells_ = o.cells_;
  links_ = o.links_;
  parent_ = o.parent_;
  empties_ = o.empties_;
  empty_pos_ = o.empty_pos_;
  if (link_moves_) {
    candidates_ = o.candidates_;
    candidate_pos_ = o.candidate_pos_;
  }
  to_move_ = o.to_move_;
  outcome_ = o.outcome_;
  ply_ = o.ply_;
  must_pass_ = o.must_pass_;
  key_ = o.key_;
}

// --- Union-find ---------------------------------------------------------------------

inline int SquareGame::find(int x) const {
  // A raw pointer: the byte stores around every call may alias the vector's own fields, so
  // going through parent_[] would reload its data pointer at each step.
  int16_t* const parent = parent_.data();
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

void SquareGame::unite(int a, int b) {
  a = find(a);
  b = find(b);
  if (a == b) return;
  // An edge node (index >= NN) always stays a root, and of two edge nodes the higher one:
  // the win test in after_move() relies on it. Cells link in any order.
  if (a > b && a >= nn_) std::swap(a, b);
  parent_.data()[a] = static_cast<int16_t>(b);
}

// --- Rules ----------------------------------------------------------------------------

bool SquareGame::swap_available() const {
  return spec_.swap && ply_ == 1 && outcome_ == Outcome::kOngoing;
}

Player SquareGame::link_on(int c, int r, int* d) const {
  const uint8_t l = links_[r * n_ + c];
  if (l == 0) return Player::kNone;
  *d = (l - 1) / 2;
  return static_cast<Player>((l - 1) % 2);
}

// Inline: crossway's legal masks call it for every empty cell.
inline bool SquareGame::placement_legal(int cell, Player p) const {
  const uint8_t* const cells = cells_.data();
  if (cells[cell] != 0) return false;
  if (!diagonals_connect_) return true;
  const uint8_t own = static_cast<uint8_t>(index_of(p) + 1), opp = static_cast<uint8_t>(3 - own);
  const auto& bl = geo_->blocks[cell];
  const int count = geo_->block_count[cell];
  // Would complete a checkerboard in some block; `&` rather than `&&` avoids branches that
  // random positions mispredict.
  bool checkerboard = false;
  for (int i = 0; i < count; ++i)
    checkerboard |= (cells[bl[i].partner] == own) & (cells[bl[i].other1] == opp) & (cells[bl[i].other2] == opp);
  return !checkerboard;
}

bool SquareGame::has_placement(Player p) const {
  for (int16_t cell : empties_)
    if (placement_legal(cell, p)) return true;
  return false;
}

void SquareGame::add_candidate(int link_id, Player p) {
  auto& list = candidates_[index_of(p)];
  candidate_pos_[link_id] = static_cast<int16_t>(list.size());
  list.push_back(static_cast<int16_t>(link_id));
}

void SquareGame::remove_candidate(int link_id) {
  const int pos = candidate_pos_[link_id];
  if (pos < 0) return;
  // The candidate belongs to whoever holds the diagonal's cells.
  const int block = link_id >> 1;
  const int cell = (link_id & 1) == 0 ? block : block + 1;
  auto& list = candidates_[cells_[cell] - 1];
  const int16_t last = list.back();
  list[pos] = last;
  candidate_pos_[last] = static_cast<int16_t>(pos);
  list.pop_back();
  candidate_pos_[link_id] = -1;
}

void SquareGame::put_stone(int cell, Player p) {
  // Hot path of every playout: tables are read through local pointers (see find()), and
  // edges come from a table rather than a division by the size.
  const Geometry& geo = *geo_;
  uint8_t* const cells = cells_.data();
  const int pi = index_of(p);
  const uint8_t own = static_cast<uint8_t>(pi + 1);
  cells[cell] = own;
  key_ ^= geo.stone_key[cell * 2 + pi];
  int16_t* const empty_pos = empty_pos_.data();
  const int pos = empty_pos[cell];
  const int16_t last = empties_.back();
  empties_[pos] = last;
  empty_pos[last] = static_cast<int16_t>(pos);
  empties_.pop_back();
  empty_pos[cell] = -1;

  // unite(cell, x) for each same-colour neighbour x, keeping the new stone's root at hand
  // instead of finding it again each time (a new stone starts as a set of its own).
  int16_t* const parent = parent_.data();
  // The lone new stone goes under its first neighbour's root (keeping trees shallow), later
  // groups under the joint root; edge nodes stay roots as in unite().
  int root = cell;
  auto join = [&](int x) {
    const int r = find(x);
    if (r == root) return;
    if (root == cell || (r >= nn_ && r > root)) {
      parent[root] = static_cast<int16_t>(r);
      root = r;
    } else {
      parent[r] = static_cast<int16_t>(root);
    }
  };
  const int16_t* const orth = geo.ortho[cell].data();
  const int orth_count = geo.ortho_count[cell];
  for (int i = 0; i < orth_count; ++i)
    if (cells[orth[i]] == own) join(orth[i]);
  if (diagonals_connect_) {
    const auto& dg = geo.diag[cell];
    for (int i = 0; i < geo.diag_count[cell]; ++i)
      if (cells[dg[i]] == own) join(dg[i]);
  }
  const int edges = geo.edge_bits[cell];
  if (edges == 0 || !join_edges_) return;
  if (p == Player::kBlack) {
    if (edges & (1 << kSouth)) join(nn_ + kSouth);
    if (edges & (1 << kNorth)) join(nn_ + kNorth);
  } else {
    if (edges & (1 << kWest)) join(nn_ + kWest);
    if (edges & (1 << kEast)) join(nn_ + kEast);
  }
}

void SquareGame::add_link(int block, int d, Player p) {
  links_[block] = static_cast<uint8_t>(1 + 2 * d + index_of(p));
  key_ ^= geo_->link_key[(block * 2 + d) * 2 + index_of(p)];
  // `/` joins the block's south-west and north-east cells, `\` its south-east and north-west.
  if (d == 0)
    unite(block, block + n_ + 1);
  else
    unite(block + 1, block + n_);
  if (link_moves_) {
    remove_candidate(block * 2);
    remove_candidate(block * 2 + 1);
  }
}

void SquareGame::place(int cell, Player p) {
  put_stone(cell, p);
  const uint8_t own = cells_[cell];
  const auto& bl = geo_->blocks[cell];
  const int count = geo_->block_count[cell];
  if (link_moves_) {
    const uint8_t* const cells = cells_.data();
    const uint8_t* const links = links_.data();
    for (int i = 0; i < count; ++i)
      if (links[bl[i].block] == 0 && cells[bl[i].partner] == own) add_candidate(bl[i].block * 2 + bl[i].d, p);
  } else if (auto_links_) {
    // First come, first linked: only the new stone can form a new pair.
    for (int i = 0; i < count; ++i)
      if (links_[bl[i].block] == 0 && cells_[bl[i].partner] == own) add_link(bl[i].block, bl[i].d, p);
  } else if (fill_cascade_) {
    fill_cascade(cell);
  }
}

void SquareGame::fill_cascade(int cell) {
  // docs/RULES.md decision: first-in first-out from the placed stone, each cell's blocks
  // in the order SW, SE, NW, NE; a block that no longer qualifies is skipped.
  cascade_queue_.clear();
  cascade_queue_.push_back(static_cast<int16_t>(cell));
  for (size_t head = 0; head < cascade_queue_.size(); ++head) {
    const int x = cascade_queue_[head];
    const auto& xb = geo_->blocks[x];
    for (int i = 0; i < geo_->block_count[x]; ++i) {
      const BlockOfCell& b = xb[i];
      const uint8_t a1 = cells_[x], a2 = cells_[b.partner];
      const uint8_t o1 = cells_[b.other1], o2 = cells_[b.other2];
      int fill = -1;
      uint8_t colour = 0;
      if (a1 != 0 && a1 == a2) {  // x's diagonal is the pair
        if (o1 == 0 && o2 != 0 && o2 != a1) fill = b.other1, colour = a1;
        else if (o2 == 0 && o1 != 0 && o1 != a1) fill = b.other2, colour = a1;
      } else if (o1 != 0 && o1 == o2) {  // the other diagonal is the pair
        if (a2 == 0 && a1 != 0 && a1 != o1) fill = b.partner, colour = o1;
        else if (a1 == 0 && a2 != 0 && a2 != o1) fill = x, colour = o1;
      }
      if (fill >= 0) {
        put_stone(fill, static_cast<Player>(colour - 1));
        cascade_queue_.push_back(static_cast<int16_t>(fill));
      }
    }
  }
}

void SquareGame::do_swap() {
  // Swap-pieces convention (docs/RULES.md section 1): the black stone at (i, j) becomes a white
  // stone at (j, i) and Black moves next.
  const int black_cell = [&] {
    for (int i = 0; i < nn_; ++i)
      if (cells_[i] != 0) return i;
    return -1;
  }();
  const int r = black_cell / n_, c = black_cell % n_;
  SquareGame fresh(spec_);
  // The stone takes the other colour rather than always White: the same thing in every
  // reachable game, and it keeps swap commuting with the colour-swapping symmetries.
  fresh.put_stone(c * n_ + r, opponent(static_cast<Player>(cells_[black_cell] - 1)));
  cells_ = fresh.cells_;
  links_ = fresh.links_;
  parent_ = fresh.parent_;
  empties_ = fresh.empties_;
  empty_pos_ = fresh.empty_pos_;
  key_ = fresh.key_;
}

void SquareGame::after_move() {
  ++ply_;
  // unite() keeps edge nodes as roots, the higher of two as the root, and a black set never
  // holds a west or east node: the north node is always a root, so the test is one find
  // (likewise east).
  if (find(nn_ + kSouth) == nn_ + kNorth) {
    outcome_ = Outcome::kBlackWins;
  } else if (find(nn_ + kWest) == nn_ + kEast) {
    outcome_ = Outcome::kWhiteWins;
  }
  to_move_ = to_move_ == Player::kBlack ? Player::kWhite : Player::kBlack;
  must_pass_ = false;
  if (outcome_ != Outcome::kOngoing) return;
  if (diagonals_connect_ && !has_placement(to_move_)) {
    // docs/RULES.md: forfeit the turn; if neither side can place, the game is a draw.
    if (has_placement(opponent(to_move_)))
      must_pass_ = true;
    else
      outcome_ = Outcome::kDraw;
  }
}

void SquareGame::apply(int action) {
  assert(is_legal(action));
  const Player p = to_move_;
  if (action < nn_) {
    place(action, p);
  } else if (action < 3 * nn_) {
    const int d = action < 2 * nn_ ? 0 : 1;
    add_link(action - (1 + d) * nn_, d, p);
  } else if (action == swap_action()) {
    do_swap();
  }  // pass changes nothing on the board
  after_move();
}

void SquareGame::apply_keep_turn(int action) {
  const Player p = to_move_;
  apply(action);
  if (outcome_ == Outcome::kOngoing) to_move_ = p;
}

std::string SquareGame::why_illegal(int action) const {
  if (action < 0 || action >= num_actions()) return "action " + std::to_string(action) + " is not on this board";
  const std::string name = action_to_string(action);
  if (outcome_ != Outcome::kOngoing) return name + ": the game is over";
  const char* vname = variant_info(spec_.variant).name;
  if (action < nn_) {
    if (cells_[action] != 0) return name + " is occupied";
    if (must_pass_) return name + ": " + player_name(to_move_) + " has no legal placement and must pass";
    if (!placement_legal(action, to_move_)) return name + " would complete a checkerboard";
    return "";
  }
  if (action < 3 * nn_) {
    const int d = action < 2 * nn_ ? 0 : 1;
    const int block = action - (1 + d) * nn_;
    const int r = block / n_, c = block % n_;
    if (r == n_ - 1 || c == n_ - 1) return "link on block " + cell_name(block) + " is off the board";
    if (auto_links_) return name + ": links are made automatically in " + vname;
    if (!link_moves_) return name + ": " + vname + " has no link moves";
    const int a = d == 0 ? block : block + 1, b = d == 0 ? block + n_ + 1 : block + n_;
    const uint8_t own = static_cast<uint8_t>(index_of(to_move_) + 1);
    if (cells_[a] != own || cells_[b] != own) return name + ": both cells must hold " + player_name(to_move_) + " stones";
    if (links_[block] != 0) return name + ": the block already holds a link";
    return "";
  }
  if (action == swap_action()) {
    if (!spec_.swap) return std::string("swap: the pie rule is off in this game");
    if (ply_ != 1) return std::string("swap is only allowed as white's first move");
    return "";
  }
  if (!diagonals_connect_) return std::string("pass is not a move in ") + vname;
  if (!must_pass_) return std::string("pass is only allowed when no placement is legal");
  return "";
}

void SquareGame::legal_mask(uint8_t* mask) const {
  std::fill(mask, mask + num_actions(), 0);
  if (outcome_ != Outcome::kOngoing) return;
  if (must_pass_) {
    mask[pass_action()] = 1;
    return;
  }
  // Only crossway forbids some empty cells; elsewhere every empty cell is a placement.
  if (diagonals_connect_) {
    for (int16_t cell : empties_)
      if (placement_legal(cell, to_move_)) mask[cell] = 1;
  } else {
    for (int16_t cell : empties_) mask[cell] = 1;
  }
  if (link_moves_)
    for (int16_t id : candidates_[index_of(to_move_)]) mask[(1 + (id & 1)) * nn_ + (id >> 1)] = 1;
  if (swap_available()) mask[swap_action()] = 1;
}

void SquareGame::net_legal_mask(uint8_t* mask) const {
  // legal_mask() written straight into White's transposed frame (see to_net_action()).
  if (to_move_ != Player::kWhite || outcome_ != Outcome::kOngoing) {
    legal_mask(mask);
    return;
  }
  std::fill(mask, mask + num_actions(), 0);
  if (must_pass_) {
    mask[pass_action()] = 1;
    return;
  }
  const int16_t* t = geo_->transposed.data();
  if (diagonals_connect_) {
    for (int16_t cell : empties_)
      if (placement_legal(cell, to_move_)) mask[t[cell]] = 1;
  } else {
    for (int16_t cell : empties_) mask[t[cell]] = 1;
  }
  if (link_moves_)
    for (int16_t id : candidates_[index_of(to_move_)]) mask[(1 + (id & 1)) * nn_ + t[id >> 1]] = 1;
  if (swap_available()) mask[swap_action()] = 1;
}

void SquareGame::legal_actions(std::vector<int>* out) const {
  std::vector<uint8_t> mask(num_actions());
  legal_mask(mask.data());
  out->clear();
  for (int a = 0; a < num_actions(); ++a)
    if (mask[a]) out->push_back(a);
}

Outcome SquareGame::play_random_to_end(Rng& rng) {
  const bool links = link_moves_;
  const bool crossway = diagonals_connect_;
  while (outcome_ == Outcome::kOngoing) {
    const Player p = to_move_;
    if (must_pass_) {
      after_move();
      continue;
    }
    const uint32_t e = static_cast<uint32_t>(empties_.size());
    const uint32_t l = links ? static_cast<uint32_t>(candidates_[index_of(p)].size()) : 0;
    const uint32_t s = swap_available() ? 1 : 0;
    if (!crossway) {
      uint32_t k = rng.below(e + l + s);
      if (k < e) {
        place(empties_[k], p);
      } else if (k < e + l) {
        const int id = candidates_[index_of(p)][k - e];
        add_link(id >> 1, id & 1, p);
      } else {
        do_swap();
      }
      after_move();
      continue;
    }
    // Crossway: some empty cells may be forbidden; sample, and fall back to a full list
    // when rejections pile up so the choice stays uniform over legal moves.
    int chosen = -1;
    if (s == 0 || rng.below(e + 1) < e) {
      for (int tries = 0; tries < 8 && chosen < 0; ++tries) {
        const int cell = empties_[rng.below(e)];
        if (placement_legal(cell, p)) chosen = cell;
      }
      if (chosen < 0) {
        int legal[26 * 26];
        int count = 0;
        for (int16_t cell : empties_)
          if (placement_legal(cell, p)) legal[count++] = cell;
        if (count > 0) chosen = legal[rng.below(count)];
      }
    }
    if (chosen >= 0)
      place(chosen, p);
    else
      do_swap();
    after_move();
  }
  return outcome_;
}

// --- Notation -------------------------------------------------------------------------

std::string SquareGame::cell_name(int cell) const {
  return std::string(1, static_cast<char>('a' + cell % n_)) + std::to_string(cell / n_ + 1);
}

std::string SquareGame::action_to_string(int action) const {
  if (action < 0 || action >= num_actions()) return "?";
  if (action < nn_) return cell_name(action);
  if (action < 3 * nn_) {
    const int d = action < 2 * nn_ ? 0 : 1;
    const int block = action - (1 + d) * nn_;
    // Southern cell first.
    if (d == 0) return cell_name(block) + "-" + cell_name(block + n_ + 1);
    return cell_name(block + 1) + "-" + cell_name(block + n_);
  }
  return action == swap_action() ? "swap" : "pass";
}

int SquareGame::parse_action(std::string_view text, std::string* error) const {
  std::string t;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return -1;
  };
  if (t.empty()) return fail("empty move");
  if (t == "swap") return swap_action();
  if (t == "pass") return pass_action();
  // One or two cells: letter, digits, optional '-', letter, digits.
  size_t i = 0;
  auto read_cell = [&](int* c, int* r) -> bool {
    if (i >= t.size() || t[i] < 'a' || t[i] > 'z') return false;
    *c = t[i++] - 'a';
    size_t start = i;
    int row = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])) && i - start < 3) row = row * 10 + (t[i++] - '0');
    if (i == start) return false;
    *r = row - 1;
    return true;
  };
  // The kinds of move this game has, so that the message offers no link or pass it lacks.
  const std::string not_a_move = quoted_input(text) + " is not a move (expected e.g. c5" +
                                 (link_moves_ ? ", e2-f3" : "") + (spec_.swap ? ", swap" : "") +
                                 (diagonals_connect_ ? ", pass" : "") + ")";
  int c1, r1, c2, r2;
  if (!read_cell(&c1, &r1)) return fail(not_a_move);
  auto off = [&](int c, int r) { return c < 0 || r < 0 || c >= n_ || r >= n_; };
  if (i == t.size()) {
    if (off(c1, r1)) return fail(quoted_input(text) + " is off the " + std::to_string(n_) + "x" + std::to_string(n_) + " board");
    return r1 * n_ + c1;
  }
  if (t[i] == '-') ++i;
  if (!read_cell(&c2, &r2) || i != t.size()) return fail(not_a_move);
  if (off(c1, r1) || off(c2, r2))
    return fail(quoted_input(text) + " is off the " + std::to_string(n_) + "x" + std::to_string(n_) + " board");
  if (std::abs(c1 - c2) != 1 || std::abs(r1 - r2) != 1)
    return fail(quoted_input(text) + ": a link joins two diagonally adjacent cells");
  const int bc = std::min(c1, c2), br = std::min(r1, r2);
  const int d = ((c2 - c1) == (r2 - r1)) ? 0 : 1;
  return link_action(bc, br, d);
}

std::vector<std::string> SquareGame::stones_of(Player p) const {
  std::vector<std::string> out;
  for (int cell = 0; cell < nn_; ++cell)
    if (stone_at(cell) == p) out.push_back(cell_name(cell));
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
    help += ", or swap (black's " + cell_name(stone) + " becomes your " + cell_name((stone % n_) * n_ + stone / n_) + ")";
  }
  return help + ".";
}

// --- Network view ---------------------------------------------------------------------

std::vector<std::string> SquareGame::plane_names() const {
  return {"own_stones", "opponent_stones", "own_links_slash", "own_links_backslash",
          "opponent_links_slash", "opponent_links_backslash", "swap_available", "ones"};
}

void SquareGame::encode(float* planes) const {
  // This feeds every network call, so it avoids data-dependent branches: clear the six
  // board planes, then each cell stores one 1.0f per plane lookup, where an empty cell (or a
  // block without a link) stores into plane 6 instead, which is written last.
  // White moves in the transposed frame, so its pass reads the board through the transpose
  // table; a transpose keeps each diagonal's orientation.
  const int mover = index_of(to_move_ == Player::kNone ? Player::kBlack : to_move_);
  std::memset(planes, 0, sizeof(float) * 6 * nn_);  // all-zero bytes are 0.0f
  // By cells_ value (0 empty, 1 black, 2 white) and by links_ value (0 none, 1 + 2d + player).
  int stone_plane[3] = {6 * nn_, 0, 0};
  int link_plane[5] = {6 * nn_, 0, 0, 0, 0};
  for (int pl = 0; pl < 2; ++pl) {
    const bool mine = pl == mover;
    stone_plane[1 + pl] = (mine ? 0 : 1) * nn_;
    for (int d = 0; d < 2; ++d) link_plane[1 + 2 * d + pl] = (2 + (mine ? 0 : 2) + d) * nn_;
  }
  const uint8_t* const cells = cells_.data();
  const uint8_t* const links = links_.data();
  if (to_move_ == Player::kWhite) {
    const int16_t* const t = geo_->transposed.data();
    for (int i = 0; i < nn_; ++i) {
      planes[stone_plane[cells[t[i]]] + i] = 1.0f;
      planes[link_plane[links[t[i]]] + i] = 1.0f;
    }
  } else {
    for (int i = 0; i < nn_; ++i) {
      planes[stone_plane[cells[i]] + i] = 1.0f;
      planes[link_plane[links[i]] + i] = 1.0f;
    }
  }
  // Constant planes copied from a table of ones: a plain fill loop of floats is not
  // vectorized at -O2 and cost as much as the rest of encode().
  static const std::vector<float> kOnes(26 * 26, 1.0f);
  if (swap_available())
    std::memcpy(planes + 6 * nn_, kOnes.data(), sizeof(float) * nn_);
  else
    std::memset(planes + 6 * nn_, 0, sizeof(float) * nn_);
  std::memcpy(planes + 7 * nn_, kOnes.data(), sizeof(float) * nn_);
}

std::string SquareGame::net_frame_note() const {
  return "index plane * N * N + row * N + column (row 0 = rank 1, the south edge; column 0 = file a; a link is "
         "named by its block's south-west cell); when White is to move the board is transposed (row and column "
         "swapped; a link keeps its plane), so the mover always connects south-north";
}

int SquareGame::to_net_action(int a) const {
  if (to_move_ != Player::kWhite || outcome_ != Outcome::kOngoing || a >= kSpatialPlanes * nn_) return a;
  const int plane = a / nn_, idx = a % nn_;
  return plane * nn_ + (idx % n_) * n_ + idx / n_;
}

int SquareGame::from_net_action(int a) const { return to_net_action(a); }  // a transpose undoes itself

uint64_t SquareGame::turn_key() const {
  uint64_t k = mix64(static_cast<uint64_t>(index_of(to_move()) + 2) * 0x1234567ULL);
  if (swap_available()) k ^= 0x5A5A5A5A12345678ULL;
  return k;
}

std::unique_ptr<SquareGame> SquareGame::from_position(const GameSpec& spec, const std::vector<Player>& stones,
                                                      const std::vector<std::array<int, 3>>& links,
                                                      Player mover, int ply) {
  auto g = std::make_unique<SquareGame>(spec);
  for (int cell = 0; cell < g->nn_; ++cell)
    if (stones[cell] != Player::kNone) g->put_stone(cell, stones[cell]);
  for (const auto& l : links) g->add_link(l[0], l[1], static_cast<Player>(l[2]));
  if (g->link_moves_) {
    for (int block = 0; block < g->nn_; ++block) {
      const int r = block / g->n_, c = block % g->n_;
      if (r == g->n_ - 1 || c == g->n_ - 1 || g->links_[block] != 0) continue;
      for (int d = 0; d < 2; ++d) {
        const int a = d == 0 ? block : block + 1, b = d == 0 ? block + g->n_ + 1 : block + g->n_;
        if (g->cells_[a] != 0 && g->cells_[a] == g->cells_[b]) g->add_candidate(block * 2 + d, static_cast<Player>(g->cells_[a] - 1));
      }
    }
  }
  // after_move() advances the ply and flips the mover: set them one step back.
  g->ply_ = ply - 1;
  g->to_move_ = opponent(mover);
  g->after_move();
  return g;
}

std::vector<CellOwnership> SquareGame::final_ownership() const {
  if (outcome_ == Outcome::kOngoing) return {};
  std::vector<CellOwnership> out(nn_);
  for (int cell = 0; cell < nn_; ++cell) out[cell].owner = stone_at(cell);
  const Player winner = winner_of(outcome_);
  if (winner == Player::kNone) return out;
  // The game's own unions (stones, automatic and chosen links) replayed on a board whose
  // edge nodes join nothing: the game's union-find has merged every group touching an edge
  // into that edge's set, so it no longer tells the groups apart.
  SquareGame groups(spec_);
  groups.join_edges_ = false;
  for (int cell = 0; cell < nn_; ++cell)
    if (out[cell].owner != Player::kNone) groups.put_stone(cell, out[cell].owner);
  for (int block = 0; block < nn_; ++block)
    if (links_[block] != 0) groups.add_link(block, (links_[block] - 1) / 2, static_cast<Player>((links_[block] - 1) % 2));
  std::vector<uint8_t> reached(nn_, 0);  // per group root: the edge bits its stones touch
  for (int cell = 0; cell < nn_; ++cell)
    if (out[cell].owner == winner) reached[groups.find(cell)] |= geo_->edge_bits[cell];
  const int goal = winner == Player::kBlack ? (1 << kSouth | 1 << kNorth) : (1 << kWest | 1 << kEast);
  for (int cell = 0; cell < nn_; ++cell)
    out[cell].on_chain = out[cell].owner == winner && (reached[groups.find(cell)] & goal) == goal;
  return out;
}

int SquareGame::num_net_symmetries() const { return static_cast<int>(kGoalKeepingSymmetries.size()); }

void SquareGame::transform_net_planes(int sym, const float* in, float* out) const {
  transform_planes(Symmetry::from_index(kGoalKeepingSymmetries.at(sym)), n_, square_input_planes(), in, out);
}

void SquareGame::transform_net_policy(int sym, const float* in, float* out) const {
  transform_policy(Symmetry::from_index(kGoalKeepingSymmetries.at(sym)), n_, square_action_planes(),
                   extra_actions(), in, out);
}

void SquareGame::transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const {
  transform_policy(Symmetry::from_index(kGoalKeepingSymmetries.at(sym)), n_, square_action_planes(),
                   extra_actions(), in, out);
}

}  // namespace quax
