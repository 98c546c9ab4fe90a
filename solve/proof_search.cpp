#include "solve/proof_search.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/steady_time.h"
#include "env/square_game.h"
#include "solve/connection_distance.h"
#include "solve/hex_connection.h"
#include "solve/hex_dead_cell.h"
#include "solve/inferior_move.h"
#include "solve/solver.h"

namespace quax {

namespace {

constexpr uint64_t kWhiteAttackerSalt = 0x9E3779B97F4A7C15ULL;

// Distance from the board's centre in half cells (a link sits at its block's centre).
int centre_distance(int n, int x2, int y2) { return std::abs(x2 - (n - 1)) + std::abs(y2 - (n - 1)); }

// The cells of `cells` as a proof set (hex up to 8x8: grid cell c is bit c).
uint64_t proof_bits(const CellSet& cells, int nn) {
  uint64_t out = 0;
  for (int c = 0; c < nn; ++c)
    if (cells[static_cast<size_t>(c)]) out |= uint64_t{1} << c;
  return out;
}

}  // namespace

ProofSearch::ProofSearch(const GameSpec& spec, size_t memory_bytes)
    : spec_(spec), table_(memory_bytes), scratch_(new_game(spec)) {
  scratch_mask_.resize(static_cast<size_t>(scratch_->num_actions()));
  square_ = dynamic_cast<const SquareGame*>(scratch_.get()) != nullptr;
  hex_ = hex_connections_apply(spec);
  virtual_connections_ = (square_ && virtual_connections_apply(spec)) || hex_;
  const int n = spec.size, nn = n * n;
  const int actions = scratch_->num_actions();
  const int spatial = scratch_->spatial_planes() * nn;
  // Rank: non-spatial actions (swap) first, then by distance from the centre, placements
  // before links at equal distance. Only a tie-break: the proof numbers choose.
  std::vector<std::pair<int, int>> ranked;
  for (int a = 0; a < actions; ++a) {
    if (a >= spatial) {
      ranked.push_back({-1, a});
      continue;
    }
    const int plane = a / nn, idx = a % nn, c = idx % n, r = idx / n;
    const int d = plane == 0 ? centre_distance(n, 2 * c, 2 * r) : centre_distance(n, 2 * c + 1, 2 * r + 1);
    ranked.push_back({d * 4 + plane, a});
  }
  std::stable_sort(ranked.begin(), ranked.end());
  for (const auto& [rank, a] : ranked) by_rank_.push_back(a);
  for (int a = spatial; a < actions && spec.swap; ++a)
    if (scratch_->action_to_string(a) == "swap") swap_action_ = a;
  set_swap_rule(true);
  set_proof_sets(true);
  start_ = std::chrono::steady_clock::now();
}

void ProofSearch::set_proof_sets(bool on) { proof_sets_ = on && hex_ && spec_.size * spec_.size <= 64; }

uint64_t ProofSearch::proof_set(const GameState& state, Player attacker) const {
  const uint64_t key = attacker == Player::kWhite ? state.position_key() ^ kWhiteAttackerSalt : state.position_key();
  const ProofEntry* e = table_.find(key);
  return e && (e->pn == 0 || e->dn == 0) ? e->proof : kEveryCell;
}

void ProofSearch::set_inferior_moves(bool on) {
  inferior_moves_ = on && ((square_ && inferior_moves_apply(spec_)) || hex_);
}

void ProofSearch::set_progress(std::function<void(const ProofStats&)> progress, double period_seconds) {
  progress_ = std::move(progress);
  progress_period_ = period_seconds;
  next_progress_ = seconds_from_now(period_seconds);
}

void ProofSearch::set_move_prior(MovePrior prior, double weight, int max_depth) {
  prior_ = weight > 0 && max_depth > 0 ? std::move(prior) : MovePrior();
  prior_weight_ = prior_ ? weight : 0;
  prior_depth_ = max_depth;
}

void ProofSearch::set_swap_rule(bool on) { swap_rule_ = on && swap_action_ >= 0 && !can_draw(spec_); }

ProofStats ProofSearch::stats() const {
  ProofStats s;
  s.nodes = nodes_;
  s.evaluations = evaluations_;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  s.tt_used = table_.used();
  s.tt_capacity = table_.capacity();
  return s;
}

ProofSearch::Level& ProofSearch::level(int depth) {
  while (static_cast<int>(levels_.size()) <= depth) {
    auto l = std::make_unique<Level>();
    l->state = new_game(spec_);
    l->mask.resize(static_cast<size_t>(l->state->num_actions()));
    levels_.push_back(std::move(l));
  }
  return *levels_[depth];
}

bool ProofSearch::pie_ahead(const GameState& s) const {
  return s.swap_available() || (spec_.swap && s.move_number() == 0);
}

uint64_t ProofSearch::salted(uint64_t key) const {
  return attacker_ == Player::kWhite ? key ^ kWhiteAttackerSalt : key;
}

bool ProofSearch::out_of_time() {
  if (stopped_) return true;
  // The clock is read every 256 nodes: a node costs microseconds.
  if ((nodes_ & 255) != 0) return false;
  const auto now = std::chrono::steady_clock::now();
  if (progress_ && now >= next_progress_) {
    progress_(stats());
    next_progress_ = now + steady_seconds(progress_period_);
  }
  if ((has_deadline_ && now >= deadline_) || (stop_flag_ && stop_flag_->load(std::memory_order_relaxed)))
    stopped_ = true;
  return stopped_;
}

void ProofSearch::evaluate(const GameState& s, Level& parent, uint32_t* pn, uint32_t* dn, uint64_t* proof) {
  ++evaluations_;
  // A finished game, or a player with no path: nothing the loser adds changes it.
  *proof = proof_sets_ && !pie_ahead(s) ? 0 : kEveryCell;
  const Outcome attacker_wins = win_for(attacker_);
  const Outcome o = s.outcome();
  auto decide = [&](bool attacker_won) {
    *pn = attacker_won ? 0 : kInfinity;
    *dn = attacker_won ? kInfinity : 0;
  };
  if (o != Outcome::kOngoing) return decide(o == attacker_wins);
  const bool or_node = s.to_move() == attacker_;
  // The pie rule's theorem (proof_search.h): a mover who may swap wins.
  if (swap_rule_ && s.swap_available()) return decide(or_node);

  // Connection distances, on square boards while swap is out of play (a swap moves and
  // recolours a stone, so distances say nothing then).
  const auto* game = square_ ? static_cast<const SquareGame*>(&s) : nullptr;
  if (game && game->swap_available()) game = nullptr;
  // Virtual connections first: most positions the search creates are decided here, and then
  // need no distances. They decide exactly what the checks below would (a win in one is a
  // threat; a player facing a virtual win has no win in one), so the order changes no value
  // and no node count, only the time.
  const auto* hex = hex_ && !s.swap_available() ? static_cast<const HexGame*>(&s) : nullptr;
  if (game && virtual_connections_) {
    const Player mover = s.to_move(), other = opponent(mover);
    if (virtual_win(*game, other)) return decide(other == attacker_);
    if (has_threat(*game, mover)) return decide(mover == attacker_);
  }
  const bool distances = game || hex;
  int a = 0, d = 0;
  if (distances) {
    a = game ? connection_distance(*game, attacker_) : hex_connection_distance(*hex, attacker_);
    d = game ? connection_distance(*game, opponent(attacker_)) : hex_connection_distance(*hex, opponent(attacker_));
    // Stones and links never leave the board: a player without any path can never win.
    if (a >= kNoPath) return decide(false);
    if (d >= kNoPath && !can_draw(spec_)) return decide(true);
  }

  // Win in one. One move lowers a distance by at most one except in quadrex (a fill cascade
  // places several stones), so elsewhere a mover two moves away needs no scan.
  const int mover_distance = or_node ? a : d;
  if (!distances || variant_info(spec_.variant).fill_cascade || mover_distance <= 1) {
    // A result in the mover's favour: the attacker's win at an OR node; anything else (the
    // defender's win, a draw) at an AND node.
    auto mover_ends_it = [&](int action) {
      scratch_->copy_from(s);
      scratch_->apply(action);
      const Outcome r = scratch_->outcome();
      return r != Outcome::kOngoing && (r == attacker_wins) == or_node;
    };
    std::vector<uint8_t>& mask = scratch_mask_;
    s.legal_mask(mask.data());
    bool won = parent.killer >= 0 && mask[parent.killer] && mover_ends_it(parent.killer);
    for (int k = 0, n = static_cast<int>(mask.size()); k < n && !won; ++k) {
      if (!mask[k] || k == parent.killer) continue;
      if (mover_ends_it(k)) {
        parent.killer = k;
        won = true;
      }
    }
    if (won) {
      if (*proof != kEveryCell) *proof = uint64_t{1} << parent.killer;
      return decide(or_node);
    }
  }
  *proof = kEveryCell;
  if (!distances) {
    *pn = 1;
    *dn = 1;
    return;
  }
  // Squared distances: measured on quax 4x4, fewer nodes than plain distances or their
  // difference (BENCHMARKS.md).
  const uint32_t dd = static_cast<uint32_t>(std::min(d, 1000));
  *pn = static_cast<uint32_t>(a * a + 1);
  *dn = dd * dd + 1;
}

void ProofSearch::weigh_by_prior(Level& node, bool or_node, int action, bool* asked, Child* c) {
  uint32_t& number = or_node ? c->pn : c->dn;
  if (number == 0 || number >= kInfinity) return;  // decided: no order to give
  if (!*asked) {
    *asked = true;
    ++prior_calls_;
    node.prior.assign(node.mask.size(), 0.0f);
    prior_(*node.state, node.prior.data());
    // Normalised by the best legal move's prior, so the factor is 1 for the policy's choice.
    float best = 0;
    for (size_t a = 0; a < node.mask.size(); ++a)
      if (node.mask[a]) best = std::max(best, node.prior[a]);
    for (float& p : node.prior) p = best > 0 ? p / best : 1.0f;
  }
  // A floor keeps a move the policy all but rules out within a bounded factor (about 1 +
  // 14 * weight): it must still be searched when the favourites fail.
  const double p = std::max(static_cast<double>(node.prior[static_cast<size_t>(action)]), 1e-6);
  const double factor = 1.0 + prior_weight_ * -std::log(p);
  number = static_cast<uint32_t>(std::min(number * factor, static_cast<double>(kInfinity - 1)));
}

void ProofSearch::mid(int depth, uint32_t pn_threshold, uint32_t dn_threshold, uint32_t* out_pn, uint32_t* out_dn) {
  Level& node = level(depth);
  Level& next = level(depth + 1);
  const GameState& s = *node.state;
  const int64_t nodes_before = nodes_++;
  const bool or_node = s.to_move() == attacker_;

  // Hex's connections are looked for when a node is expanded, not when it is first reached
  // as a child: H-search costs more than the distances, and most children are never expanded.
  if (hex_ && virtual_connections_ && !pie_ahead(s)) {
    const auto& hex = static_cast<const HexGame&>(s);
    const Player mover = s.to_move();
    int decided = 0;  // 1: the mover wins, -1: the mover loses
    CellSet carrier;  // of the connection that decides it
    if (hex_virtual_win(hex, opponent(mover), &carrier))
      decided = -1;
    else if (hex_has_threat(hex, mover, &carrier))
      decided = 1;
    if (decided != 0) {
      const bool attacker_won = (decided > 0) == or_node;
      *out_pn = attacker_won ? 0 : kInfinity;
      *out_dn = attacker_won ? kInfinity : 0;
      table_.store(salted(s.position_key()), *out_pn, *out_dn, 1,
                   proof_sets_ ? proof_bits(carrier, spec_.size * spec_.size) : kEveryCell);
      return;
    }
  }
  node.children.clear();
  node.killer = -1;
  s.legal_mask(node.mask.data());
  // Facing the other player's threats, the mover's stones outside the must-play region and
  // links outside the threats' key blocks lose (solve/virtual_connection.h): they are not
  // generated.
  CellSet must_play, link_blocks;
  bool pruned = false;
  const bool proof_sets = proof_sets_ && !pie_ahead(s);
  uint64_t threat_cells = 0;  // the reason for the must-play region, when it leaves moves out
  if (hex_ && (virtual_connections_ || inferior_moves_)) {
    const auto& hex = static_cast<const HexGame&>(s);
    if (!pie_ahead(s)) {
      CellSet threats;
      if (virtual_connections_) must_play = hex_must_play_against(hex, opponent(s.to_move()), &pruned, &threats);
      if (pruned && proof_sets) threat_cells = proof_bits(threats, spec_.size * spec_.size);
      if (inferior_moves_) drop_dead_cells(hex, node.mask.data());
    }
  } else if (square_ && (virtual_connections_ || inferior_moves_)) {
    const auto& game = static_cast<const SquareGame&>(s);
    if (!pie_ahead(s)) {
      if (virtual_connections_) must_play = must_play_against(game, opponent(s.to_move()), &pruned, &link_blocks);
      if (inferior_moves_) drop_pass_like_moves(game, node.mask.data());
    }
  }
  const int cells = spec_.size * spec_.size;
  bool prior_asked = false;
  for (int a : by_rank_) {
    if (!node.mask[a]) continue;
    if (pruned && a < cells && !must_play[static_cast<size_t>(a)]) continue;
    if (pruned && a >= cells && a < 3 * cells && !link_blocks[static_cast<size_t>(a % cells)]) continue;
    next.state->copy_from(s);
    next.state->apply(a);
    Child c{a, salted(next.state->position_key()), 0, 0};
    if (const ProofEntry* e = table_.find(c.key)) {
      c.pn = e->pn;
      c.dn = e->dn;
      c.proof = e->proof;
    } else {
      evaluate(*next.state, node, &c.pn, &c.dn, &c.proof);
      if (prior_ && depth < prior_depth_) weigh_by_prior(node, or_node, a, &prior_asked, &c);
      // Leaves too: a node searched again regenerates its children, and an evaluation costs
      // two shortest paths. Work 0 makes them the first to give way.
      table_.store(c.key, c.pn, c.dn, 0, c.proof);
    }
    node.children.push_back(c);
    if (or_node ? c.pn == 0 : c.dn == 0) break;  // decided: the other children do not matter
  }

  uint32_t pn = 0, dn = 0;
  size_t best = 0;
  for (;;) {
    // OR: pn = min over children, dn = sum; AND: the other way round.
    uint32_t best_value = kInfinity + 1, second_value = kInfinity + 1, sum = 0;
    best = 0;
    for (size_t i = 0; i < node.children.size(); ++i) {
      Child& c = node.children[i];
      if (c.pn != 0 && c.dn != 0)
        if (const ProofEntry* e = table_.find(c.key)) c.pn = e->pn, c.dn = e->dn, c.proof = e->proof;
    }
    if (proof_sets) prune_by_proof_sets(node, or_node);
    for (size_t i = 0; i < node.children.size(); ++i) {
      const Child& c = node.children[i];
      const uint32_t v = or_node ? c.pn : c.dn;
      sum = saturating_sum(sum, or_node ? c.dn : c.pn);
      if (v < best_value) {
        second_value = best_value;
        best_value = v;
        best = i;
      } else if (v < second_value) {
        second_value = v;
      }
    }
    if (node.children.empty()) best_value = kInfinity;  // every move lost to the threats: the mover loses
    pn = or_node ? std::min(best_value, kInfinity) : sum;
    dn = or_node ? sum : std::min(best_value, kInfinity);
    if (pn == 0 || dn == 0 || pn >= pn_threshold || dn >= dn_threshold || out_of_time()) break;

    Child& c = node.children[best];
    // The best child may work until it passes the second best by a factor 1 + 1/4, or until
    // this node's other threshold is reached.
    const uint64_t second = std::min<uint64_t>(second_value, kInfinity);
    const uint32_t near_threshold = static_cast<uint32_t>(std::min<uint64_t>(second + second / 4 + 1, kInfinity));
    uint32_t child_pn_threshold, child_dn_threshold;
    if (or_node) {
      child_pn_threshold = std::min(pn_threshold, near_threshold);
      child_dn_threshold = dn_threshold >= kInfinity ? kInfinity : dn_threshold - dn + c.dn;
    } else {
      child_dn_threshold = std::min(dn_threshold, near_threshold);
      child_pn_threshold = pn_threshold >= kInfinity ? kInfinity : pn_threshold - pn + c.pn;
    }
    next.state->copy_from(s);
    next.state->apply(c.action);
    mid(depth + 1, child_pn_threshold, child_dn_threshold, &c.pn, &c.dn);
    // A child decided just now: its proof set is the one it stored.
    if (proof_sets && (c.pn == 0 || c.dn == 0))
      if (const ProofEntry* e = table_.find(c.key)) c.proof = e->proof;
  }
  uint64_t proof = kEveryCell;
  if (proof_sets && (pn == 0 || dn == 0)) {
    const bool mover_won = or_node ? pn == 0 : dn == 0;
    proof = node_proof(node, mover_won ? static_cast<int>(best) : -1, threat_cells);
  }
  table_.store(salted(s.position_key()), pn, dn, static_cast<uint64_t>(nodes_ - nodes_before), proof);
  *out_pn = pn;
  *out_dn = dn;
}

void ProofSearch::prune_by_proof_sets(Level& node, bool or_node) const {
  // A child lost for the mover: the attacker's loss (dn 0) at an OR node, its win (pn 0) at
  // an AND node. Moves outside every such child's proof set lose too.
  auto lost = [or_node](const Child& c) { return or_node ? c.dn == 0 : c.pn == 0; };
  uint64_t keep = kEveryCell;
  for (const Child& c : node.children)
    if (lost(c) && !c.by_sibling) keep &= c.proof;
  if (keep == kEveryCell) return;
  for (Child& c : node.children) {
    if (c.pn == 0 || c.dn == 0 || ((keep >> c.action) & 1)) continue;
    c.pn = or_node ? kInfinity : 0;
    c.dn = or_node ? 0 : kInfinity;
    c.by_sibling = true;
  }
}

uint64_t ProofSearch::node_proof(const Level& node, int winner, uint64_t threat_cells) const {
  if (winner >= 0) {
    const Child& c = node.children[static_cast<size_t>(winner)];
    return c.proof == kEveryCell ? kEveryCell : c.proof | uint64_t{1} << c.action;
  }
  uint64_t proof = threat_cells;
  for (const Child& c : node.children)
    if (!c.by_sibling) proof |= c.proof;
  return proof;
}

Proof ProofSearch::prove(const GameState& state, Player attacker) {
  attacker_ = attacker;
  if (state.is_over()) return state.outcome() == win_for(attacker) ? Proof::kProven : Proof::kDisproven;
  if (const ProofEntry* e = table_.find(salted(state.position_key()))) {
    if (e->pn == 0) return Proof::kProven;
    if (e->dn == 0) return Proof::kDisproven;
  }
  if (out_of_time()) return Proof::kUnknown;
  level(0).state->copy_from(state);
  uint32_t pn = 0, dn = 0;
  mid(0, kInfinity, kInfinity, &pn, &dn);
  if (pn == 0) return Proof::kProven;
  if (dn == 0) return Proof::kDisproven;
  return Proof::kUnknown;
}

}  // namespace quax
