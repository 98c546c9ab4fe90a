#include "env/hex_game.h"
#include "core/quoted_input.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstring>
#include <stdexcept>

#include "env/move_text.h"
#include "env/rng.h"
#include "env/union_find.h"

namespace quax {

namespace {
// What one won game adds to each of its cells in the won-games planes of encode().
float won_game_weight(const HexGeometry& geo) { return 1.0f / static_cast<float>(geo.depth + 1); }
}  // namespace

HexGame::HexGame(const GameSpec& spec) : TurnTakingGame(spec), geo_(HexGeometry::get(spec.variant, spec.size)) {
  assert(is_hex_variant(spec.variant));
  cells_.assign(nn_, 0);
  parent_.resize(geo_->num_nodes);
  for (int i = 0; i < geo_->num_nodes; ++i) parent_[i] = static_cast<int16_t>(i);
  sides_.assign(geo_->num_nodes, 0);
  for (const auto& m : geo_->members) sides_[m.node] = m.sides;
  game_winner_.assign(geo_->games.size(), -1);
  empty_pos_.assign(nn_, -1);
  for (int16_t cell : geo_->board_cells) {
    empty_pos_[cell] = static_cast<int16_t>(empties_.size());
    empties_.push_back(cell);
  }
}

void HexGame::copy_from(const GameState& other) {
  const auto& o = static_cast<const HexGame&>(other);
  assert(o.spec_ == spec_);
  cells_ = o.cells_;
  parent_ = o.parent_;
  sides_ = o.sides_;
  game_winner_ = o.game_winner_;
  empties_ = o.empties_;
  empty_pos_ = o.empty_pos_;
  points_[0] = o.points_[0];
  points_[1] = o.points_[1];
  copy_turn_from(o);
  key_ = o.key_;
}

inline int HexGame::find(int x) const { return find_root(parent_.data(), x); }

void HexGame::place(int cell, Player p) {
  const HexGeometry& geo = *geo_;
  uint8_t* const cells = cells_.data();
  int16_t* const parent = parent_.data();
  uint8_t* const sides = sides_.data();
  const int pi = index_of(p);
  const uint8_t own = static_cast<uint8_t>(pi + 1);
  cells[cell] = own;
  key_ ^= geo.stone_key[cell * 2 + pi];
  const int pos = empty_pos_[cell];
  const int16_t last = empties_.back();
  empties_[pos] = last;
  empty_pos_[last] = static_cast<int16_t>(pos);
  empties_.pop_back();
  empty_pos_[cell] = -1;

  // In each game holding the cell, join the new stone's node with its same-colour
  // neighbours; a game is won when the joined group reaches the player's goal sides.
  const uint8_t goal = geo.goal[pi];
  for (int k = geo.member_begin[cell]; k < geo.member_begin[cell + 1]; ++k) {
    const HexGeometry::Member& m = geo.members[k];
    int root = m.node;  // a fresh node: its own root, sides from the geometry
    uint8_t reached = m.sides;
    for (int i = 0; i < m.count; ++i) {
      if (cells[m.nb_cell[i]] != own) continue;
      const int r = find(m.nb_node[i]);
      if (r == root) continue;
      parent[root] = static_cast<int16_t>(r);
      reached |= sides[r];
      root = r;
    }
    sides[root] = reached;
    if ((reached & goal) == goal && game_winner_[m.game] < 0) {
      game_winner_[m.game] = static_cast<int8_t>(pi);
      ++points_[pi];
    }
  }
}

void HexGame::do_swap() {
  const int stone_cell = [&] {
    for (int16_t cell : geo_->board_cells)
      if (cells_[cell] != 0) return static_cast<int>(cell);
    return -1;
  }();
  const Player was = stone(stone_cell);
  const int target = geo_->triangle ? stone_cell : geo_->transposed[stone_cell];
  HexGame fresh(spec_);
  // The other colour rather than always White: the same in every reachable game, and it
  // keeps swap commuting with recolouring.
  fresh.place(target, opponent(was));
  cells_ = fresh.cells_;
  parent_ = fresh.parent_;
  sides_ = fresh.sides_;
  game_winner_ = fresh.game_winner_;
  empties_ = fresh.empties_;
  empty_pos_ = fresh.empty_pos_;
  points_[0] = fresh.points_[0];
  points_[1] = fresh.points_[1];
  key_ = fresh.key_;
}

void HexGame::after_move() {
  ++ply_;
  // Only the mover can have gained points, but checking both keeps from_position() simple.
  if (points_[0] >= geo_->points_to_win)
    outcome_ = Outcome::kBlackWins;
  else if (points_[1] >= geo_->points_to_win)
    outcome_ = Outcome::kWhiteWins;
  to_move_ = opponent(to_move_);
  // Hex and Y cannot fill the board without a winner; docs/RULES.md section 1 wants an engine
  // that meets such a position to say so rather than invent a result.
  if (outcome_ == Outcome::kOngoing && empties_.empty())
    throw std::logic_error(describe(spec_) + ": the board is full and no player has " +
                           std::to_string(geo_->points_to_win) + " points");
}

void HexGame::apply(int action) {
  assert(is_legal(action));
  if (action < nn_)
    place(action, to_move_);
  else
    do_swap();
  after_move();
}

std::string HexGame::why_illegal(int action) const {
  if (action < 0 || action > nn_) return "action " + std::to_string(action) + " is not on this board";
  if (action < nn_ && !geo_->on_board[action])
    return cell_name(action, n_) + " is off the triangle (row " + std::to_string(action / n_ + 1) + " has columns a.." +
           column_letter(action / n_) + ")";
  const std::string name = action_to_string(action);
  if (outcome_ != Outcome::kOngoing) return name + ": the game is over";
  if (action < nn_) return cells_[action] != 0 ? name + " is occupied" : "";
  if (!spec_.swap) return "swap: the pie rule is off in this game";
  if (ply_ != 1) return "swap is only allowed as white's first move";
  return "";
}

void HexGame::legal_mask(uint8_t* mask) const {
  std::fill(mask, mask + nn_ + 1, 0);
  if (outcome_ != Outcome::kOngoing) return;
  for (int16_t cell : empties_) mask[cell] = 1;
  if (swap_available()) mask[nn_] = 1;
}

void HexGame::legal_actions(std::vector<int>* out) const {
  out->clear();
  if (outcome_ != Outcome::kOngoing) return;
  for (int16_t cell : empties_) out->push_back(cell);
  std::sort(out->begin(), out->end());
  if (swap_available()) out->push_back(nn_);
}

Outcome HexGame::play_random_to_end(Rng& rng) {
  while (outcome_ == Outcome::kOngoing) {
    const uint32_t e = static_cast<uint32_t>(empties_.size());
    const uint32_t k = rng.below(e + (swap_available() ? 1 : 0));
    if (k < e)
      place(empties_[k], to_move_);
    else
      do_swap();
    after_move();
  }
  return outcome_;
}

// --- Notation: the same on both shapes, column letter x, row y + 1 ---------------------------

std::string HexGame::action_to_string(int action) const {
  if (action < 0 || action > nn_) return "?";
  return action == nn_ ? "swap" : cell_name(action, n_);
}

int HexGame::parse_action(std::string_view text, std::string* error) const {
  const std::string t = move_text(text);
  if (t == "swap") return nn_;
  if (t.size() < 2 || t.size() > 3 || t[0] < 'a' || t[0] > 'z' ||
      !std::all_of(t.begin() + 1, t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return not_a_move(error, quoted_input(text) + " is not a move (expected e.g. c5 or swap)");
  const int x = t[0] - 'a', y = std::stoi(t.substr(1)) - 1;
  if (x >= n_ || y < 0 || y >= n_)
    return not_a_move(error, geo_->triangle ? quoted_input(text) + " is off the triangle of side " + std::to_string(n_)
                                            : off_board(text, n_));
  if (!geo_->on_board[y * n_ + x])
    return not_a_move(error, quoted_input(text) + " is off the triangle (row " + std::to_string(y + 1) +
                                 " has columns a.." + column_letter(y) + ")");
  return y * n_ + x;
}

std::vector<std::string> HexGame::stones_of(Player p) const {
  std::vector<std::string> out;
  for (int16_t cell : geo_->board_cells)
    if (p != Player::kNone && stone(cell) == p) out.push_back(cell_name(cell, n_));
  return out;
}

// --- Network view ------------------------------------------------------------------------

std::vector<std::string> HexGame::plane_names() const {
  return {"own_stones", "opponent_stones", "swap_available", "on_board",
          "subgame_borders", "own_won_games", "opponent_won_games"};
}

void HexGame::encode(float* planes) const {
  // Feeds every network call: constant planes are copied from the geometry, and the stone
  // loop stores into a throwaway slot for empty cells instead of branching.
  const HexGeometry& geo = *geo_;
  const int mover = index_of(to_move_ == Player::kNone || outcome_ != Outcome::kOngoing ? Player::kBlack : to_move_);
  const bool flip = !geo.triangle && mover == 1;
  std::memset(planes, 0, sizeof(float) * 2 * nn_);
  std::memset(planes + 5 * nn_, 0, sizeof(float) * 2 * nn_);
  // By cells_ value (0 empty, 1 black, 2 white): the plane offset; empty cells write plane 5,
  // which is cleared again below before the won games are added.
  const int offset[3] = {5 * nn_, mover == 0 ? 0 : nn_, mover == 0 ? nn_ : 0};
  const uint8_t* const cells = cells_.data();
  if (flip) {
    const int16_t* const t = geo.transposed.data();
    for (int16_t cell : geo.board_cells) planes[offset[cells[cell]] + t[cell]] = 1.0f;
  } else {
    for (int16_t cell : geo.board_cells) planes[offset[cells[cell]] + cell] = 1.0f;
  }
  std::memset(planes + 5 * nn_, 0, sizeof(float) * nn_);
  if (swap_available())
    std::memcpy(planes + 2 * nn_, geo.on_board_plane.data(), sizeof(float) * nn_);
  else
    std::memset(planes + 2 * nn_, 0, sizeof(float) * nn_);
  std::memcpy(planes + 3 * nn_, geo.on_board_plane.data(), sizeof(float) * nn_);
  std::memcpy(planes + 4 * nn_, geo.border_plane.data(), sizeof(float) * nn_);
  const float weight = won_game_weight(geo);
  for (size_t g = 0; g < geo.games.size(); ++g) {
    if (game_winner_[g] < 0) continue;
    float* plane = planes + (game_winner_[g] == mover ? 5 : 6) * nn_;
    for (int16_t cell : geo.games[g].cells) plane[flip ? geo.transposed[cell] : cell] += weight;
  }
}

float HexGame::max_plane_value(const GameSpec& spec) {
  const auto geo = HexGeometry::get(spec.variant, spec.size);
  std::vector<int> games_of(static_cast<size_t>(geo->nn), 0);
  int most = 0;
  for (const auto& game : geo->games)
    for (int16_t cell : game.cells) most = std::max(most, ++games_of[cell]);
  // Added up in float as encode() adds them, so that rounding cannot put a value above it.
  float sum = 0.0f;
  for (int i = 0; i < most; ++i) sum += won_game_weight(*geo);
  return std::max(1.0f, sum);
}

std::string HexGame::net_frame_note() const {
  if (geo_->triangle)
    return "index y * N + x on an N x N grid holding the triangle (x = column - 1 along the base, y = row - 1 "
           "counted from the apex; cells with x > y are off the board); the network frame is the board frame";
  return "index y * N + x (x = column, 0 = file a; y = row - 1, row 1 the south edge); when White is to move "
         "the board is transposed (x and y swapped), so the mover always connects south-north";
}

int HexGame::to_net_action(int a) const {
  if (geo_->triangle || to_move_ != Player::kWhite || outcome_ != Outcome::kOngoing || a >= nn_) return a;
  return geo_->transposed[a];
}

void HexGame::net_legal_mask(uint8_t* mask) const {
  // legal_mask() written straight into the network frame (see to_net_action()).
  std::fill(mask, mask + nn_ + 1, 0);
  if (outcome_ != Outcome::kOngoing) return;
  const bool flip = !geo_->triangle && to_move_ == Player::kWhite;
  const int16_t* const t = geo_->transposed.data();
  for (int16_t cell : empties_) mask[flip ? t[cell] : cell] = 1;
  if (swap_available()) mask[nn_] = 1;
}

void HexGame::transform_net_planes(int sym, const float* in, float* out) const {
  const auto& map = geo_->symmetries.at(sym);
  for (int p = 0; p < kNumPlanes; ++p)
    for (int i = 0; i < nn_; ++i) out[p * nn_ + map[i]] = in[p * nn_ + i];
}

void HexGame::transform_net_policy(int sym, const float* in, float* out) const {
  const auto& map = geo_->symmetries.at(sym);
  for (int i = 0; i < nn_; ++i) out[map[i]] = in[i];
  out[nn_] = in[nn_];
}

void HexGame::transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const {
  const auto& map = geo_->symmetries.at(sym);
  for (int i = 0; i < nn_; ++i) out[map[i]] = in[i];
  out[nn_] = in[nn_];
}

uint64_t HexGame::position_key() const {
  uint64_t k = mix64(static_cast<uint64_t>(index_of(to_move()) + 2));
  if (swap_available()) k ^= 0xC3A5C85C97CB3127ULL;
  return key_ ^ k;
}

std::vector<CellOwnership> HexGame::final_ownership() const {
  if (outcome_ == Outcome::kOngoing) return {};
  std::vector<CellOwnership> out(nn_);
  for (int16_t cell : geo_->board_cells) out[cell].owner = stone(cell);
  const Player winner = winner_of(outcome_);
  if (winner == Player::kNone) return out;
  // The union-find has a node per (game, cell) and no edge nodes: each root's side bits are
  // those of its group of stones in that game.
  const int wi = index_of(winner);
  const uint8_t goal = geo_->goal[wi];
  for (int16_t cell : geo_->board_cells) {
    if (out[cell].owner != winner) continue;
    for (int k = geo_->member_begin[cell]; k < geo_->member_begin[cell + 1]; ++k) {
      const HexGeometry::Member& m = geo_->members[k];
      if (game_winner_[m.game] == wi && (sides_[find(m.node)] & goal) == goal) out[cell].on_chain = true;
    }
  }
  return out;
}

std::unique_ptr<HexGame> HexGame::from_position(const GameSpec& spec, const std::vector<Player>& stones,
                                                Player mover, int ply) {
  auto g = std::make_unique<HexGame>(spec);
  for (int16_t cell : g->geo_->board_cells)
    if (stones[cell] != Player::kNone) g->place(cell, stones[cell]);
  // after_move() advances the ply and flips the mover: set them one step back.
  g->ply_ = ply - 1;
  g->to_move_ = opponent(mover);
  g->after_move();
  return g;
}

}  // namespace quax
