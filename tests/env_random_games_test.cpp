// Thousands of random games per variant and size, checked move by move against a second,
// deliberately plain implementation of RULES.md sections 1-2 written here from the text
// (board arrays and a flood fill, no union-find, no incremental lists).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <deque>
#include <iostream>
#include <set>

#include "env/game_state.h"
#include "env/rng.h"
#include "env/square_game.h"

namespace quax {
namespace {

struct RefMove {
  enum Kind { kPlace, kLink, kSwap, kPass } kind;
  int c = 0, r = 0, d = 0;  // cell, or the block's south-west cell and diagonal (0 `/`, 1 `\`)
};

class Reference {
 public:
  Reference(Variant v, int n, bool pie) : v_(v), n_(n), pie_(pie), cells_(n * n, 0), links_(n * n, -1), owner_(n * n, 0) {}

  // A position of stones only (no links) with `mover` to play, judged as after a move.
  void set_position(const std::vector<int>& cells, int mover, int ply) {
    cells_ = cells;
    mover_ = 3 - mover;
    ply_ = ply - 1;
    play(RefMove{RefMove::kPass});
  }

  bool placement_ok(int c, int r, int colour) const { return can_place(c, r, colour); }

  // 0 ongoing, 1 black won, 2 white won, 3 draw.
  int result() const { return result_; }
  int mover() const { return result_ ? 0 : mover_; }
  bool both_connected() const { return both_; }

  std::string cell_name(int c, int r) const { return std::string(1, static_cast<char>('a' + c)) + std::to_string(r + 1); }
  std::string name(const RefMove& m) const {
    switch (m.kind) {
      case RefMove::kPlace: return cell_name(m.c, m.r);
      case RefMove::kLink:  // southern cell first
        return m.d == 0 ? cell_name(m.c, m.r) + "-" + cell_name(m.c + 1, m.r + 1)
                        : cell_name(m.c + 1, m.r) + "-" + cell_name(m.c, m.r + 1);
      case RefMove::kSwap: return "swap";
      default: return "pass";
    }
  }

  std::vector<RefMove> legal() const {
    std::vector<RefMove> out;
    if (result_) return out;
    if (must_pass_) return {RefMove{RefMove::kPass}};
    for (int r = 0; r < n_; ++r)
      for (int c = 0; c < n_; ++c)
        if (can_place(c, r, mover_)) out.push_back({RefMove::kPlace, c, r});
    if (v_ == Variant::kQuax || v_ == Variant::kLink)
      for (int r = 0; r + 1 < n_; ++r)
        for (int c = 0; c + 1 < n_; ++c) {
          if (links_[r * n_ + c] >= 0) continue;
          if (at(c, r) == mover_ && at(c + 1, r + 1) == mover_) out.push_back({RefMove::kLink, c, r, 0});
          if (at(c + 1, r) == mover_ && at(c, r + 1) == mover_) out.push_back({RefMove::kLink, c, r, 1});
        }
    if (pie_ && ply_ == 1) out.push_back({RefMove::kSwap});
    return out;
  }

  void play(const RefMove& m) {
    switch (m.kind) {
      case RefMove::kPlace:
        set(m.c, m.r, mover_);
        if (v_ == Variant::kQuickway) auto_links(m.c, m.r);
        if (v_ == Variant::kQuadrex) cascade(m.c, m.r);
        break;
      case RefMove::kLink:
        links_[m.r * n_ + m.c] = m.d;
        owner_[m.r * n_ + m.c] = mover_;
        break;
      case RefMove::kSwap:
        for (int r = 0; r < n_; ++r)
          for (int c = 0; c < n_; ++c)
            if (at(c, r) == 1) {
              set(c, r, 0);
              set(r, c, 2);  // (column i, row j) -> (column j, row i)
              r = c = n_;
            }
        break;
      case RefMove::kPass: break;
    }
    ++ply_;
    const bool b = connected(1), w = connected(2);
    both_ = b && w;
    result_ = b ? 1 : (w ? 2 : 0);
    mover_ = 3 - mover_;
    must_pass_ = false;
    if (!result_ && v_ == Variant::kCrossway && !has_placement(mover_)) {
      if (has_placement(3 - mover_))
        must_pass_ = true;
      else
        result_ = 3;
    }
  }

  std::set<std::string> stones(int colour) const {
    std::set<std::string> out;
    for (int r = 0; r < n_; ++r)
      for (int c = 0; c < n_; ++c)
        if (at(c, r) == colour) out.insert(cell_name(c, r));
    return out;
  }
  std::set<std::string> links(int colour) const {
    std::set<std::string> out;
    for (int r = 0; r + 1 < n_; ++r)
      for (int c = 0; c + 1 < n_; ++c)
        if (links_[r * n_ + c] >= 0 && owner_[r * n_ + c] == colour)
          out.insert(name(RefMove{RefMove::kLink, c, r, links_[r * n_ + c]}));
    return out;
  }

 private:
  int at(int c, int r) const { return cells_[r * n_ + c]; }
  void set(int c, int r, int colour) { cells_[r * n_ + c] = colour; }
  bool inside(int c, int r) const { return c >= 0 && r >= 0 && c < n_ && r < n_; }
  bool block_inside(int bc, int br) const { return bc >= 0 && br >= 0 && bc + 1 < n_ && br + 1 < n_; }

  // The blocks holding a cell, south-west, south-east, north-west, north-east.
  std::vector<std::pair<int, int>> blocks_of(int c, int r) const {
    std::vector<std::pair<int, int>> out;
    for (auto [bc, br] : {std::pair{c - 1, r - 1}, {c, r - 1}, {c - 1, r}, {c, r}})
      if (block_inside(bc, br)) out.push_back({bc, br});
    return out;
  }

  bool can_place(int c, int r, int colour) const {
    if (at(c, r) != 0) return false;
    if (v_ != Variant::kCrossway) return true;
    for (auto [bc, br] : blocks_of(c, r)) {
      // In block (bc, br) the cell diagonal to (c, r) is the mirror through the block centre.
      const int pc = 2 * bc + 1 - c, pr = 2 * br + 1 - r;
      if (at(pc, pr) == colour && at(pc, r) == 3 - colour && at(c, pr) == 3 - colour) return false;
    }
    return true;
  }
  bool has_placement(int colour) const {
    for (int r = 0; r < n_; ++r)
      for (int c = 0; c < n_; ++c)
        if (can_place(c, r, colour)) return true;
    return false;
  }

  void auto_links(int c, int r) {
    const int colour = at(c, r);
    for (auto [bc, br] : blocks_of(c, r)) {
      if (links_[br * n_ + bc] >= 0) continue;
      const int pc = 2 * bc + 1 - c, pr = 2 * br + 1 - r;
      if (at(pc, pr) != colour) continue;
      // (c, r) and its partner lie on `/` when they are south-west and north-east corners.
      links_[br * n_ + bc] = (pc - c) == (pr - r) ? 0 : 1;
      owner_[br * n_ + bc] = colour;
    }
  }

  void cascade(int c, int r) {
    std::deque<std::pair<int, int>> queue{{c, r}};
    while (!queue.empty()) {
      auto [x, y] = queue.front();
      queue.pop_front();
      for (auto [bc, br] : blocks_of(x, y)) {
        // Qualifies: exactly one empty cell e, the two cells beside e hold one colour A,
        // the cell diagonal to e holds the other colour.
        for (int ec = bc; ec <= bc + 1; ++ec)
          for (int er = br; er <= br + 1; ++er) {
            if (at(ec, er) != 0) continue;
            const int pc = 2 * bc + 1 - ec, pr = 2 * br + 1 - er;
            const int a = at(pc, er);
            if (a != 0 && at(ec, pr) == a && at(pc, pr) == 3 - a) {
              set(ec, er, a);
              queue.push_back({ec, er});
            }
          }
      }
    }
  }

  bool joined_diagonally(int c, int r, int dc, int dr) const {
    if (v_ == Variant::kCrossway) return true;
    if (v_ == Variant::kQuadrex) return false;
    const int bc = std::min(c, c + dc), br = std::min(r, r + dr);
    return links_[br * n_ + bc] == (dc == dr ? 0 : 1);
  }

  bool connected(int colour) const {
    std::vector<char> seen(n_ * n_, 0);
    std::deque<std::pair<int, int>> queue;
    for (int i = 0; i < n_; ++i) {
      const int c = colour == 1 ? i : 0, r = colour == 1 ? 0 : i;
      if (at(c, r) == colour) {
        seen[r * n_ + c] = 1;
        queue.push_back({c, r});
      }
    }
    while (!queue.empty()) {
      auto [c, r] = queue.front();
      queue.pop_front();
      if ((colour == 1 ? r : c) == n_ - 1) return true;
      for (int dc = -1; dc <= 1; ++dc)
        for (int dr = -1; dr <= 1; ++dr) {
          if ((dc == 0 && dr == 0) || !inside(c + dc, r + dr) || seen[(r + dr) * n_ + c + dc]) continue;
          if (at(c + dc, r + dr) != colour) continue;
          if (dc != 0 && dr != 0 && !joined_diagonally(c, r, dc, dr)) continue;
          seen[(r + dr) * n_ + c + dc] = 1;
          queue.push_back({c + dc, r + dr});
        }
    }
    return false;
  }

  Variant v_;
  int n_;
  bool pie_;
  std::vector<int> cells_;   // 0 empty, 1 black, 2 white
  std::vector<int> links_;   // per block: -1 none, else the diagonal
  std::vector<int> owner_;   // per block: the link's colour
  int mover_ = 1, ply_ = 0, result_ = 0;
  bool must_pass_ = false, both_ = false;
};

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

int colour_of(Player p) { return p == Player::kBlack ? 1 : (p == Player::kWhite ? 2 : 0); }
int result_of(Outcome o) {
  switch (o) {
    case Outcome::kBlackWins: return 1;
    case Outcome::kWhiteWins: return 2;
    case Outcome::kDraw: return 3;
    default: return 0;
  }
}

struct Totals {
  int games = 0, black = 0, white = 0, draws = 0;
  int passes = 0, swaps = 0, fills = 0;  // how much of the rules the games exercised
};

// Plays `games` random games, comparing the engine with the reference after every move.
// The first `full_checks` games also compare legal_actions() with why_illegal() on every action.
Totals check_against_reference(Variant v, int n, int games, int full_checks, uint64_t seed) {
  Totals t;
  Rng rng(seed);
  const GameSpec spec{v, n, variant_info(v).swap_by_default};
  std::vector<int> legal;
  std::vector<uint8_t> mask;
  for (int g = 0; g < games; ++g) {
    auto s = new_game(spec);
    Reference ref(v, n, spec.swap);
    mask.resize(s->num_actions());
    int plies = 0;
    while (true) {
      SCOPED_TRACE(describe(spec) + " game " + std::to_string(g) + " ply " + std::to_string(plies));
      const auto ref_legal = ref.legal();
      std::set<std::string> ref_names;
      for (const auto& m : ref_legal) ref_names.insert(ref.name(m));
      s->legal_actions(&legal);
      std::set<std::string> names;
      for (int a : legal) names.insert(s->action_to_string(a));
      if (names != ref_names || result_of(s->outcome()) != ref.result() || colour_of(s->to_move()) != ref.mover() ||
          as_set(s->stones_of(Player::kBlack)) != ref.stones(1) ||
          as_set(s->stones_of(Player::kWhite)) != ref.stones(2) ||
          as_set(s->links_of(Player::kBlack)) != ref.links(1) || as_set(s->links_of(Player::kWhite)) != ref.links(2)) {
        ADD_FAILURE() << "engine and reference differ\n" << s->board_text() << "\nengine legal " << names.size()
                      << ", reference legal " << ref_names.size() << ", engine result " << result_of(s->outcome())
                      << ", reference " << ref.result();
        return t;
      }
      EXPECT_FALSE(ref.both_connected());
      if (g < full_checks) {
        for (int a = 0; a < s->num_actions(); ++a)
          EXPECT_EQ(s->why_illegal(a).empty(), std::binary_search(legal.begin(), legal.end(), a))
              << s->action_to_string(a) << ": " << s->why_illegal(a);
      }
      if (s->is_over()) break;
      if (legal.empty()) {
        ADD_FAILURE() << "no legal move in an unfinished game\n" << s->board_text();
        return t;
      }
      const auto& m = ref_legal[rng.below(static_cast<uint32_t>(ref_legal.size()))];
      std::string error;
      const int a = s->parse_action(ref.name(m), &error);
      EXPECT_GE(a, 0) << error;
      if (a < 0) return t;
      const size_t stones_before = s->stones_of(Player::kBlack).size() + s->stones_of(Player::kWhite).size();
      s->apply(a);
      ref.play(m);
      ++plies;
      if (m.kind == RefMove::kPass) ++t.passes;
      if (m.kind == RefMove::kSwap) ++t.swaps;
      if (m.kind == RefMove::kPlace)
        t.fills += static_cast<int>(s->stones_of(Player::kBlack).size() + s->stones_of(Player::kWhite).size() -
                                    stones_before - 1);
    }
    // The end: exactly one winner (a draw only in crossway), nothing legal, mask all zero.
    s->legal_mask(mask.data());
    EXPECT_TRUE(std::all_of(mask.begin(), mask.end(), [](uint8_t x) { return x == 0; }));
    EXPECT_EQ(s->to_move(), Player::kNone);
    ++t.games;
    switch (s->outcome()) {
      case Outcome::kBlackWins: ++t.black; break;
      case Outcome::kWhiteWins: ++t.white; break;
      case Outcome::kDraw:
        ++t.draws;
        EXPECT_EQ(v, Variant::kCrossway) << "a draw outside crossway\n" << s->board_text();
        break;
      default: ADD_FAILURE() << "game not over";
    }
  }
  return t;
}

void run_variant(Variant v) {
  // (size, games, games with the full why_illegal scan)
  const int plan[][3] = {{3, 1500, 300}, {4, 1500, 200}, {5, 1000, 100}, {8, 300, 20}, {11, 150, 10}};
  int total = 0;
  Totals all;
  for (const auto& p : plan) {
    const Totals t = check_against_reference(v, p[0], p[1], p[2], 1000 + p[0] * 7 + static_cast<int>(v));
    EXPECT_EQ(t.games, p[1]);
    total += t.games;
    all.passes += t.passes;
    all.swaps += t.swaps;
    all.fills += t.fills;
    std::cout << "  " << variant_info(v).name << " " << p[0] << "x" << p[0] << ": " << t.games << " games, black "
              << t.black << ", white " << t.white << ", draws " << t.draws << ", passes " << t.passes
              << ", swaps " << t.swaps << ", quadrex fills " << t.fills << "\n";
  }
  EXPECT_GE(total, 4000);
  // The random games reach the special rules (else this test would prove little about them).
  if (variant_info(v).swap_by_default) {
    EXPECT_GT(all.swaps, 100);
  }
  if (v == Variant::kQuadrex) {
    EXPECT_GT(all.fills, 1000);
  }
}

TEST(RandomGames, QuaxMatchesReference) { run_variant(Variant::kQuax); }
TEST(RandomGames, LinkMatchesReference) { run_variant(Variant::kLink); }
TEST(RandomGames, QuickwayMatchesReference) { run_variant(Variant::kQuickway); }
TEST(RandomGames, CrosswayMatchesReference) { run_variant(Variant::kCrossway); }
TEST(RandomGames, QuadrexMatchesReference) { run_variant(Variant::kQuadrex); }

// Random games of crossway end long before anyone runs out of placements, so the forced
// pass and the draw are checked on crowded positions without a winner: stones of random
// colours are dropped on random cells, never completing a checkerboard or a connection,
// until no such drop is left.
std::vector<int> crowded_crossway_position(int n, Rng& rng) {
  Reference probe(Variant::kCrossway, n, true);
  std::vector<int> cells(n * n, 0);
  std::vector<std::pair<int, int>> options;
  while (true) {
    options.clear();
    for (int k = 0; k < n * n; ++k)
      for (int colour = 1; colour <= 2; ++colour) {
        if (cells[k] != 0) continue;
        probe.set_position(cells, colour, 10);
        if (!probe.placement_ok(k % n, k / n, colour)) continue;
        cells[k] = colour;
        probe.set_position(cells, colour, 10);
        if (probe.result() != 1 && probe.result() != 2) options.push_back({k, colour});
        cells[k] = 0;
      }
    if (options.empty()) return cells;
    const auto [k, colour] = options[rng.below(static_cast<uint32_t>(options.size()))];
    cells[k] = colour;
  }
}

TEST(RandomPositions, CrosswayPassAndNoPlacementMatchReference) {
  Rng rng(5);
  int passes = 0, positions = 0, draws = 0;
  for (int n : {3, 4, 5, 6}) {
    const GameSpec spec{Variant::kCrossway, n, true};
    for (int i = 0; i < 1500; ++i) {
      const std::vector<int> cells = crowded_crossway_position(n, rng);
      std::vector<Player> stones(n * n);
      for (int k = 0; k < n * n; ++k) stones[k] = cells[k] == 0 ? Player::kNone : static_cast<Player>(cells[k] - 1);
      const int mover = 1 + static_cast<int>(rng.below(2));
      Reference ref(Variant::kCrossway, n, true);
      ref.set_position(cells, mover, 10);
      if (ref.both_connected()) continue;  // not a position of a real game
      auto s = SquareGame::from_position(spec, stones, {}, static_cast<Player>(mover - 1), 10);
      ++positions;
      std::set<std::string> ref_names, names;
      for (const auto& m : ref.legal()) ref_names.insert(ref.name(m));
      std::vector<int> legal;
      s->legal_actions(&legal);
      for (int a : legal) names.insert(s->action_to_string(a));
      ASSERT_EQ(names, ref_names) << s->board_text();
      ASSERT_EQ(result_of(s->outcome()), ref.result()) << s->board_text();
      if (s->must_pass()) ++passes;
      if (s->outcome() == Outcome::kDraw) ++draws;
    }
  }
  std::cout << "  " << positions << " crowded crossway positions without a winner, " << passes
            << " with a forced pass, " << draws << " where neither side can place\n";
  EXPECT_GT(passes, 10);
}

// The fast playout path (play_random_to_end) must end the same way: one winner, nothing
// legal after it, and the winner's chain really there (checked by the reference's flood fill
// on a position rebuilt from the final stones and links).
TEST(RandomGames, FastPlayoutsEndWithExactlyOneWinner) {
  Rng rng(77);
  for (Variant v : {Variant::kQuax, Variant::kLink, Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    for (int n : {3, 4, 5, 8, 11}) {
      const GameSpec spec{v, n, variant_info(v).swap_by_default};
      int draws = 0;
      std::vector<uint8_t> mask;
      for (int g = 0; g < 1000; ++g) {
        auto s = new_game(spec);
        const Outcome o = s->play_random_to_end(rng);
        ASSERT_NE(o, Outcome::kOngoing);
        EXPECT_EQ(o, s->outcome());
        mask.resize(s->num_actions());
        s->legal_mask(mask.data());
        EXPECT_TRUE(std::all_of(mask.begin(), mask.end(), [](uint8_t x) { return x == 0; }));
        if (o == Outcome::kDraw) {
          ++draws;
          EXPECT_EQ(v, Variant::kCrossway);
          continue;
        }
        // Rebuild the final position (stones and links as the engine reports them).
        auto* sq = dynamic_cast<SquareGame*>(s.get());
        ASSERT_NE(sq, nullptr);
        std::vector<Player> stones(n * n);
        std::vector<std::array<int, 3>> links;
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) {
            stones[r * n + c] = sq->stone(c, r);
            int d = 0;
            const Player owner = (c + 1 < n && r + 1 < n) ? sq->link_on(c, r, &d) : Player::kNone;
            if (owner != Player::kNone) links.push_back({r * n + c, d, index_of(owner)});
          }
        auto rebuilt = SquareGame::from_position(spec, stones, links, Player::kBlack, s->move_number());
        EXPECT_EQ(rebuilt->outcome(), o) << s->board_text();
      }
      if (v == Variant::kCrossway) std::cout << "  crossway " << n << "x" << n << ": " << draws << " draws in 1000 fast playouts\n";
    }
  }
}

// GameState::swap_available() is the legality of `swap` (the proof search reads it instead
// of asking is_legal): the same answer after every ply of random games of every variant, with
// the pie rule on where the variant has one, and a swap played in some of them.
TEST(RandomGames, SwapAvailableIsTheSwapsLegality) {
  int count = 0;
  const VariantInfo* variants = all_variants(&count);
  for (int i = 0; i < count; ++i) {
    const VariantInfo& info = variants[i];
    const GameSpec spec{info.variant, nearest_valid_size(info.variant, 5), info.pie_rule_replaced_by == nullptr};
    Rng rng(77 + static_cast<uint64_t>(i));
    std::vector<int> legal;
    int available = 0, swaps = 0;
    for (int g = 0; g < 200; ++g) {
      auto s = new_game(spec);
      while (!s->is_over()) {
        s->legal_actions(&legal);
        bool swap_legal = false;
        for (int a : legal) swap_legal = swap_legal || s->action_to_string(a) == "swap";
        ASSERT_EQ(s->swap_available(), swap_legal) << describe(spec) << " game " << g << "\n" << s->board_text();
        available += swap_legal;
        const int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
        swaps += s->action_to_string(a) == "swap";
        s->apply(a);
      }
      EXPECT_FALSE(s->swap_available());
    }
    if (spec.swap) {
      EXPECT_GE(available, 200) << describe(spec);
      EXPECT_GT(swaps, 0) << describe(spec);
    } else {
      EXPECT_EQ(available, 0) << describe(spec);
    }
  }
}

}  // namespace
}  // namespace quax
