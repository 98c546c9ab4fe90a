#include "env/square_game.h"
#include "env/move_text.h"
#include "env/ownership.h"
#include "env/rng.h"

#include <algorithm>
#include <cassert>

#include "env/size_cache.h"
#include "env/square_geometry.h"
#include "env/union_find.h"

namespace quax {

using square_edge::kEast;
using square_edge::kNorth;
using square_edge::kSouth;
using square_edge::kWest;

SquareGame::SquareGame(const GameSpec& spec) : TurnTakingGame(spec), geo_(table_for_size<Geometry>(spec.size)) {
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
  copy_turn_from(o);
  must_pass_ = o.must_pass_;
  key_ = o.key_;
}

// --- Union-find ---------------------------------------------------------------------

// A raw pointer: the byte stores around every call may alias the vector's own fields, so
// going through parent_[] would reload its data pointer at each step.
inline int SquareGame::find(int x) const { return find_root(parent_.data(), x); }

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
    if (r == n_ - 1 || c == n_ - 1) return "link on block " + cell_name(block, n_) + " is off the board";
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
  // The game's own unions (stones, automatic and chosen links) replayed on a board whose edge
  // nodes join nothing (edge_chain_ownership, env/ownership.h).
  SquareGame groups(spec_);
  groups.join_edges_ = false;
  for (int cell = 0; cell < nn_; ++cell)
    if (cells_[cell] != 0) groups.put_stone(cell, stone_at(cell));
  for (int block = 0; block < nn_; ++block)
    if (links_[block] != 0) groups.add_link(block, (links_[block] - 1) / 2, static_cast<Player>((links_[block] - 1) % 2));
  return edge_chain_ownership(n_, outcome_, [&](int cell) { return stone_at(cell); }, nn_,
                              [&](int cell) { return groups.find(cell); });
}

}  // namespace quax
