// SquareGame's network view (env/game_state.h): input planes, the transposed frame White
// moves in, and the goal-keeping symmetries for augmentation. (net_legal_mask stays with the
// rules in square_game.cpp, beside the inline placement test it calls.)
#include <algorithm>
#include <cstring>
#include <vector>

#include "env/square_geometry.h"
#include "env/symmetry.h"

namespace quax {

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
