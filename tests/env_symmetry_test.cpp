// The symmetries of env/symmetry.h: group laws, known images, and that they commute with
// play, legal masks, encoding and the network frame over many random positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "env/square_game.h"
#include "env/symmetry.h"

namespace quax {
namespace {

std::vector<uint8_t> mask_of(const SquareGame& g) {
  std::vector<uint8_t> m(g.num_actions());
  g.legal_mask(m.data());
  return m;
}

// The legal mask in the network frame, built from the board-frame mask and to_net_action.
std::vector<uint8_t> net_mask_of(const SquareGame& g) {
  const auto board = mask_of(g);
  std::vector<uint8_t> net(board.size(), 0);
  for (int a = 0; a < g.num_actions(); ++a)
    if (board[a]) net[g.to_net_action(a)] = 1;
  return net;
}

std::vector<float> planes_of(const SquareGame& g) {
  std::vector<float> p(static_cast<size_t>(g.num_planes()) * g.size() * g.size());
  g.encode(p.data());
  return p;
}

std::unique_ptr<SquareGame> square(const GameSpec& spec) { return std::make_unique<SquareGame>(spec); }

std::unique_ptr<SquareGame> copy_of(const SquareGame& g) {
  auto c = square(g.spec());
  c->copy_from(g);
  return c;
}

// --- Group laws ----------------------------------------------------------------------

TEST(SymmetryGroup, EightDistinctElementsWithIdentityAndInverses) {
  std::set<std::vector<int>> images;
  const int n = 5;
  for (int k = 0; k < kNumSymmetries; ++k) {
    const Symmetry s = Symmetry::from_index(k);
    EXPECT_EQ(s.index(), k);
    std::vector<int> img(n * n);
    for (int cell = 0; cell < n * n; ++cell) img[cell] = map_cell(s, n, cell);
    std::vector<int> sorted = img;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < n * n; ++i) ASSERT_EQ(sorted[i], i) << symmetry_name(s) << " is not a permutation";
    images.insert(img);
    EXPECT_EQ(compose(s, Symmetry{}), s);
    EXPECT_EQ(compose(Symmetry{}, s), s);
    EXPECT_EQ(compose(s, inverse(s)).index(), 0);
    EXPECT_EQ(compose(inverse(s), s).index(), 0);
  }
  EXPECT_EQ(images.size(), 8u);
}

TEST(SymmetryGroup, CompositionActsAsFunctionCompositionAndIsAssociative) {
  const int n = 6;
  for (int i = 0; i < kNumSymmetries; ++i) {
    for (int j = 0; j < kNumSymmetries; ++j) {
      const Symmetry a = Symmetry::from_index(i), b = Symmetry::from_index(j), ab = compose(a, b);
      EXPECT_EQ(ab.swaps_colours(), a.swaps_colours() != b.swaps_colours());
      EXPECT_EQ(ab.swaps_diagonals(), a.swaps_diagonals() != b.swaps_diagonals());
      for (int cell = 0; cell < n * n; ++cell) ASSERT_EQ(map_cell(ab, n, cell), map_cell(b, n, map_cell(a, n, cell)));
      for (int action = 0; action < 3 * n * n + 2; ++action)
        ASSERT_EQ(map_square_action(ab, n, action), map_square_action(b, n, map_square_action(a, n, action)));
      for (int k = 0; k < kNumSymmetries; ++k) {
        const Symmetry c = Symmetry::from_index(k);
        EXPECT_EQ(compose(compose(a, b), c), compose(a, compose(b, c)));
      }
    }
  }
}

TEST(SymmetryGroup, GoalKeepingOnesFormASubgroup) {
  for (int i : kGoalKeepingSymmetries) {
    EXPECT_FALSE(Symmetry::from_index(i).swaps_colours());
    for (int j : kGoalKeepingSymmetries)
      EXPECT_FALSE(compose(Symmetry::from_index(i), Symmetry::from_index(j)).swaps_colours());
  }
}

// --- Known images ----------------------------------------------------------------------

TEST(SymmetryImages, CellsOfA5x5Board) {
  SquareGame g(GameSpec{Variant::kQuax, 5, true});
  std::string err;
  const int b1 = g.parse_action("b1", &err);
  auto name = [&](const char* sym) {
    for (int k = 0; k < kNumSymmetries; ++k)
      if (symmetry_name(Symmetry::from_index(k)) == sym) return g.action_to_string(map_square_action(Symmetry::from_index(k), 5, b1));
    return std::string("no such symmetry");
  };
  EXPECT_EQ(name("identity"), "b1");
  EXPECT_EQ(name("mirror_we"), "d1");
  EXPECT_EQ(name("mirror_ns"), "b5");
  EXPECT_EQ(name("half_turn"), "d5");
  EXPECT_EQ(name("transpose"), "a2");
  EXPECT_EQ(name("anti_transpose"), "e4");
  // Counter-clockwise: the south edge goes to the east edge.
  EXPECT_EQ(name("quarter_turn_ccw"), "e2");
  EXPECT_EQ(name("quarter_turn_cw"), "a4");
}

TEST(SymmetryImages, LinksMoveByBlockAndMirrorsExchangeDiagonals) {
  SquareGame g(GameSpec{Variant::kQuax, 5, true});
  std::string err;
  const int link = g.parse_action("b1-c2", &err);  // `/` of block b1
  ASSERT_GE(link, 0) << err;
  auto image = [&](int k) { return g.action_to_string(map_square_action(Symmetry::from_index(k), 5, link)); };
  EXPECT_EQ(image(0), "b1-c2");
  EXPECT_EQ(image(2), "d1-c2");  // mirror_we: block c1, now `\`
  EXPECT_EQ(image(4), "c4-b5");  // mirror_ns: block b4, `\`
  EXPECT_EQ(image(6), "c4-d5");  // half turn: block c4, still `/`
  EXPECT_EQ(image(1), "a2-b3");  // transpose keeps `/`
  EXPECT_EQ(image(7), "d3-e4");  // anti-transpose keeps `/`
  EXPECT_EQ(g.action_to_string(map_square_action(Symmetry::from_index(3), 5, g.swap_action())), "swap");
  EXPECT_EQ(map_square_action(Symmetry::from_index(5), 5, g.pass_action()), g.pass_action());
  // A padding entry of a link plane (block column N-1) stays where it is.
  EXPECT_EQ(map_square_action(Symmetry::from_index(6), 5, g.link_action(4, 0, 0)), g.link_action(4, 0, 0));
}

TEST(SymmetryImages, NetSymmetryIsGoalKeeping) {
  for (int k = 0; k < kNumSymmetries; ++k)
    for (Player p : {Player::kBlack, Player::kWhite})
      EXPECT_FALSE(net_symmetry(Symmetry::from_index(k), p).swaps_colours());
  // Black's frame is the board: goal-keeping symmetries are unchanged.
  EXPECT_EQ(net_symmetry(Symmetry::from_index(2), Player::kBlack).index(), 2);
  // White's frame is transposed: the west-east mirror becomes the north-south one.
  EXPECT_EQ(net_symmetry(Symmetry::from_index(2), Player::kWhite).index(), 4);
}

TEST(SymmetryPlanes, TransformMovesStonesAndExchangesLinkPlanes) {
  const int n = 4, nn = n * n;
  std::vector<float> in(8 * nn, 0.0f), out(8 * nn, -1.0f);
  in[0 * nn + 0 * n + 1] = 1.0f;  // own stone on b1
  in[2 * nn + 0 * n + 0] = 1.0f;  // own `/` on block a1
  in[5 * nn + 1 * n + 2] = 1.0f;  // opponent `\` on block c2
  for (int i = 0; i < nn; ++i) in[7 * nn + i] = 1.0f;
  transform_planes(Symmetry::from_index(2), n, square_input_planes(), in.data(), out.data());  // mirror_we
  std::vector<float> want(8 * nn, 0.0f);
  want[0 * nn + 0 * n + 2] = 1.0f;  // c1
  want[3 * nn + 0 * n + 2] = 1.0f;  // own `\` on block c1 (block grid is 3x3)
  want[4 * nn + 1 * n + 0] = 1.0f;  // opponent `/` on block a2
  for (int i = 0; i < nn; ++i) want[7 * nn + i] = 1.0f;
  EXPECT_EQ(out, want);
}

// --- Commuting with play ------------------------------------------------------------------

struct Case {
  Variant variant;
  int size;
};

// Checks, at position s, every symmetry g against: the position key, legal mask and outcome
// of g(s); g(apply(s, a)) == apply(g(s), g(a)) for a few legal a (and the conjugated
// identity for swap); encode(g(s)) == planes transform of encode(s) by the matching
// network-frame symmetry, and the same for the network-frame legal mask.
void check_position(const SquareGame& s, Rng& rng, int* checked_moves) {
  const int n = s.size();
  const auto mask = mask_of(s);
  std::vector<int> legal;
  for (int a = 0; a < s.num_actions(); ++a)
    if (mask[a]) legal.push_back(a);
  const Symmetry t_sym = transpose_symmetry();
  for (int k = 0; k < kNumSymmetries; ++k) {
    const Symmetry g = Symmetry::from_index(k);
    SCOPED_TRACE(symmetry_name(g) + " at ply " + std::to_string(s.move_number()) + "\n" + s.board_text());
    const auto gs = transform_position(g, s);
    ASSERT_EQ(gs->outcome(), map_outcome(g, s.outcome()));
    if (!s.is_over()) {
      ASSERT_EQ(gs->to_move(), map_player(g, s.to_move()));
    }
    ASSERT_EQ(gs->must_pass(), s.must_pass());
    ASSERT_EQ(gs->swap_available(), s.swap_available());
    if (k == 0) {
      ASSERT_EQ(gs->position_key(), s.position_key());
    }
    // Legal masks map action by action.
    const auto gmask = mask_of(*gs);
    for (int a = 0; a < s.num_actions(); ++a) ASSERT_EQ(gmask[map_square_action(g, n, a)], mask[a]) << s.action_to_string(a);
    // The inverse brings the position back.
    ASSERT_EQ(transform_position(inverse(g), *gs)->position_key(), s.position_key());
    if (!s.is_over()) {
      const Symmetry h = net_symmetry(g, s.to_move());
      const auto planes = planes_of(s);
      std::vector<float> moved(planes.size());
      transform_planes(h, n, square_input_planes(), planes.data(), moved.data());
      ASSERT_EQ(planes_of(*gs), moved) << "network symmetry " << symmetry_name(h);
      const auto net = net_mask_of(s);
      std::vector<uint8_t> net_moved(net.size());
      transform_policy(h, n, square_action_planes(), SquareGame::kExtraActions, net.data(), net_moved.data());
      ASSERT_EQ(net_mask_of(*gs), net_moved);
    }
    // A few moves, and always swap when it is legal.
    std::vector<int> moves;
    for (int i = 0; i < 3 && !legal.empty(); ++i) moves.push_back(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    if (s.swap_available() && mask[s.swap_action()]) moves.push_back(s.swap_action());
    for (int a : moves) {
      auto after = copy_of(s);
      after->apply(a);
      const auto lhs = transform_position(g, *after);
      std::unique_ptr<SquareGame> rhs;
      if (a == s.swap_action()) {
        // Swap mirrors the stone across the a1 diagonal T: conjugate g by T.
        const Symmetry t = compose(compose(t_sym, g), t_sym);
        rhs = transform_position(t, s);
      } else {
        rhs = transform_position(g, s);
      }
      const int ga = a == s.swap_action() ? a : map_square_action(g, n, a);
      ASSERT_TRUE(rhs->is_legal(ga)) << s.action_to_string(a) << " -> " << rhs->action_to_string(ga);
      rhs->apply(ga);
      ASSERT_EQ(lhs->position_key(), rhs->position_key()) << "move " << s.action_to_string(a) << "\n"
                                                           << lhs->board_text() << "\n" << rhs->board_text();
      ASSERT_EQ(lhs->outcome(), rhs->outcome());
      ASSERT_EQ(lhs->outcome(), map_outcome(g, after->outcome()));
      ASSERT_EQ(mask_of(*lhs), mask_of(*rhs));
      ++*checked_moves;
    }
  }
}

// Quadrex's cascade runs in a fixed order that no symmetry preserves; it still commutes
// because no position is known where the order changes the result (see the note in
// tests/env_seed_games_test.cpp). A failure here for quadrex alone would point there.
class SymmetryCommutes : public ::testing::TestWithParam<Case> {};

TEST_P(SymmetryCommutes, WithPlayOverRandomGames) {
  const Case c = GetParam();
  const GameSpec spec{c.variant, c.size, variant_info(c.variant).swap_by_default};
  Rng rng(1000 + 31 * c.size + static_cast<int>(c.variant));
  const int games = c.size <= 5 ? 60 : (c.size <= 8 ? 25 : 10);
  int positions = 0, moves = 0;
  std::vector<int> legal;
  for (int game = 0; game < games; ++game) {
    SquareGame s(spec);
    while (true) {
      check_position(s, rng, &moves);
      if (::testing::Test::HasFatalFailure()) return;
      ++positions;
      if (s.is_over()) break;
      s.legal_actions(&legal);
      ASSERT_FALSE(legal.empty());
      s.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
  }
  // Thousands of (position, symmetry, move) triples per case.
  EXPECT_GT(positions, 250);
  EXPECT_GT(moves, 5000);
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  int count = 0;
  const VariantInfo* vs = all_variants(&count);
  for (int i = 0; i < count; ++i)
    for (int size : {4, 5, 8, 11})
      if (size >= vs[i].min_size && size <= vs[i].max_size && (!vs[i].even_sizes_only || size % 2 == 0) &&
          dynamic_cast<const SquareGame*>(new_game(GameSpec{vs[i].variant, size, true}).get()))  // square family only
        out.push_back(Case{vs[i].variant, size});
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllSquareVariants, SymmetryCommutes, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(variant_info(info.param.variant).name) + "_" +
                                  std::to_string(info.param.size);
                         });

// The swap identity needs the conjugation: with the plain one, swap does not commute with
// the west-east mirror (a stone off the diagonal lands on different cells).
TEST(SymmetrySwap, PlainCommutationFailsForMirrorButConjugatedHolds) {
  const GameSpec spec{Variant::kQuax, 5, true};
  SquareGame s(spec);
  std::string err;
  s.apply(s.parse_action("b1", &err));
  const Symmetry we = Symmetry::from_index(2);
  auto after = copy_of(s);
  after->apply(s.swap_action());
  const auto lhs = transform_position(we, *after);  // white a2 -> white e2
  auto plain = transform_position(we, s);           // black d1, swap -> white a4
  plain->apply(s.swap_action());
  EXPECT_NE(lhs->position_key(), plain->position_key());
  const Symmetry t = compose(compose(transpose_symmetry(), we), transpose_symmetry());
  EXPECT_EQ(symmetry_name(t), "mirror_ns");
  auto conj = transform_position(t, s);  // black b5, swap -> white e2
  conj->apply(s.swap_action());
  EXPECT_EQ(lhs->position_key(), conj->position_key());
  EXPECT_EQ(lhs->stones_of(Player::kWhite), std::vector<std::string>{"e2"});
}

// --- Network frame ----------------------------------------------------------------------

TEST(NetworkFrame, ActionsRoundTripAndFormAPermutation) {
  for (Variant v : {Variant::kQuax, Variant::kCrossway}) {
    for (int n : {5, 11}) {
      SquareGame s(GameSpec{v, n, true});
      Rng rng(7);
      std::vector<int> legal;
      for (int ply = 0; ply < 6 && !s.is_over(); ++ply) {
        std::vector<int> seen(s.num_actions(), 0);
        for (int a = 0; a < s.num_actions(); ++a) {
          const int net = s.to_net_action(a);
          ASSERT_GE(net, 0);
          ASSERT_LT(net, s.num_actions());
          ASSERT_EQ(s.from_net_action(net), a);
          ++seen[net];
        }
        for (int x : seen) ASSERT_EQ(x, 1);
        // White's frame is the transpose: b1 is seen as a2.
        if (s.to_move() == Player::kWhite) {
          EXPECT_EQ(s.to_net_action(s.cell_action(1, 0)), s.cell_action(0, 1));
        } else {
          EXPECT_EQ(s.to_net_action(s.cell_action(1, 0)), s.cell_action(1, 0));
        }
        s.legal_actions(&legal);
        s.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      }
    }
  }
}

}  // namespace
}  // namespace quax
