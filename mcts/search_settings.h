// The knobs of one search (PUCT or Gumbel root), shared by the tree, the agents and the
// multi-game driver. Defaults follow AlphaZero / KataGo / the Gumbel paper where they exist.
#pragma once

#include <string>

namespace quax {

enum class RootRule {
  kPuct,    // PUCT everywhere, Dirichlet noise at the root, visit counts as the policy target
  kGumbel,  // Gumbel-top-k + sequential halving at the root, completed-Q improved policy
};

struct SearchSettings {
  RootRule root_rule = RootRule::kPuct;
  // Simulations per move; each adds exactly one visit below the root. With tree reuse
  // (PUCT only) visits carried over from the previous move count towards it.
  int simulations = 200;

  // --- PUCT -------------------------------------------------------------------------
  float c_puct = 1.25f;
  // First-play urgency (KataGo): an unvisited child is valued at the parent's value minus
  // fpu_reduction * sqrt(sum of the priors of the visited children).
  float fpu_reduction = 0.2f;
  float root_fpu_reduction = 0.1f;
  // Dirichlet noise at the root: alpha = dirichlet_alpha_total / number of legal actions
  // (KataGo's scaling); fraction 0 turns it off (evaluation, play).
  float dirichlet_alpha_total = 10.0f;
  float dirichlet_fraction = 0.0f;
  // Keep the subtree of the played move for the next search (PUCT only; Gumbel restarts,
  // because sequential halving is defined on a fresh root, as in mctx).
  bool reuse_tree = true;
  // A search for a move (the GTP engine, play, single-game agents; PUCT) ends once its most
  // visited move can no longer be overtaken by the simulations left (SearchTree::move_settled):
  // the same move sooner. Searches whose visits are shown or learnt from run their budget.
  bool stop_when_settled = true;
  // Forced playouts and policy target pruning (KataGo, Wu 2019, section 3.1), in searches
  // with root noise (self-play) only: a root child c with fewer than
  // sqrt(k * P(c) * total root visits) visits is chosen before PUCT is asked, and the policy
  // target then takes those extra visits back from every child but the most visited one, as
  // far as PUCT would not have preferred that child anyway; a child left with one visit is
  // dropped from the target. k = forced_playouts_k (KataGo: 2); 0 turns both off.
  float forced_playouts_k = 0.0f;

  // --- Batching ---------------------------------------------------------------------
  // Leaves one tree may put into one evaluator batch, kept apart by virtual loss.
  int leaves_per_batch = 1;
  // Each pending leaf counts as this many losses on its path until its value arrives.
  float virtual_loss = 1.0f;

  // --- Gumbel (Danihelka et al. 2022; names as in mctx) -----------------------------
  int gumbel_m = 16;             // actions sampled at the root (max_num_considered_actions)
  float gumbel_c_visit = 50.0f;  // sigma(q) = (c_visit + max_b N(b)) * c_scale * q
  float gumbel_c_scale = 1.0f;   // the paper's value; mctx's default value_scale is 0.1
  bool gumbel_noise = true;      // false: no Gumbel sample (deterministic, for evaluation)

  // --- The move, for the levels below full strength (mcts/play_levels.h) --------------
  // >= 0: the move is the network's, not the search's: drawn from the root's priors raised
  // to 1/prior_temperature (0: the largest prior); a search of 1 simulation, which only
  // evaluates the root, is then all it needs. < 0 (the default): the search chooses.
  float prior_temperature = -1.0f;
};

// Empty when the settings make sense, else one line naming the bad field.
std::string check_settings(const SearchSettings& s);

}  // namespace quax
