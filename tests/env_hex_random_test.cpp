// hex, quadhex, y, quady, quady2 over thousands of random positions: every game and sub-game
// of a full board has exactly one winner, the same as a flood fill written here from
// RULES.md's formulas; random games end with a majority; the network-frame symmetries
// commute with play, encoding and legal masks.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <vector>

#include "env/hex_game.h"

namespace quax {
namespace {

// A reference game: its cells and each cell's side bits, and the bits each player needs.
struct RefGame {
  std::set<int> cells;
  std::vector<uint8_t> sides;  // per grid cell
  uint8_t goal[2];
};

std::vector<int> ref_neighbours(bool triangle, int n, int cell) {
  const int i = cell % n, j = cell / n;  // rhombus: column, row; triangle: c - 1, r - 1
  std::vector<std::pair<int, int>> cand;
  if (!triangle)  // (i±1, j), (i, j±1), (i+1, j-1), (i-1, j+1)
    cand = {{i + 1, j}, {i - 1, j}, {i, j + 1}, {i, j - 1}, {i + 1, j - 1}, {i - 1, j + 1}};
  else  // (r, c±1), (r-1, c-1), (r-1, c), (r+1, c), (r+1, c+1)
    cand = {{i + 1, j}, {i - 1, j}, {i - 1, j - 1}, {i, j - 1}, {i, j + 1}, {i + 1, j + 1}};
  std::vector<int> out;
  for (auto [x, y] : cand)
    if (x >= 0 && y >= 0 && x < n && y < n && (!triangle || x <= y)) out.push_back(y * n + x);
  return out;
}

RefGame ref_game(int n, const std::function<bool(int, int)>& inside, const std::function<uint8_t(int, int)>& sides,
                 uint8_t black_goal, uint8_t white_goal) {
  RefGame g{{}, std::vector<uint8_t>(n * n, 0), {black_goal, white_goal}};
  for (int a = 1; a <= n; ++a)
    for (int b = 1; b <= n; ++b)
      if (inside(a, b)) {
        g.cells.insert((a - 1) * n + (b - 1));
        g.sides[(a - 1) * n + (b - 1)] = sides(a, b);
      }
  return g;
}

// The games of RULES.md section 4, straight from its formulas (depth 0 and 1).
std::vector<RefGame> ref_games(Variant v, int n) {
  std::vector<RefGame> out;
  if (v == Variant::kHex || v == Variant::kQuadhex) {
    // inside(row, column), 1-based.
    auto rect = [&](int r0, int r1, int c0, int c1) {
      return ref_game(
          n, [=](int r, int c) { return r >= r0 && r <= r1 && c >= c0 && c <= c1; },
          [=](int r, int c) { return (r == r0 ? 1 : 0) | (r == r1 ? 2 : 0) | (c == c0 ? 4 : 0) | (c == c1 ? 8 : 0); },
          3, 12);
    };
    out.push_back(rect(1, n, 1, n));
    if (v == Variant::kQuadhex) {
      const int h = n / 2;
      for (int qr = 0; qr < 2; ++qr)
        for (int qc = 0; qc < 2; ++qc) out.push_back(rect(qr * h + 1, qr * h + h, qc * h + 1, qc * h + h));
    }
    return out;
  }
  auto y_game = [&](std::function<bool(int, int)> in, std::function<uint8_t(int, int)> s) {
    return ref_game(n, [=](int r, int c) { return c <= r && in(r, c); }, s, 7, 7);
  };
  out.push_back(y_game([](int, int) { return true; },
                       [=](int r, int c) { return (c == 1 ? 1 : 0) | (c == r ? 2 : 0) | (r == n ? 4 : 0); }));
  if (v == Variant::kQuady) {
    const int h = (n + 1) / 2;
    out.push_back(y_game([=](int r, int) { return r <= h; },
                         [=](int r, int c) { return (c == 1 ? 1 : 0) | (c == r ? 2 : 0) | (r == h ? 4 : 0); }));
    out.push_back(y_game([=](int r, int c) { return r >= h && c <= r - h + 1; },
                         [=](int r, int c) { return (c == 1 ? 1 : 0) | (c == r - h + 1 ? 2 : 0) | (r == n ? 4 : 0); }));
    out.push_back(y_game([=](int r, int c) { return r >= h && c >= h; },
                         [=](int r, int c) { return (c == h ? 1 : 0) | (c == r ? 2 : 0) | (r == n ? 4 : 0); }));
    out.push_back(y_game([=](int r, int c) { return r >= h && r - h + 1 <= c && c <= h; },
                         [=](int r, int c) { return (r == h ? 1 : 0) | (c == r - h + 1 ? 2 : 0) | (c == h ? 4 : 0); }));
  }
  return out;
}

// For a triangular region of the triangle board (the quady2 sub-games), its sides found
// without the engine's tables: in barycentric coordinates (x, y-x, n-1-y) each side is the
// extreme value of one coordinate that more than one cell of the region takes.
RefGame ref_triangle_of(int n, const std::vector<int16_t>& cells) {
  RefGame g{std::set<int>(cells.begin(), cells.end()), std::vector<uint8_t>(n * n, 0), {7, 7}};
  auto coord = [&](int cell, int i) {
    const int x = cell % n, y = cell / n;
    return i == 0 ? x : i == 1 ? y - x : n - 1 - y;
  };
  for (int i = 0; i < 3; ++i) {
    int lo = 1 << 20, hi = -1;
    for (int cell : cells) lo = std::min(lo, coord(cell, i)), hi = std::max(hi, coord(cell, i));
    int at_lo = 0;
    for (int cell : cells) at_lo += coord(cell, i) == lo;
    const int side = at_lo > 1 ? lo : hi;
    for (int cell : cells)
      if (coord(cell, i) == side) g.sides[cell] |= static_cast<uint8_t>(1 << i);
  }
  return g;
}

// Whether player p joins its goal sides inside the game, by flood fill.
bool connects(const RefGame& g, bool triangle, int n, const std::vector<Player>& stones, Player p) {
  std::vector<uint8_t> seen(n * n, 0);
  for (int start : g.cells) {
    if (seen[start] || stones[start] != p) continue;
    uint8_t reached = 0;
    std::vector<int> stack = {start};
    seen[start] = 1;
    while (!stack.empty()) {
      const int cell = stack.back();
      stack.pop_back();
      reached |= g.sides[cell];
      for (int o : ref_neighbours(triangle, n, cell))
        if (!seen[o] && g.cells.count(o) && stones[o] == p) seen[o] = 1, stack.push_back(o);
    }
    const uint8_t goal = g.goal[index_of(p)];
    if ((reached & goal) == goal) return true;
  }
  return false;
}

// Reference games in the engine's order, matched by their cells: from RULES.md's formulas
// up to depth 1 (a game the formulas lack fails the test), quady2's sides found as above.
std::vector<RefGame> matched_refs(const GameSpec& spec, const HexGeometry& geo) {
  std::vector<RefGame> refs;
  if (spec.variant == Variant::kQuady2) {
    for (const auto& game : geo.games) refs.push_back(ref_triangle_of(spec.size, game.cells));
    return refs;
  }
  const auto from_rules = ref_games(spec.variant, spec.size);
  if (from_rules.size() != geo.games.size()) return {};
  for (const auto& game : geo.games) {
    const std::set<int> cells(game.cells.begin(), game.cells.end());
    const auto it = std::find_if(from_rules.begin(), from_rules.end(), [&](const RefGame& r) { return r.cells == cells; });
    if (it == from_rules.end()) return {};
    refs.push_back(*it);
  }
  return refs;
}

const GameSpec kSpecs[] = {{Variant::kHex, 7, true},   {Variant::kQuadhex, 8, true}, {Variant::kY, 9, true},
                           {Variant::kQuady, 9, true}, {Variant::kQuady2, 9, true},  {Variant::kQuady, 15, true}};

TEST(HexRandom, FullBoardsHaveOneWinnerPerGameMatchingAFloodFill) {
  Rng rng(20261122);
  for (const GameSpec& spec : kSpecs) {
    const HexGame empty(spec);
    const HexGeometry& geo = empty.geometry();
    const int n = spec.size;
    const std::vector<RefGame> refs = matched_refs(spec, geo);
    ASSERT_EQ(refs.size(), geo.games.size());
    for (int trial = 0; trial < 1000; ++trial) {
      std::vector<Player> stones(n * n, Player::kNone);
      for (int cell : geo.board_cells) stones[cell] = rng.below(2) ? Player::kBlack : Player::kWhite;
      const auto g = HexGame::from_position(spec, stones, Player::kBlack, 2);
      int points[2] = {0, 0};
      for (size_t i = 0; i < refs.size(); ++i) {
        const bool b = connects(refs[i], geo.triangle, n, stones, Player::kBlack);
        const bool w = connects(refs[i], geo.triangle, n, stones, Player::kWhite);
        ASSERT_NE(b, w) << describe(spec) << " game " << i << ": " << (b ? "both" : "neither") << " connect\n"
                        << g->board_text();
        ++points[b ? 0 : 1];
        ASSERT_EQ(g->game_winner(static_cast<int>(i)), b ? Player::kBlack : Player::kWhite)
            << describe(spec) << " game " << i << "\n" << g->board_text();
      }
      EXPECT_EQ(g->points(Player::kBlack), points[0]);
      EXPECT_EQ(g->outcome(), points[0] > points[1] ? Outcome::kBlackWins : Outcome::kWhiteWins);
    }
  }
}

TEST(HexRandom, RandomGamesEndAtAMajorityWithIncrementalWinnersMatchingTheFloodFill) {
  Rng rng(7);
  for (const GameSpec& spec : kSpecs) {
    for (int trial = 0; trial < 300; ++trial) {
      HexGame g(spec);
      std::vector<int> legal;
      int before[2] = {0, 0};
      while (!g.is_over()) {
        before[0] = g.points(Player::kBlack), before[1] = g.points(Player::kWhite);
        g.legal_actions(&legal);
        ASSERT_FALSE(legal.empty()) << describe(spec) << ": no move and no winner\n" << g.board_text();
        g.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      }
      const HexGeometry& geo = g.geometry();
      const Player w = winner_of(g.outcome());
      EXPECT_GE(g.points(w), geo.points_to_win);
      EXPECT_LT(before[index_of(w)], geo.points_to_win);  // the last move gave the majority
      EXPECT_LT(g.points(opponent(w)), geo.points_to_win);
      // Each game's winner as a flood fill over that game's cells of the final position says.
      std::vector<Player> stones(spec.size * spec.size, Player::kNone);
      for (int cell : geo.board_cells) stones[cell] = g.stone(cell);
      const std::vector<RefGame> refs = matched_refs(spec, geo);
      ASSERT_EQ(refs.size(), geo.games.size());
      for (size_t i = 0; i < geo.games.size(); ++i) {
        const bool b = connects(refs[i], geo.triangle, spec.size, stones, Player::kBlack);
        const bool wh = connects(refs[i], geo.triangle, spec.size, stones, Player::kWhite);
        ASSERT_FALSE(b && wh);
        ASSERT_EQ(g.game_winner(static_cast<int>(i)), b ? Player::kBlack : wh ? Player::kWhite : Player::kNone)
            << describe(spec) << " game " << i;
      }
      // The playout loop used by UCT and the benchmarks ends every game with a winner too.
      Rng r2(trial);
      HexGame fast(spec);
      const Outcome o = fast.play_random_to_end(r2);
      EXPECT_TRUE(o == Outcome::kBlackWins || o == Outcome::kWhiteWins);
      EXPECT_GE(fast.points(winner_of(o)), geo.points_to_win);
    }
  }
}

std::vector<float> planes_of(const HexGame& g) {
  std::vector<float> p(static_cast<size_t>(g.num_planes()) * g.size() * g.size());
  g.encode(p.data());
  return p;
}

std::vector<uint8_t> net_mask_of(const HexGame& g) {
  std::vector<uint8_t> m(g.num_actions());
  g.net_legal_mask(m.data());
  return m;
}

TEST(HexRandom, NetFrameSymmetriesCommuteWithPlay) {
  Rng rng(99);
  for (const GameSpec& spec : kSpecs) {
    const HexGame probe(spec);
    const int syms = probe.num_net_symmetries();
    EXPECT_EQ(syms, probe.geometry().triangle ? 6 : 2) << describe(spec);
    for (int sym = 0; sym < syms; ++sym) {
      const auto& map = probe.geometry().symmetries[sym];
      for (int trial = 0; trial < 40; ++trial) {
        HexGame g(spec), image(spec);
        std::vector<int> legal;
        while (true) {
          const auto p = planes_of(g);
          std::vector<float> moved(p.size());
          g.transform_net_planes(sym, p.data(), moved.data());
          ASSERT_EQ(moved, planes_of(image)) << describe(spec) << " sym " << sym << " ply " << g.move_number();
          const auto m = net_mask_of(g);
          std::vector<uint8_t> board(m.size()), via_actions(m.size(), 0);
          g.legal_mask(board.data());
          for (int a = 0; a < g.num_actions(); ++a)
            if (board[a]) via_actions[g.to_net_action(a)] = 1;
          ASSERT_EQ(m, via_actions) << "net_legal_mask disagrees with legal_mask and to_net_action";
          std::vector<uint8_t> moved_mask(m.size());
          g.transform_net_mask(sym, m.data(), moved_mask.data());
          ASSERT_EQ(moved_mask, net_mask_of(image));
          std::vector<float> policy(m.size()), moved_policy(m.size());
          for (size_t a = 0; a < m.size(); ++a) policy[a] = static_cast<float>(a);
          g.transform_net_policy(sym, policy.data(), moved_policy.data());
          for (size_t a = 0; a < m.size(); ++a) ASSERT_EQ(moved_mask[a], m[static_cast<size_t>(moved_policy[a])]);
          ASSERT_EQ(g.outcome(), image.outcome());
          if (g.is_over()) break;
          g.legal_actions(&legal);
          const int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
          // The board-frame image of a move: the same cell map (on the rhombus the half turn
          // commutes with White's transpose), swap stays swap.
          const int b = a == g.swap_action() ? a : map[a];
          ASSERT_TRUE(image.is_legal(b)) << image.why_illegal(b);
          g.apply(a);
          image.apply(b);
        }
      }
    }
  }
}

// encode() against its definition in hex_game.h, plane by plane, over random positions.
TEST(HexRandom, EncodeMatchesItsDefinition) {
  Rng rng(5);
  for (const GameSpec& spec : kSpecs) {
    for (int trial = 0; trial < 100; ++trial) {
      HexGame g(spec);
      std::vector<int> legal;
      const int plies = static_cast<int>(rng.below(spec.size * spec.size));
      for (int i = 0; i < plies && !g.is_over(); ++i) {
        g.legal_actions(&legal);
        g.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      }
      const HexGeometry& geo = g.geometry();
      const int n = spec.size, nn = n * n;
      const Player mover = g.is_over() ? Player::kBlack : g.to_move();
      std::vector<float> want(static_cast<size_t>(HexGame::kNumPlanes) * nn, 0.0f);
      for (int cell : geo.board_cells) {
        // White on the rhombus sees cell (x, y) at (y, x).
        const int i = !geo.triangle && mover == Player::kWhite ? (cell % n) * n + cell / n : cell;
        if (g.stone(cell) != Player::kNone) want[(g.stone(cell) == mover ? 0 : 1) * nn + i] = 1;
        want[2 * nn + i] = g.swap_available() ? 1 : 0;
        want[3 * nn + i] = 1;
        want[4 * nn + i] = geo.border[cell];
        for (size_t k = 0; k < geo.games.size(); ++k) {
          const auto& cells = geo.games[k].cells;
          if (g.game_winner(static_cast<int>(k)) == Player::kNone || !std::count(cells.begin(), cells.end(), cell)) continue;
          want[(g.game_winner(static_cast<int>(k)) == mover ? 5 : 6) * nn + i] += 1.0f / (geo.depth + 1);
        }
      }
      ASSERT_EQ(planes_of(g), want) << describe(spec) << " after " << g.move_number() << " plies";
    }
  }
}

TEST(HexRandom, WhiteSeesTheRhombusTransposed) {
  HexGame g({Variant::kHex, 5, false});
  g.apply(g.parse_action("b1", nullptr));  // black at x=1, y=0
  const auto p = planes_of(g);             // white to move: opponent stone at the transposed cell a2
  EXPECT_EQ(p[25 + 1 * 5 + 0], 1.0f);
  EXPECT_EQ(g.to_net_action(g.parse_action("c1", nullptr)), g.parse_action("a3", nullptr));
  EXPECT_EQ(g.from_net_action(g.to_net_action(7)), 7);
  HexGame y({Variant::kY, 5, false});
  y.apply(0);  // a1, the apex
  EXPECT_EQ(y.to_net_action(5 * 5 - 1), 5 * 5 - 1);  // the triangle needs no flip
}

}  // namespace
}  // namespace quax
