#include "env/stymie_game.h"
#include "core/quoted_input.h"
#include "env/move_text.h"
#include "env/ownership.h"
#include "env/rng.h"
#include "env/union_find.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace quax {

namespace {

constexpr int kSouth = 0, kNorth = 1, kWest = 2, kEast = 3;

}  // namespace

StymieGame::StymieGame(const GameSpec& spec) : TurnTakingGame(spec) {
  assert(variant_info(spec.variant).shape == BoardShape::kOctagons);
  pieces_.assign(2 * nn_, 0);
  parent_.resize(2 * nn_ + 4);
  for (int i = 0; i < 2 * nn_ + 4; ++i) parent_[i] = static_cast<int16_t>(i);
  empties_ = nn_ + (n_ - 1) * (n_ - 1);
  turn_.reserve(3);
}

int StymieGame::find(int x) { return find_root(parent_.data(), x); }

void StymieGame::unite(int a, int b) {
  a = find(a);
  b = find(b);
  if (a != b) parent_[a] = static_cast<int16_t>(b);
}

bool StymieGame::adjacent(int octagon, int square) const {
  const int oc = octagon % n_, orow = octagon / n_, s = square - nn_, sc = s % n_, sr = s / n_;
  return (sc == oc || sc == oc - 1) && (sr == orow || sr == orow - 1);
}

void StymieGame::put(int a, Player p) {
  const uint8_t own = static_cast<uint8_t>(index_of(p) + 1);
  pieces_[a] = own;
  --empties_;
  if (!is_square(a)) {
    const int c = a % n_, r = a / n_;
    const int dc[4] = {1, -1, 0, 0}, dr[4] = {0, 0, 1, -1};
    for (int k = 0; k < 4; ++k) {
      const int c2 = c + dc[k], r2 = r + dr[k];
      if (c2 >= 0 && r2 >= 0 && c2 < n_ && r2 < n_ && pieces_[r2 * n_ + c2] == own) unite(a, r2 * n_ + c2);
    }
    for (int sr = r - 1; sr <= r; ++sr)
      for (int sc = c - 1; sc <= c; ++sc)
        if (sc >= 0 && sr >= 0 && sc < n_ - 1 && sr < n_ - 1 && pieces_[nn_ + sr * n_ + sc] == own) unite(a, nn_ + sr * n_ + sc);
    if (join_edges_ && p == Player::kBlack) {
      if (r == 0) unite(a, 2 * nn_ + kSouth);
      if (r == n_ - 1) unite(a, 2 * nn_ + kNorth);
    } else if (join_edges_) {
      if (c == 0) unite(a, 2 * nn_ + kWest);
      if (c == n_ - 1) unite(a, 2 * nn_ + kEast);
    }
  } else {
    const int s = a - nn_, c = s % n_, r = s / n_;
    for (int orow = r; orow <= r + 1; ++orow)
      for (int oc = c; oc <= c + 1; ++oc)
        if (pieces_[orow * n_ + oc] == own) unite(a, orow * n_ + oc);
  }
  if (p == Player::kBlack ? find(2 * nn_ + kSouth) == find(2 * nn_ + kNorth)
                          : find(2 * nn_ + kWest) == find(2 * nn_ + kEast))
    outcome_ = win_for(p);
}

// The shapes of a turn: {x}; {O, S} adjacent; with a triple, {O, S1, S2} (both squares at O)
// or {S, O1, O2} (both octagons at S). A piece fits when the pieces of the turn plus it are
// part of such a shape whose missing pieces are still empty.
bool StymieGame::piece_fits(int x) const {
  const size_t k = turn_.size();
  if (k == 0) return true;
  if (k == 1) {
    const int p = turn_[0];
    if (is_square(p) != is_square(x)) return is_square(x) ? adjacent(p, x) : adjacent(x, p);
    if (!triple_allowed_) return false;
    // Two of a kind: a third piece of the other kind must touch both and be empty. Only
    // pieces at most one step apart (both ways) share one; look at those directly.
    const int pi = p % nn_, xi = x % nn_, pc = pi % n_, pr = pi / n_, xc = xi % n_, xr = xi / n_;
    if (pi == xi || std::abs(pc - xc) > 1 || std::abs(pr - xr) > 1) return false;
    // Shared squares of two octagons: blocks [max - 1, min] each way; shared octagons of two
    // squares: [max, min + 1].
    const int lo_c = std::max(pc, xc) - (is_square(x) ? 0 : 1), hi_c = std::min(pc, xc) + (is_square(x) ? 1 : 0);
    const int lo_r = std::max(pr, xr) - (is_square(x) ? 0 : 1), hi_r = std::min(pr, xr) + (is_square(x) ? 1 : 0);
    const int limit = is_square(x) ? n_ - 1 : n_ - 2, base = is_square(x) ? 0 : nn_;
    for (int r = std::max(lo_r, 0); r <= std::min(hi_r, limit); ++r)
      for (int c = std::max(lo_c, 0); c <= std::min(hi_c, limit); ++c)
        if (pieces_[base + r * n_ + c] == 0) return true;
    return false;
  }
  if (k == 2) {
    const int a = turn_[0], b = turn_[1];
    if (is_square(a) != is_square(b)) {  // {O, S}: complete; a third piece needs the triple
      if (!triple_allowed_) return false;
      const int o = is_square(a) ? b : a, s = is_square(a) ? a : b;
      return is_square(x) ? adjacent(o, x) : adjacent(x, s);
    }
    if (is_square(a)) return !is_square(x) && adjacent(x, a) && adjacent(x, b);
    return is_square(x) && adjacent(a, x) && adjacent(b, x);
  }
  return false;
}

bool StymieGame::turn_complete() const {
  return turn_.size() == 1 || turn_.size() == 3 || (turn_.size() == 2 && is_square(turn_[0]) != is_square(turn_[1]));
}

bool StymieGame::can_continue() const {
  if (turn_.size() >= 3) return false;
  for (int a = 0; a < 2 * nn_; ++a)
    if (pieces_[a] == 0 && (!is_square(a) || real_square(a)) && piece_fits(a)) return true;
  return false;
}

void StymieGame::end_turn(bool counts_as_single) {
  triple_allowed_ = counts_as_single;
  to_move_ = opponent(to_move_);
  turn_.clear();
  ++turn_number_;
}

std::string StymieGame::why_illegal(int action) const {
  if (action < 0 || action >= num_actions()) return "action " + std::to_string(action) + " is not on this board";
  const std::string nm = action_to_string(action);
  if (outcome_ != Outcome::kOngoing) return nm + ": the game is over";
  if (action == swap_action()) {
    if (!spec_.swap) return "swap: the pie rule is off in this game";
    return swap_available() ? "" : "swap is only allowed as white's first move";
  }
  if (action == end_action()) {
    if (turn_.empty()) return "end: place a piece first";
    return turn_complete() ? "" : "end: the pieces of this turn do not form a complete shape yet";
  }
  if (is_square(action) && !real_square(action)) return nm + " is not a square of this board";
  if (pieces_[action] != 0) return nm + " is occupied";
  if (!piece_fits(action))
    return nm + " does not fit this turn's shape (one piece, octagon + adjacent square" +
           (triple_allowed_ ? ", or a triple)" : "; no triple: the opponent's last turn was not a single piece)");
  return "";
}

void StymieGame::legal_mask(uint8_t* mask) const {
  std::fill(mask, mask + num_actions(), 0);
  if (outcome_ != Outcome::kOngoing) return;
  for (int a = 0; a < 2 * nn_; ++a)
    mask[a] = pieces_[a] == 0 && (!is_square(a) || real_square(a)) && piece_fits(a);
  mask[swap_action()] = swap_available();
  mask[end_action()] = !turn_.empty() && turn_complete();
}

void StymieGame::apply(int action) {
  assert(is_legal(action));
  ++ply_;
  if (action == swap_action()) {
    // Swap-pieces convention (docs/RULES.md section 1): the opening piece at (i, j) becomes a
    // white piece at (j, i), octagon or square alike, and Black moves next.
    const int a = static_cast<int>(std::find_if(pieces_.begin(), pieces_.end(), [](uint8_t v) { return v != 0; }) -
                                   pieces_.begin());
    const int base = is_square(a) ? nn_ : 0, idx = a - base;
    std::fill(pieces_.begin(), pieces_.end(), 0);
    for (int i = 0; i < 2 * nn_ + 4; ++i) parent_[i] = static_cast<int16_t>(i);
    ++empties_;
    put(base + (idx % n_) * n_ + idx / n_, Player::kWhite);
    end_turn(false);
    return;
  }
  if (action == end_action()) {
    end_turn(turn_.size() == 1 && turn_number_ > 0);
    return;
  }
  put(action, to_move_);
  turn_.push_back(action);
  if (outcome_ != Outcome::kOngoing) return;
  if (turn_number_ == 0) {
    end_turn(false);  // the opening is one piece and does not count as a single
  } else if (!can_continue()) {
    end_turn(turn_.size() == 1);
  }
}

Outcome StymieGame::play_random_to_end(Rng& rng) {
  std::vector<int> legal;
  legal.reserve(num_actions());
  while (outcome_ == Outcome::kOngoing) {
    legal.clear();
    for (int a = 0; a < 2 * nn_; ++a)
      if (pieces_[a] == 0 && (!is_square(a) || real_square(a)) && piece_fits(a)) legal.push_back(a);
    if (swap_available()) legal.push_back(swap_action());
    if (!turn_.empty() && turn_complete()) legal.push_back(end_action());
    apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
  return outcome_;
}

// --- Notation -------------------------------------------------------------------------

std::string StymieGame::name(int a) const {
  return cell_name(a % nn_, n_) + (is_square(a) ? "+" : "");
}

std::string StymieGame::action_to_string(int action) const {
  if (action < 0 || action >= num_actions()) return "?";
  if (action == swap_action()) return "swap";
  if (action == end_action()) return "end";
  return name(action);
}

int StymieGame::parse_action(std::string_view text, std::string* error) const {
  std::string t = move_text(text);
  if (t == "swap") return swap_action();
  if (t == "end") return end_action();
  const bool square = !t.empty() && t.back() == '+';
  if (square) t.pop_back();
  if (t.size() < 2 || t[0] < 'a' || t[0] > 'z' || t.size() > 3 ||
      !std::all_of(t.begin() + 1, t.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
    return not_a_move(error, quoted_input(text) + " is not a move (expected e.g. c5, c5+ for a square, swap, end)");
  const int c = t[0] - 'a', r = std::stoi(t.substr(1)) - 1;
  const int limit = square ? n_ - 1 : n_;
  if (c >= limit || r < 0 || r >= limit)
    return not_a_move(error, quoted_input(text) + " is off the board (" + (square ? "squares a1+.." : "octagons a1..") +
                                 column_letter(limit - 1) + std::to_string(limit) + (square ? "+)" : ")"));
  return (square ? nn_ : 0) + r * n_ + c;
}

std::vector<std::string> StymieGame::stones_of(Player p) const {
  std::vector<std::string> out;
  for (int a = 0; a < 2 * nn_; ++a)
    if (p != Player::kNone && piece(a) == p) out.push_back(name(a));
  return out;
}

std::string StymieGame::board_text() const {
  // Octagon rows with squares drawn between them, lower case, `+` when empty.
  std::ostringstream os;
  auto letters = [&] {
    os << "   ";
    for (int c = 0; c < n_; ++c) os << ' ' << static_cast<char>('a' + c) << "  ";
    os << '\n';
  };
  letters();
  for (int r = n_ - 1; r >= 0; --r) {
    char label[16];
    std::snprintf(label, sizeof label, "%2d ", r + 1);
    os << label;
    for (int c = 0; c < n_; ++c) {
      const Player p = piece(r * n_ + c);
      os << ' ' << (p == Player::kBlack ? 'V' : p == Player::kWhite ? 'H' : '.') << (c + 1 < n_ ? "  " : "");
    }
    os << "  " << r + 1 << '\n';
    if (r > 0) {
      os << "   ";
      for (int c = 0; c + 1 < n_; ++c) {
        const Player p = piece(nn_ + (r - 1) * n_ + c);
        os << "   " << (p == Player::kBlack ? 'v' : p == Player::kWhite ? 'h' : '+');
      }
      os << '\n';
    }
  }
  letters();
  os << "V = vert (black, north-south), H = horz (white, west-east); squares in lower case; " << status_line();
  return os.str();
}

std::string StymieGame::status_line() const {
  if (outcome_ != Outcome::kOngoing) return player_name(winner_of(outcome_)) + " wins";
  std::string line = player_name(to_move_) + " to move";
  if (!turn_.empty()) {
    line += ", this turn:";
    for (int a : turn_) line += ' ' + name(a);
  }
  if (triple_allowed_) line += ", triple allowed";
  if (swap_available()) line += ", swap available";
  return line;
}

std::string StymieGame::move_help() const {
  if (outcome_ != Outcome::kOngoing) return "No moves: the game is over.";
  if (!turn_.empty()) {
    std::vector<uint8_t> mask(static_cast<size_t>(num_actions()));
    legal_mask(mask.data());
    // Mid-turn: the few pieces that keep the turn a shape, by name, and `end` when it is one.
    std::string help = "This turn so far:";
    for (int a : turn_) help += ' ' + name(a);
    std::string next;
    int listed = 0;
    for (int a = 0; a < 2 * nn_; ++a) {
      if (!mask[a]) continue;
      if (++listed > 8) {
        next += ", ...";
        break;
      }
      next += (next.empty() ? "" : ", ") + name(a);
    }
    if (next.empty()) return help + ". Next: end, the turn is a complete shape.";
    help += ". Next: a piece that keeps the turn a shape (" + next + ")";
    return help + (mask[end_action()] ? ", or end to finish the turn here." : "; the turn is not a shape yet.");
  }
  // A fresh turn. The examples are the notation's, the same all game long.
  const std::string pieces = "an octagon (e.g. a1) or a square (e.g. a1+, between a1, b1, a2 and b2)";
  if (turn_number_ == 0) return "Moves: the opening is one piece, " + pieces + ".";
  std::string help = "Moves: a turn is one piece, " + pieces + "; or an octagon and a square touching it";
  if (triple_allowed_)
    help += "; or, since your opponent played a single piece, an octagon and two squares touching it or a square "
            "and two octagons touching it";
  help += ". One piece a move, then end; a turn that can take no more pieces ends by itself";
  if (swap_available()) {
    // Black's opening piece, octagon or square, mirrored across the a1 diagonal (docs/RULES.md section 1).
    const int opening = static_cast<int>(std::find_if(pieces_.begin(), pieces_.end(), [](uint8_t v) { return v != 0; }) -
                                         pieces_.begin());
    const int base = is_square(opening) ? nn_ : 0, idx = opening - base;
    help += ". Or swap (black's " + name(opening) + " becomes your " + name(base + (idx % n_) * n_ + idx / n_) + ")";
  }
  return help + ".";
}

// --- Network view ---------------------------------------------------------------------

std::vector<std::string> StymieGame::plane_names() const {
  return {"own_octagons",         "opponent_octagons", "own_squares", "opponent_squares", "turn_octagons",
          "turn_squares",         "triple_allowed",    "swap_available", "ones",          "square_exists"};
}

int StymieGame::to_net_action(int a) const {
  if (to_move_ != Player::kWhite || outcome_ != Outcome::kOngoing || a >= 2 * nn_) return a;
  const int base = a >= nn_ ? nn_ : 0, idx = a - base;
  return base + (idx % n_) * n_ + idx / n_;
}

void StymieGame::encode(float* planes) const {
  std::memset(planes, 0, sizeof(float) * kNumPlanes * nn_);
  const int mover = index_of(to_move_ == Player::kNone ? Player::kBlack : to_move_);
  for (int a = 0; a < 2 * nn_; ++a) {
    const int net = to_net_action(a), base = a >= nn_ ? nn_ : 0, i = net - base;
    const int kind = base ? 2 : 0;
    if (pieces_[a] != 0) planes[(kind + (pieces_[a] - 1 == mover ? 0 : 1)) * nn_ + i] = 1.0f;
    if (base && real_square(a)) planes[9 * nn_ + i] = 1.0f;
  }
  for (int a : turn_) {
    const int net = to_net_action(a);
    planes[(net >= nn_ ? 5 : 4) * nn_ + net % nn_] = 1.0f;
  }
  auto fill = [&](int plane, float v) { std::fill(planes + plane * nn_, planes + (plane + 1) * nn_, v); };
  fill(6, triple_allowed_ ? 1.0f : 0.0f);
  fill(7, swap_available() ? 1.0f : 0.0f);
  fill(8, 1.0f);
}

int StymieGame::map_action(int k, int a) const {
  if (a >= 2 * nn_) return a;
  const bool square = a >= nn_;
  if (square && !real_square(a)) return a;  // padding stays padding
  const int base = square ? nn_ : 0, idx = a - base, m = square ? n_ - 1 : n_;
  int c = idx % n_, r = idx / n_;
  if (k & 1) c = m - 1 - c;
  if (k & 2) r = m - 1 - r;
  return base + r * n_ + c;
}

void StymieGame::transform_net_planes(int k, const float* in, float* out) const {
  static const bool kSquarePlane[kNumPlanes] = {false, false, true, true, false, true, false, false, false, true};
  static const bool kConstant[kNumPlanes] = {false, false, false, false, false, false, true, true, true, false};
  for (int p = 0; p < kNumPlanes; ++p) {
    const float* src = in + p * nn_;
    float* dst = out + p * nn_;
    if (kConstant[p]) {
      std::copy(src, src + nn_, dst);
      continue;
    }
    const int base = kSquarePlane[p] ? nn_ : 0;
    for (int i = 0; i < nn_; ++i) dst[map_action(k, base + i) - base] = src[i];
  }
}

void StymieGame::transform_net_policy(int k, const float* in, float* out) const {
  for (int a = 0; a < num_actions(); ++a) out[map_action(k, a)] = in[a];
}

void StymieGame::transform_net_mask(int k, const uint8_t* in, uint8_t* out) const {
  for (int a = 0; a < num_actions(); ++a) out[map_action(k, a)] = in[a];
}

uint64_t StymieGame::position_key() const {
  uint64_t key = mix64(static_cast<uint64_t>(index_of(to_move()) + 2) * 31 + (triple_allowed_ ? 7 : 0) +
                     (swap_available() ? 1000 : 0));
  for (int a = 0; a < 2 * nn_; ++a)
    if (pieces_[a]) key ^= mix64(static_cast<uint64_t>(a) * 4 + pieces_[a]);
  for (int a : turn_) key ^= mix64(0xFEEDULL + static_cast<uint64_t>(a));
  return key;
}

std::vector<CellOwnership> StymieGame::final_ownership() const {
  // The game's unions replayed on a board whose edge nodes join nothing (edge_chain_ownership,
  // env/ownership.h); a group's root may be a square.
  StymieGame groups(spec_);
  groups.join_edges_ = false;
  for (int a = 0; a < 2 * nn_; ++a)
    if (pieces_[a] != 0) groups.put(a, piece(a));
  return edge_chain_ownership(n_, outcome_, [&](int a) { return piece(a); }, 2 * nn_ + 4,
                              [&](int a) { return groups.find(a); });
}

std::unique_ptr<StymieGame> StymieGame::from_position(const GameSpec& spec, const std::vector<Player>& pieces,
                                                      Player mover) {
  auto g = std::make_unique<StymieGame>(spec);
  for (int a = 0; a < 2 * g->nn_; ++a)
    if (pieces[a] != Player::kNone) g->put(a, pieces[a]);
  g->turn_number_ = 2;
  g->to_move_ = mover;
  return g;
}

}  // namespace quax
