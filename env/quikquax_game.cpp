#include "env/quikquax_game.h"
#include "core/quoted_input.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "env/rng.h"
#include "env/symmetry.h"

namespace quax {

namespace {

const char* const kQuadrantNames[4] = {"south-west", "south-east", "north-west", "north-east"};

// SquareGame's planes, then used_quadrants (cells) and next_turn_quota (constant).
const std::vector<PlaneSpec>& input_planes() {
  static const std::vector<PlaneSpec> planes = [] {
    std::vector<PlaneSpec> p = square_input_planes();
    p.push_back(PlaneSpec{PlaneKind::kCell, -1});
    p.push_back(PlaneSpec{PlaneKind::kConstant, -1});
    return p;
  }();
  return planes;
}

const std::vector<PlaneSpec>& action_planes() {
  static const std::vector<PlaneSpec> planes = {PlaneSpec{PlaneKind::kCell, -1}};
  return planes;
}

// The board: the shipped one-stone square variant whose cross-cuts are settled as these
// rules settle them (quickway for quikquax), without swap.
GameSpec board_spec(const GameSpec& spec) {
  const Rules& mine = variant_info(spec.variant).rules;
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int i = 0; i < count; ++i) {
    const VariantInfo& v = all[i];
    if (v.shape == BoardShape::kSquare && v.turns == TurnRule::kOneAction && v.rules.diagonal == mine.diagonal &&
        v.rules.fourth_point == mine.fourth_point)
      return GameSpec{v.variant, spec.size, false};
  }
  assert(false && "check_rules admits no schedule without a one-stone board");
  return GameSpec{Variant::kQuickway, spec.size, false};
}

}  // namespace

QuikQuaxGame::QuikQuaxGame(const GameSpec& spec)
    : BoardGame(spec),
      rules_(&variant_info(spec.variant).rules),
      one_per_quadrant_(rules_->one_stone_per_quadrant),
      cascade_(variant_info(spec.variant).fill_cascade),
      board_(board_spec(spec)) {
  assert(!one_per_quadrant_ || spec.size % 2 == 0);
  const auto& counts = rules_->stones_per_turn;
  quota_scale_ = 1.0f / static_cast<float>(*std::max_element(counts.begin(), counts.end()));
  // From turn L-2 on (L counts written), the next turn's quota is the repeating last one.
  key_turns_ = std::max(static_cast<int>(counts.size()) - 2, 0);
  stones_left_ = quota(0);
  count_empty_quadrant_cells();
}

void QuikQuaxGame::count_empty_quadrant_cells() {
  empty_in_quadrant_.fill(0);
  for (int cell = 0; cell < nn_; ++cell)
    if (board_.stone(cell % n_, cell / n_) == Player::kNone) ++empty_in_quadrant_[quadrant_of(cell)];
}

void QuikQuaxGame::copy_from(const GameState& other) {
  const auto& o = static_cast<const QuikQuaxGame&>(other);
  board_.copy_from(o.board_);
  turn_ = o.turn_;
  stones_left_ = o.stones_left_;
  used_ = o.used_;
  empty_in_quadrant_ = o.empty_in_quadrant_;
}

bool QuikQuaxGame::turn_can_continue() const {
  if (stones_left_ == 0) return false;
  for (int q = 0; q < 4; ++q)
    if (quadrant_open(q) && empty_in_quadrant_[q] > 0) return true;
  return false;
}

std::string QuikQuaxGame::why_illegal(int action) const {
  if (action < 0 || action >= nn_) return "action " + std::to_string(action) + " is not on this board";
  const std::string name = action_to_string(action);
  if (is_over()) return name + ": the game is over";
  if (board_.stone(action % n_, action / n_) != Player::kNone) return name + " is occupied";
  const int q = quadrant_of(action);
  if (!quadrant_open(q))
    return name + ": the " + kQuadrantNames[q] + " quadrant already holds a stone of this turn";
  return "";
}

void QuikQuaxGame::legal_mask(uint8_t* mask) const {
  std::fill(mask, mask + nn_, 0);
  if (is_over()) return;
  for (int cell = 0; cell < nn_; ++cell)
    mask[cell] = quadrant_open(quadrant_of(cell)) && board_.stone(cell % n_, cell / n_) == Player::kNone;
}

void QuikQuaxGame::apply(int action) {
  assert(is_legal(action));
  const int q = quadrant_of(action);
  if (one_per_quadrant_) used_ |= 1 << q;
  --stones_left_;
  // The turn goes on or ends by the cells left after the move: a cascade (quadrex) may fill
  // the last empty cells of the quadrants still open to this turn.
  board_.apply_keep_turn(action);
  if (cascade_)
    count_empty_quadrant_cells();
  else
    --empty_in_quadrant_[q];
  if (turn_can_continue()) return;
  if (!board_.is_over()) board_.hand_over_turn();
  ++turn_;
  stones_left_ = quota(turn_);
  used_ = 0;
}

Outcome QuikQuaxGame::play_random_to_end(Rng& rng) {
  std::vector<int> legal;
  while (!is_over()) {
    // Rejection sampling is uniform over the legal cells; a full list only when it misses.
    int chosen = -1;
    for (int tries = 0; tries < 16 && chosen < 0; ++tries) {
      const int cell = static_cast<int>(rng.below(static_cast<uint32_t>(nn_)));
      if (quadrant_open(quadrant_of(cell)) && board_.stone(cell % n_, cell / n_) == Player::kNone) chosen = cell;
    }
    if (chosen < 0) {
      legal_actions(&legal);
      chosen = legal[rng.below(static_cast<uint32_t>(legal.size()))];
    }
    apply(chosen);
  }
  return outcome();
}

int QuikQuaxGame::parse_action(std::string_view text, std::string* error) const {
  const int a = board_.parse_action(text, error);
  if (a < 0) return -1;
  if (a >= nn_) {
    if (error)
      *error = quoted_input(text) + ": " + rules_->name + " has only stone placements (" +
               (rules_->diagonal == LinkRule::kAutomatic ? "links are automatic, " : "") + "no swap)";
    return -1;
  }
  return a;
}

namespace {

// "quikquax turn 3: 2 stones left, quadrants used: south-west", the turn under way.
std::string turn_words(const std::string& name, int turn, int stones_left, int used) {
  std::string words = name + " turn " + std::to_string(turn + 1) + ": " + std::to_string(stones_left) + " stone" +
                      (stones_left == 1 ? "" : "s") + " left";
  if (used != 0) {
    words += ", quadrants used:";
    for (int q = 0; q < 4; ++q)
      if (used & (1 << q)) words += std::string(" ") + kQuadrantNames[q];
  }
  return words;
}

}  // namespace

std::string QuikQuaxGame::board_text() const {
  std::string text = board_.board_text();
  if (!is_over()) text += "\n" + turn_words(rules_->name, turn_, stones_left_, used_);
  return text;
}

std::string QuikQuaxGame::status_line() const {
  if (is_over()) return board_.status_line();
  return board_.status_line() + ", " + turn_words(rules_->name, turn_, stones_left_, used_);
}

std::string QuikQuaxGame::move_help() const {
  if (is_over()) return "No moves: the game is over.";
  const std::string left = std::to_string(stones_left_) + " stone" + (stones_left_ == 1 ? "" : "s") + " left this turn";
  const std::string board = rules_->diagonal == LinkRule::kAutomatic
                                ? "a stone links itself to each of your stones diagonal to it in a block without a link."
                                : "a cross-cut's fourth cell is filled for the player whose diagonal it blocks.";
  if (!one_per_quadrant_) return "Moves: a stone on an empty cell (e.g. a1), " + left + "; " + board;
  return std::string("Moves: a stone on an empty cell (e.g. a1) in a quadrant ") +
         (used_ == 0 ? "of your choice" : "not used yet this turn") + ", " + left + ", each in another quadrant; " +
         board;
}

std::vector<std::string> QuikQuaxGame::plane_names() const {
  std::vector<std::string> names = board_.plane_names();
  names[6] = "stones_left_this_turn";  // stones left / 4, constant
  names.push_back("used_quadrants");    // 1 on the cells of quadrants used this turn
  names.push_back("next_turn_quota");   // the opponent's next quota / 4, constant
  return names;
}

void QuikQuaxGame::encode(float* planes) const {
  board_.encode(planes);
  auto fill = [&](int plane, float v) { std::fill(planes + plane * nn_, planes + (plane + 1) * nn_, v); };
  fill(6, static_cast<float>(stones_left_) * quota_scale_);
  float* used = planes + 8 * nn_;
  // The network frame is transposed for White: read each net cell's board cell.
  for (int i = 0; i < nn_; ++i) used[i] = (used_ & (1 << quadrant_of(board_.from_net_action(i)))) ? 1.0f : 0.0f;
  fill(9, static_cast<float>(quota(turn_ + 1)) * quota_scale_);
}

void QuikQuaxGame::transform_net_planes(int sym, const float* in, float* out) const {
  transform_planes(Symmetry::from_index(kGoalKeepingSymmetries.at(sym)), n_, input_planes(), in, out);
}

void QuikQuaxGame::transform_net_policy(int sym, const float* in, float* out) const {
  transform_policy(Symmetry::from_index(kGoalKeepingSymmetries.at(sym)), n_, action_planes(), 0, in, out);
}

void QuikQuaxGame::transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const {
  transform_policy(Symmetry::from_index(kGoalKeepingSymmetries.at(sym)), n_, action_planes(), 0, in, out);
}

uint64_t QuikQuaxGame::position_key() const {
  // The turns completed count only while they change the schedule ahead (quikquax: the first).
  uint64_t k = static_cast<uint64_t>(stones_left_) | static_cast<uint64_t>(used_) << 4 |
               static_cast<uint64_t>(std::min(turn_, key_turns_)) << 8;
  return board_.position_key() ^ mix64(k);
}

}  // namespace quax
