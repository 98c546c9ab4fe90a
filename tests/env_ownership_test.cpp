// GameState::final_ownership() and the network-frame targets of env/ownership.h: hand-made
// finished games with known owners and chains, symmetries (the target of a transformed
// position is the transformed target), and random games of every variant whose chains are
// checked by the env's own win detection on a board holding nothing but the chain.
#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "env/hex_game.h"
#include "env/ownership.h"
#include "env/quikquax_game.h"
#include "env/rng.h"
#include "env/square_game.h"
#include "env/stymie_game.h"
#include "env/symmetry.h"
#include "env/torax_game.h"

namespace quax {
namespace {

// Plays `moves` (canonical notation) from the start, each checked legal.
std::unique_ptr<GameState> play(const GameSpec& spec, const std::vector<std::string>& moves) {
  auto s = new_game(spec);
  for (const auto& m : moves) {
    std::string error;
    const int a = s->parse_action(m, &error);
    EXPECT_GE(a, 0) << m << ": " << error;
    EXPECT_TRUE(s->is_legal(a)) << m << ": " << s->why_illegal(a);
    s->apply(a);
  }
  return s;
}

int cell(const GameState& s, const std::string& name) {
  std::string error;
  const int a = s.parse_action(name, &error);
  EXPECT_TRUE(a >= 0 && a < s.size() * s.size()) << name << ": " << error;
  return a;
}

std::vector<float> targets(const GameState& position, const std::vector<CellOwnership>& final_board, int sym) {
  std::vector<float> out(static_cast<size_t>(kOwnershipPlanes) * position.size() * position.size(), 99.0f);
  net_ownership_targets(position, final_board, sym, out.data());
  return out;
}

// --- Hand-made games -------------------------------------------------------------------

// Quax 5x5: Black's chain c1 c2 (link c2-d3) d3 d4 d5 joins south and north; Black's a1 and
// a5 touch those edges too but belong to no chain; White's stones never connect.
const std::vector<std::string> kQuaxGame = {"c1", "a3", "c2", "b3", "d3", "c3",    "c2-d3", "e1",
                                            "d4", "b4", "a1", "e4", "a5", "b2", "d5"};

TEST(FinalOwnership, QuaxGameByItsMoves) {
  const GameSpec spec{Variant::kQuax, 5, false};
  const auto game = play(spec, kQuaxGame);
  ASSERT_EQ(game->outcome(), Outcome::kBlackWins);
  const auto board = game->final_ownership();
  ASSERT_EQ(board.size(), 25u);
  for (const char* name : {"c1", "c2", "d3", "d4", "d5"}) {
    EXPECT_EQ(board[cell(*game, name)].owner, Player::kBlack) << name;
    EXPECT_TRUE(board[cell(*game, name)].on_chain) << name;
  }
  for (const char* name : {"a1", "a5"}) {  // on Black's edges, off the chain
    EXPECT_EQ(board[cell(*game, name)].owner, Player::kBlack) << name;
    EXPECT_FALSE(board[cell(*game, name)].on_chain) << name;
  }
  for (const char* name : {"a3", "b3", "c3", "e1", "b4", "e4", "b2"}) {
    EXPECT_EQ(board[cell(*game, name)].owner, Player::kWhite) << name;
    EXPECT_FALSE(board[cell(*game, name)].on_chain) << name;
  }
  for (const char* name : {"e5", "a2", "d1", "e3"}) {
    EXPECT_EQ(board[cell(*game, name)].owner, Player::kNone) << name;
    EXPECT_FALSE(board[cell(*game, name)].on_chain) << name;
  }
  EXPECT_TRUE(play(spec, {"c1"})->final_ownership().empty()) << "a game not over has no final board";

  // Network frame. Before move 15 Black moves: its frame is the board's, d5 (column 3, row
  // 4) is index 23. Before move 14 White moves: its frame is transposed, d5 is index 3*5+4.
  const auto black_to_move = play(spec, std::vector<std::string>(kQuaxGame.begin(), kQuaxGame.end() - 1));
  const auto t = targets(*black_to_move, board, 0);
  EXPECT_EQ(t[23], 1.0f);
  EXPECT_EQ(t[25 + 23], 1.0f);
  EXPECT_EQ(t[20], 1.0f) << "a5: Black's stone";
  EXPECT_EQ(t[25 + 20], 0.0f) << "a5: off the chain";
  EXPECT_EQ(t[10], -1.0f) << "a3: White's stone";
  EXPECT_EQ(t[25 + 10], 0.0f);
  EXPECT_EQ(t[24], 0.0f) << "e5: empty";
  const auto white_to_move = play(spec, std::vector<std::string>(kQuaxGame.begin(), kQuaxGame.end() - 2));
  const auto w = targets(*white_to_move, board, 0);
  EXPECT_EQ(w[3 * 5 + 4], -1.0f) << "d5 from White's view";
  EXPECT_EQ(w[25 + 3 * 5 + 4], -1.0f) << "d5 is on the opponent's chain";
  EXPECT_EQ(w[0 * 5 + 2], 1.0f) << "a3 (column 0, row 2) transposed";
  EXPECT_EQ(w[25 + 0 * 5 + 2], 0.0f);
  // The half turn (index 3 of the goal-keeping ones) sends d5 of White's frame (net column 4,
  // row 3) to column 0, row 1.
  const auto w3 = targets(*white_to_move, board, 3);
  EXPECT_EQ(w3[1 * 5 + 0], -1.0f);
  EXPECT_EQ(w3[25 + 1 * 5 + 0], -1.0f);
}

// Hex 4x4: Black's chain b1 b2 a3 a4 joins rows 1 and 4; Black's d1 and d4 stand alone on
// those rows; White's group c2 c3 b3 d2 reaches only the east edge.
const std::vector<std::string> kHexGame = {"b1", "c2", "b2", "b3", "d1", "c3", "d4", "d2", "a3", "a1", "a4"};

TEST(FinalOwnership, HexGameByItsMoves) {
  const GameSpec spec{Variant::kHex, 4, false};
  const auto game = play(spec, kHexGame);
  ASSERT_EQ(game->outcome(), Outcome::kBlackWins);
  const auto board = game->final_ownership();
  ASSERT_EQ(board.size(), 16u);
  for (const char* name : {"b1", "b2", "a3", "a4"}) {
    EXPECT_EQ(board[cell(*game, name)].owner, Player::kBlack) << name;
    EXPECT_TRUE(board[cell(*game, name)].on_chain) << name;
  }
  for (const char* name : {"d1", "d4"}) {
    EXPECT_EQ(board[cell(*game, name)].owner, Player::kBlack) << name;
    EXPECT_FALSE(board[cell(*game, name)].on_chain) << name;
  }
  for (const char* name : {"c2", "b3", "c3", "d2", "a1"}) {
    EXPECT_EQ(board[cell(*game, name)].owner, Player::kWhite) << name;
    EXPECT_FALSE(board[cell(*game, name)].on_chain) << name;
  }
  for (const char* name : {"c1", "a2", "d3", "b4", "c4"}) EXPECT_EQ(board[cell(*game, name)].owner, Player::kNone) << name;

  // White to move before move 10: its frame is transposed, (x, y) -> (y, x), so a4 (x 0, y 3)
  // is net index y' * 4 + x' = 0 * 4 + 3.
  const auto white_to_move = play(spec, std::vector<std::string>(kHexGame.begin(), kHexGame.end() - 2));
  const auto w = targets(*white_to_move, board, 0);
  EXPECT_EQ(w[3], -1.0f);
  EXPECT_EQ(w[16 + 3], -1.0f);
  EXPECT_EQ(w[1 * 4 + 2], 1.0f) << "c2 (x 2, y 1) is White's";
  EXPECT_EQ(w[16 + 1 * 4 + 2], 0.0f);
  // The half turn of the rhombus: (x, y) -> (3 - x, 3 - y): net index 3 (x 3, y 0) -> 12.
  const auto w1 = targets(*white_to_move, board, 1);
  EXPECT_EQ(w1[12], -1.0f);
  EXPECT_EQ(w1[16 + 12], -1.0f);
}

// --- Random games ----------------------------------------------------------------------

struct PlayedGame {
  std::vector<std::unique_ptr<GameState>> positions;  // before each move
  std::unique_ptr<GameState> end;
};

PlayedGame random_game(const GameSpec& spec, Rng& rng) {
  PlayedGame g;
  auto s = new_game(spec);
  std::vector<int> legal;
  while (!s->is_over()) {
    g.positions.push_back(s->clone());
    s->legal_actions(&legal);
    s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
  g.end = std::move(s);
  return g;
}

const std::vector<GameSpec>& small_specs() {
  static const std::vector<GameSpec> specs = {
      {Variant::kQuax, 5, true},     {Variant::kLink, 5, false},   {Variant::kQuickway, 5, true},
      {Variant::kCrossway, 4, true}, {Variant::kQuadrex, 5, true}, {Variant::kQuikQuax, 6, false},
      {Variant::kTorax, 4, false},   {Variant::kStymie, 4, true},  {Variant::kHex, 5, true},
      {Variant::kQuadhex, 6, true},  {Variant::kY, 5, true},       {Variant::kQuady, 5, true},
      {Variant::kQuady2, 5, true}};
  return specs;
}

bool is_square_family(Variant v) {
  return v == Variant::kQuax || v == Variant::kLink || v == Variant::kQuickway || v == Variant::kCrossway ||
         v == Variant::kQuadrex;
}

// A square board holding only the chain's stones and the links between them, `loser` to move.
std::unique_ptr<SquareGame> square_chain_alone(const SquareGame& end, const std::vector<CellOwnership>& board,
                                               Player winner) {
  const int n = end.size();
  std::vector<Player> stones(n * n, Player::kNone);
  for (int c = 0; c < n * n; ++c)
    if (board[c].on_chain) stones[c] = board[c].owner;
  std::vector<std::array<int, 3>> links;
  for (int r = 0; r + 1 < n; ++r)
    for (int c = 0; c + 1 < n; ++c) {
      int d = 0;
      if (end.link_on(c, r, &d) != winner) continue;
      const int a = d == 0 ? r * n + c : r * n + c + 1, b = d == 0 ? a + n + 1 : a + n - 1;
      if (board[a].on_chain && board[b].on_chain) links.push_back({r * n + c, d, index_of(winner)});
    }
  return SquareGame::from_position(end.spec(), stones, links, opponent(winner), end.move_number());
}

// A plain flood fill (no union-find) of the winner's groups that touch both of its goals, for the
// boards whose groups are simple to follow: the square family (sides, crossway's corners, links),
// stymie (octagons along sides and through squares) and the whole-board hexagonal games (hex, y).
std::vector<bool> flood_chain(const GameState& end, const std::vector<CellOwnership>& board, Player winner) {
  const int n = end.size(), nn = n * n;
  const Variant v = end.spec().variant;
  const bool hex = v == Variant::kHex || v == Variant::kY, triangle = v == Variant::kY;
  const bool stymie = v == Variant::kStymie;
  // Nodes: the cells, then on stymie the squares (nn + block).
  const int nodes = stymie ? 2 * nn : nn;
  auto owner = [&](int x) {
    return x < nn ? board[x].owner : static_cast<const StymieGame&>(end).piece(x);
  };
  std::set<int> links;  // winner's link actions
  for (const auto& name : end.links_of(winner)) links.insert(end.parse_action(name, nullptr));
  auto neighbours = [&](int x) {
    std::vector<int> out;
    if (x >= nn) {  // a stymie square: its four octagons
      const int b = x - nn;
      for (int o : {b, b + 1, b + n, b + n + 1}) out.push_back(o);
      return out;
    }
    const int c = x % n, r = x / n;
    auto add = [&](int c2, int r2) {
      if (c2 >= 0 && r2 >= 0 && c2 < n && r2 < n) out.push_back(r2 * n + c2);
    };
    add(c + 1, r), add(c - 1, r), add(c, r + 1), add(c, r - 1);
    if (hex) {
      if (triangle) add(c + 1, r + 1), add(c - 1, r - 1);
      else add(c + 1, r - 1), add(c - 1, r + 1);
      return out;
    }
    for (int dc : {-1, 1})
      for (int dr : {-1, 1}) {
        const int bc = c + (dc < 0 ? -1 : 0), br = r + (dr < 0 ? -1 : 0);
        if (bc < 0 || br < 0 || bc >= n - 1 || br >= n - 1) continue;
        if (stymie) out.push_back(nn + br * n + bc);
        else if (v == Variant::kCrossway || links.count((1 + (dc == dr ? 0 : 1)) * nn + br * n + bc)) add(c + dc, r + dr);
      }
    return out;
  };
  auto sides = [&](int x) {  // bit 0/1: the winner's first/second goal; triangle: bits 0..2
    if (x >= nn) return 0;
    const int c = x % n, r = x / n;
    if (triangle) return (c == 0 ? 1 : 0) | (r - c == 0 ? 2 : 0) | (r == n - 1 ? 4 : 0);
    if (winner == Player::kBlack) return (r == 0 ? 1 : 0) | (r == n - 1 ? 2 : 0);
    return (c == 0 ? 1 : 0) | (c == n - 1 ? 2 : 0);
  };
  const int goal = triangle ? 7 : 3;
  std::vector<bool> seen(nodes, false), chain(nn, false);
  for (int start = 0; start < nodes; ++start) {
    if (owner(start) != winner || seen[start]) continue;
    std::vector<int> members{start};
    seen[start] = true;
    int reached = 0;
    for (size_t i = 0; i < members.size(); ++i) {
      reached |= sides(members[i]);
      for (int y : neighbours(members[i]))
        if (owner(y) == winner && !seen[y]) seen[y] = true, members.push_back(y);
    }
    if ((reached & goal) == goal)
      for (int x : members)
        if (x < nn) chain[x] = true;
  }
  return chain;
}

// Torax: true when every connected part of the chain (cells joined along sides and by black
// links) holds a loop around the torus, found by a search that lifts cells to the plane and
// meets one cell at two lifts.
bool torax_chain_wraps(const ToraxGame& end, const std::vector<CellOwnership>& board) {
  const int n = end.size();
  std::set<int> black_links;  // link actions
  for (const auto& name : end.links_of(Player::kBlack)) black_links.insert(end.parse_action(name, nullptr));
  std::map<int, std::pair<int, int>> lift;  // cell -> lifted (column, row)
  for (int start = 0; start < n * n; ++start) {
    if (!board[start].on_chain || lift.count(start)) continue;
    bool wraps = false;  // this component of the chain
    std::deque<int> queue{start};
    lift[start] = {start % n, start / n};
    while (!queue.empty()) {
      const int x = queue.front();
      queue.pop_front();
      const auto [lc, lr] = lift[x];
      std::vector<std::pair<int, int>> steps = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      for (int dc : {-1, 1})
        for (int dr : {-1, 1}) {
          // The diagonal step's block, named by its south-west cell: `/` when both go one way.
          const int bc = ((lc + (dc < 0 ? -1 : 0)) % n + n) % n, br = ((lr + (dr < 0 ? -1 : 0)) % n + n) % n;
          const int d = dc == dr ? 0 : 1;
          if (black_links.count((1 + d) * n * n + br * n + bc)) steps.push_back({dc, dr});
        }
      for (const auto& [dc, dr] : steps) {
        const int yc = lc + dc, yr = lr + dr, y = ((yr % n + n) % n) * n + ((yc % n + n) % n);
        if (!board[y].on_chain) continue;
        auto it = lift.find(y);
        if (it == lift.end()) {
          lift[y] = {yc, yr};
          queue.push_back(y);
        } else if (it->second != std::make_pair(yc, yr)) {
          wraps = true;
        }
      }
    }
    if (!wraps) return false;
  }
  return true;
}

TEST(FinalOwnership, RandomGamesOfEveryVariant) {
  for (const GameSpec& spec : small_specs()) {
    SCOPED_TRACE(describe(spec));
    Rng rng(0xC4A1 + static_cast<uint64_t>(spec.variant));
    int chains = 0;
    for (int game = 0; game < 300; ++game) {
      const PlayedGame g = random_game(spec, rng);
      const GameState& end = *g.end;
      const auto board = end.final_ownership();
      const int nn = end.size() * end.size();
      ASSERT_EQ(static_cast<int>(board.size()), nn);
      const Player winner = winner_of(end.outcome());

      // Owners: as many as the stones listed for each colour (stymie's squares are no cells;
      // torax lists colours, the targets seats).
      std::map<Player, int> owned;
      for (const auto& c : board) ++owned[c.owner];
      for (Player colour : {Player::kBlack, Player::kWhite}) {
        Player seat = colour;
        if (spec.variant == Variant::kTorax) {
          const auto& t = static_cast<const ToraxGame&>(end);
          seat = colour == Player::kBlack ? t.connector() : opponent(t.connector());
        }
        int stones = 0;
        for (const auto& name : end.stones_of(colour)) stones += name.back() != '+';
        ASSERT_EQ(owned[seat], stones) << player_name(colour);
      }

      bool any_chain = false;
      for (int c = 0; c < nn; ++c) {
        if (!board[c].on_chain) continue;
        any_chain = true;
        ASSERT_EQ(board[c].owner, winner) << "chain cell " << end.action_to_string(c) << "\n" << end.board_text();
      }
      chains += any_chain;
      const bool blocker_won = spec.variant == Variant::kTorax &&
                               winner != static_cast<const ToraxGame&>(end).connector();
      ASSERT_EQ(any_chain, winner != Player::kNone && !blocker_won) << end.board_text();
      if (!any_chain) continue;

      // Where groups are simple to follow, the chain is exactly what a plain flood fill finds.
      const Variant v = spec.variant;
      if (is_square_family(v) || v == Variant::kQuikQuax || v == Variant::kStymie || v == Variant::kHex ||
          v == Variant::kY) {
        const GameState& plain = v == Variant::kQuikQuax ? static_cast<const QuikQuaxGame&>(end).board() : end;
        const auto expected = flood_chain(plain, board, winner);
        for (int c = 0; c < nn; ++c)
          ASSERT_EQ(board[c].on_chain, expected[c]) << end.action_to_string(c) << "\n" << end.board_text();
      }

      // The chain alone wins: the env's own win detection on a board of nothing else.
      Outcome alone = Outcome::kOngoing;
      if (is_square_family(spec.variant)) {
        alone = square_chain_alone(static_cast<const SquareGame&>(end), board, winner)->outcome();
      } else if (spec.variant == Variant::kQuikQuax) {
        alone = square_chain_alone(static_cast<const QuikQuaxGame&>(end).board(), board, winner)->outcome();
      } else if (spec.variant == Variant::kStymie) {
        const auto& st = static_cast<const StymieGame&>(end);
        std::vector<Player> pieces(2 * nn, Player::kNone);
        for (int a = 0; a < nn; ++a)
          if (board[a].on_chain) pieces[a] = winner;
        for (int a = nn; a < 2 * nn; ++a)
          if (st.piece(a) == winner) pieces[a] = winner;  // squares only connect octagons
        alone = StymieGame::from_position(spec, pieces, opponent(winner))->outcome();
      } else if (spec.variant == Variant::kTorax) {
        alone = torax_chain_wraps(static_cast<const ToraxGame&>(end), board) ? win_for(winner) : Outcome::kOngoing;
      } else {
        std::vector<Player> stones(nn, Player::kNone);
        for (int c = 0; c < nn; ++c)
          if (board[c].on_chain) stones[c] = winner;
        alone = HexGame::from_position(spec, stones, opponent(winner), end.move_number())->outcome();
      }
      ASSERT_EQ(alone, win_for(winner)) << "the chain alone does not win\n" << end.board_text();
    }
    // Random torax games mostly end with the blocker's win, which has no chain.
    EXPECT_GT(chains, spec.variant == Variant::kTorax ? 20 : 150);
  }
}

// --- Symmetries ------------------------------------------------------------------------

// Square boards, all 8 board symmetries g: transform the position and the finished game by g;
// the target of the transformed position (identity) equals the target of the position under
// the network-frame symmetry that g is in the mover's frame.
TEST(OwnershipTargets, SquareBoardsCommuteWithEveryBoardSymmetry) {
  for (Variant v : {Variant::kQuax, Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    const GameSpec spec{v, 5, true};
    SCOPED_TRACE(describe(spec));
    Rng rng(77 + static_cast<uint64_t>(v));
    for (int game = 0; game < 30; ++game) {
      const PlayedGame g = random_game(spec, rng);
      const auto& end = static_cast<const SquareGame&>(*g.end);
      const auto board = end.final_ownership();
      for (const auto& p : g.positions) {
        const auto& position = static_cast<const SquareGame&>(*p);
        for (int k = 0; k < kNumSymmetries; ++k) {
          const Symmetry s = Symmetry::from_index(k);
          const auto moved_end = transform_position(s, end);
          ASSERT_EQ(moved_end->outcome(), map_outcome(s, end.outcome()));
          const auto moved_position = transform_position(s, position);
          const auto direct = targets(*moved_position, moved_end->final_ownership(), 0);
          const Symmetry h = net_symmetry(s, position.to_move());
          const int sym = h.index() / 2;  // kGoalKeepingSymmetries = {0, 2, 4, 6}
          ASSERT_EQ(kGoalKeepingSymmetries[sym], h.index());
          ASSERT_EQ(targets(position, board, sym), direct) << symmetry_name(s) << " at ply " << position.move_number();
        }
      }
    }
  }
}

// Hexagonal boards: each network-frame symmetry k is a cell permutation; with Black to move
// (and on the triangle always) the network frame is the board frame, so the permuted stones
// are the transformed position and the transformed end of the game.
TEST(OwnershipTargets, HexBoardsCommuteWithEverySymmetry) {
  for (const GameSpec spec : {GameSpec{Variant::kHex, 5, true}, GameSpec{Variant::kQuadhex, 6, true},
                              GameSpec{Variant::kY, 5, true}, GameSpec{Variant::kQuady, 5, true}}) {
    SCOPED_TRACE(describe(spec));
    Rng rng(91 + static_cast<uint64_t>(spec.variant));
    for (int game = 0; game < 30; ++game) {
      const PlayedGame g = random_game(spec, rng);
      const auto& end = static_cast<const HexGame&>(*g.end);
      const auto board = end.final_ownership();
      const int nn = end.size() * end.size();
      for (const auto& p : g.positions) {
        const auto& position = static_cast<const HexGame&>(*p);
        if (!end.geometry().triangle && position.to_move() != Player::kBlack) continue;
        for (int k = 0; k < position.num_net_symmetries(); ++k) {
          const auto& map = end.geometry().symmetries[k];
          auto permuted = [&](const HexGame& s, Player mover) {
            std::vector<Player> stones(nn, Player::kNone);
            for (int c = 0; c < nn; ++c) stones[map[c]] = s.stone(c);
            return HexGame::from_position(spec, stones, mover, s.move_number());
          };
          const auto moved_end = permuted(end, Player::kBlack);
          ASSERT_EQ(moved_end->outcome(), end.outcome());
          const auto moved_position = permuted(position, position.to_move());
          ASSERT_EQ(targets(position, board, k), targets(*moved_position, moved_end->final_ownership(), 0))
              << "symmetry " << k << " at ply " << position.move_number();
        }
      }
    }
  }
}

// Every variant, every network symmetry: the targets move exactly as the input planes do.
// After the opening (no swap left to move a stone) every stone of a position is still there at
// the end with the same owner, so where the transformed planes show the mover's stone the owner
// target is +1, and -1 where they show the opponent's.
TEST(OwnershipTargets, MoveWithTheInputPlanesUnderEverySymmetry) {
  for (const GameSpec& spec : small_specs()) {
    SCOPED_TRACE(describe(spec));
    Rng rng(5 + static_cast<uint64_t>(spec.variant));
    for (int game = 0; game < 6; ++game) {
      const PlayedGame g = random_game(spec, rng);
      const auto board = g.end->final_ownership();
      const int nn = g.end->size() * g.end->size();
      int owned = 0, on_chain = 0;
      for (const auto& c : board) owned += c.owner != Player::kNone, on_chain += c.on_chain;
      for (const auto& p : g.positions) {
        if (p->move_number() < 2) continue;
        const GameState& position = *p;
        // Planes 0 and 1 hold the mover's and the opponent's stones (cells), except on torax
        // where they hold black and white and the mover's colour comes from the adoption.
        int own_plane = 0, opp_plane = 1;
        if (spec.variant == Variant::kTorax &&
            static_cast<const ToraxGame&>(*g.end).connector() != position.to_move())
          std::swap(own_plane, opp_plane);
        std::vector<float> planes(static_cast<size_t>(position.num_planes()) * nn), moved(planes.size());
        position.encode(planes.data());
        const int syms = position.num_net_symmetries();
        for (int k = 0; k < syms; ++k) {
          position.transform_net_planes(k, planes.data(), moved.data());
          const auto t = targets(position, board, k);
          int nonzero = 0, chain = 0;
          for (int i = 0; i < nn; ++i) {
            if (moved[own_plane * nn + i] == 1.0f) {
              ASSERT_EQ(t[i], 1.0f) << "symmetry " << k << " net cell " << i;
            }
            if (moved[opp_plane * nn + i] == 1.0f) {
              ASSERT_EQ(t[i], -1.0f) << "symmetry " << k << " net cell " << i;
            }
            if (t[nn + i] != 0.0f) {
              ASSERT_EQ(t[nn + i], t[i]) << "a chain cell takes its owner's sign";
            }
            nonzero += t[i] != 0.0f;
            chain += t[nn + i] != 0.0f;
          }
          ASSERT_EQ(nonzero, owned);
          ASSERT_EQ(chain, on_chain);
        }
      }
    }
  }
}

}  // namespace
}  // namespace quax
