// Constants the search tree's two files share (search_tree.cpp: the tree, PUCT and the move;
// search_tree_gumbel.cpp: the Gumbel root's sequential halving and completed-Q). Not for
// other files.
#pragma once

namespace quax::search_tree_internal {

constexpr float kTinyPrior = 1e-30f;  // log() of a prior that underflowed to 0
// The floor of a Gumbel root score: a logit of -inf (an underflowed prior) still compares.
constexpr float kLowestScore = -1e9f;
// The smallest spread of the Q values that completed-Q rescales by (mctx's epsilon): with all
// Q equal, every sigma is 0 rather than 0/0.
constexpr float kMinQSpread = 1e-8f;

}  // namespace quax::search_tree_internal
