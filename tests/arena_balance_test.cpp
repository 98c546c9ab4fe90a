// The balance lab's library (arena/balance_*.h): first-move classes, the opening map
// against the solver and with a model that knows nothing, the figures read off games, the
// report's JSON fields, the compare table and the SVG map; and the same parts played by the
// uct:N baseline without any model (arena/balance_player.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "arena/balance_games.h"
#include "arena/balance_map_svg.h"
#include "arena/balance_openings.h"
#include "arena/balance_report.h"
#include "arena/balance_skill.h"
#include "mcts/baseline_agents.h"
#include "mcts/simple_evaluators.h"
#include "solve/book.h"
#include "solve/proof_search.h"

namespace quax {
namespace {

BookOptions symmetric_book() {
  BookOptions o;
  o.symmetry = true;
  return o;
}

const GameSpec kQuax4{Variant::kQuax, 4, false};
const GameSpec kQuax5{Variant::kQuax, 5, false};

const OpeningValue& entry(const std::vector<OpeningValue>& map, const std::string& move) {
  for (const OpeningValue& o : map)
    if (o.move == move) return o;
  throw std::runtime_error("no opening " + move);
}

TEST(BalanceOpenings, FirstMoveClassesFollowTheGoalKeepingSymmetries) {
  // 5x5: the mirrors and the half turn (colour-exchanging symmetries turn Black's stone into
  // White's, no first move) leave 9 classes of the 25 cells.
  const auto classes = first_move_classes(kQuax5);
  ASSERT_EQ(classes.size(), 9u);
  size_t moves = 0;
  for (const auto& c : classes) moves += c.size();
  EXPECT_EQ(moves, 25u);
  const auto board = new_game(kQuax5);
  std::set<std::string> corner, centre;
  for (const auto& c : classes) {
    std::set<std::string> names;
    for (int a : c) names.insert(board->action_to_string(a));
    if (names.count("a1")) corner = names;
    if (names.count("c3")) centre = names;
  }
  EXPECT_EQ(corner, (std::set<std::string>{"a1", "e1", "a5", "e5"}));
  EXPECT_EQ(centre, (std::set<std::string>{"c3"}));
}

TEST(BalanceOpenings, FirstMoveClassesOfOtherBoards) {
  // The hex rhombus: the half turn alone keeps the goals, so the centre stands alone and
  // every other cell pairs with its image: (25 - 1) / 2 + 1 classes on 5x5.
  const auto hex = first_move_classes({Variant::kHex, 5, false});
  EXPECT_EQ(hex.size(), 13u);
  const auto board = new_game({Variant::kHex, 5, false});
  for (const auto& c : hex) {
    if (c.size() != 2) continue;
    EXPECT_EQ(c[0] + c[1], 24) << board->action_to_string(c[0]);  // cells r*5+c and their half turn
  }
  // The torus: every first block is the same as every other one.
  const GameSpec torax{Variant::kTorax, 5, false};
  const auto t = first_move_classes(torax);
  std::vector<int> legal;
  new_game(torax)->legal_actions(&legal);
  size_t cells = 0;
  for (const auto& c : t) cells = std::max(cells, c.size());
  EXPECT_EQ(cells, 25u);
  EXPECT_LT(t.size(), legal.size());
}

TEST(BalanceOpenings, SymmetricOpeningsGetEqualValues) {
  // A rollout evaluator gives every searched position its own noisy value, so equal values
  // for mirror images come from the classes, not from chance.
  RolloutEvaluator rollouts(1, 7);
  OpeningMapOptions o;
  o.search.simulations = 24;
  o.games_per_opening = 0;
  const auto map = opening_map(kQuax5, rollouts, o);
  ASSERT_EQ(map.size(), 25u);
  const auto board = new_game(kQuax5);
  for (const std::vector<std::string>& images : {std::vector<std::string>{"a1", "e1", "a5", "e5"},
                                                 {"b1", "d1", "b5", "d5"},
                                                 {"a2", "e2", "a4", "e4"},
                                                 {"c1", "c5"},
                                                 {"a3", "e3"},
                                                 {"b2", "d2", "b4", "d4"}})
    for (const std::string& m : images) EXPECT_EQ(entry(map, m).value, entry(map, images[0]).value) << m;
  std::set<double> distinct;
  for (const OpeningValue& v : map) distinct.insert(v.value);
  EXPECT_GT(distinct.size(), 3u);  // not one value for all: the classes were searched apart
}

TEST(BalanceOpenings, ProvenOpeningsMatchTheSolversBook) {
  ProofSearch search(kQuax4, size_t{64} << 20);
  const auto book = solve_book(search, {{}}, symmetric_book()).entries;
  ASSERT_EQ(book.size(), 1u);
  const std::set<std::string> winning(book[0].winning_moves.begin(), book[0].winning_moves.end());
  EXPECT_EQ(winning, (std::set<std::string>{"b2", "c2", "b3", "c3"}));  // docs/SOLVE.md

  UniformEvaluator uniform;
  OpeningMapOptions o;
  o.search.simulations = 8;
  o.games_per_opening = 0;
  o.solve_seconds = 60;
  o.solve_memory_bytes = size_t{64} << 20;
  const auto map = opening_map(kQuax4, uniform, o);
  ASSERT_EQ(map.size(), 16u);
  for (const OpeningValue& v : map)
    EXPECT_EQ(v.proven, winning.count(v.move) ? GameValue::kWin : GameValue::kLoss) << v.move;
}

TEST(BalanceOpenings, BooksProveWhatTheSolverLeftOpen) {
  // 4x4 solved to depth 1: the start (its winning moves) and every position after a first move.
  ProofSearch search(kQuax4, size_t{64} << 20);
  const auto listed = positions_up_to_depth(kQuax4, {}, 1);
  const auto book = solve_book(search, listed.positions, symmetric_book()).entries;
  UniformEvaluator uniform;
  OpeningMapOptions o;
  o.search.simulations = 4;
  o.games_per_opening = 0;
  const std::set<std::string> winning{"b2", "c2", "b3", "c3"};
  // The start's entry alone: its winning moves win, the others lose (quax cannot draw).
  auto map = opening_map(kQuax4, uniform, o);
  EXPECT_EQ(apply_books(kQuax4, {book[0]}, &map), 16);
  for (const OpeningValue& v : map)
    EXPECT_EQ(v.proven, winning.count(v.move) ? GameValue::kWin : GameValue::kLoss) << v.move;
  // The entries after one move alone (value for White, turned to Black's side).
  map = opening_map(kQuax4, uniform, o);
  EXPECT_EQ(apply_books(kQuax4, std::vector<BookEntry>(book.begin() + 1, book.end()), &map), 16);
  for (const OpeningValue& v : map)
    EXPECT_EQ(v.proven, winning.count(v.move) ? GameValue::kWin : GameValue::kLoss) << v.move;
  // A book of another game proves nothing.
  map = opening_map(kQuax4, uniform, o);
  BookEntry other = book[0];
  other.spec.swap = true;
  EXPECT_EQ(apply_books(kQuax4, {other}, &map), 0);
}

TEST(BalanceOpenings, AModelThatKnowsNothingGivesAFlatMap) {
  UniformEvaluator uniform;  // flat policy, value 0
  OpeningMapOptions o;
  o.search.simulations = 16;
  o.games_per_opening = 12;
  // Its games would repeat one line from each opening after a few sampled plies; drawn from
  // the visits throughout they are nearly random play.
  o.sampled_turns = 100;
  const auto map = opening_map(kQuax5, uniform, o);
  ASSERT_EQ(map.size(), 25u);
  std::set<std::string> covered, classes;
  for (const OpeningValue& v : map) {
    EXPECT_NEAR(v.value, 0.0, 0.1) << v.move;
    EXPECT_EQ(v.games, 12) << v.move;
    EXPECT_LE(v.low, v.games_value);
    EXPECT_GE(v.high, v.games_value);
    EXPECT_EQ(v.swap, v.value > 0);
    classes.insert(v.representative);
    if (v.low <= v.value && v.value <= v.high) covered.insert(v.representative);
  }
  // Near-random play from a first move is close to even, though not from the best cells
  // (random play still favours the centre): the flat value lies inside most classes' intervals.
  EXPECT_GE(covered.size(), classes.size() - 3) << covered.size() << " of " << classes.size();
}

// Values for Black at +0.5 whoever is to move (the network's convention: for the player to
// move), so the map must turn every search value to the opener's side and read +0.5.
class BlackAheadEvaluator final : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, const float*, const uint8_t*, float* logits,
                float* values) override {
    const int actions = states.empty() ? 0 : states[0]->num_actions();
    for (size_t i = 0; i < states.size(); ++i) {
      std::fill(logits + i * actions, logits + (i + 1) * actions, 0.0f);
      values[i] = states[i]->to_move() == Player::kBlack ? 0.5f : -0.5f;
    }
  }
  bool needs_planes() const override { return false; }
};

TEST(BalanceOpenings, ValuesAreForThePlayerWhoOpened) {
  BlackAheadEvaluator black_ahead;
  OpeningMapOptions o;
  o.search.simulations = 16;
  o.games_per_opening = 0;
  for (const OpeningValue& v : opening_map(kQuax4, black_ahead, o)) {
    EXPECT_NEAR(v.value, 0.5, 1e-6) << v.move;
    EXPECT_TRUE(v.swap) << v.move;
  }
  // Torax: the player who places a block moves again, so no sign is turned.
  for (const OpeningValue& v : opening_map({Variant::kTorax, 5, false}, black_ahead, o)) {
    if (v.move == "adopt") continue;
    EXPECT_NEAR(v.value, 0.5, 1e-6) << v.move;
  }
}

PlayedGame game_of(Outcome outcome, std::vector<float> black_values) {
  PlayedGame g;
  g.outcome = outcome;
  g.plies = static_cast<int>(black_values.size());
  g.black_values = std::move(black_values);
  return g;
}

TEST(BalanceGames, DecidedShareAndLeadChangesReadTheValueTrace) {
  // Black wins; its value is above 0.5 from index 3 of 6 on.
  const PlayedGame g = game_of(Outcome::kBlackWins, {0.1f, 0.6f, -0.7f, 0.6f, 0.8f, 0.9f});
  EXPECT_DOUBLE_EQ(decided_share(g, 0.5), 0.5);
  // Sides: (none) B W B B B: two changes; within the margin the side is kept.
  EXPECT_EQ(lead_changes(g, 0.2), 2);
  EXPECT_EQ(lead_changes(game_of(Outcome::kBlackWins, {0.3f, 0.1f, -0.1f, 0.3f}), 0.2), 0);
  // White wins: White's view is the negated trace; never above 0.5 at the end: share 1.
  EXPECT_DOUBLE_EQ(decided_share(game_of(Outcome::kWhiteWins, {-0.9f, -0.9f, 0.0f}), 0.5), 1.0);
  EXPECT_DOUBLE_EQ(decided_share(game_of(Outcome::kWhiteWins, {-0.9f, -0.9f, -0.9f}), 0.5), 0.0);
  EXPECT_LT(decided_share(game_of(Outcome::kDraw, {0.f}), 0.5), 0);
}

TEST(BalanceGames, LengthsAndTally) {
  std::vector<PlayedGame> games;
  for (int n : {10, 12, 12, 14, 20})
    games.push_back(game_of(n % 4 == 0 ? Outcome::kBlackWins : Outcome::kWhiteWins, std::vector<float>(n, 0.f)));
  const LengthSummary s = summarize_lengths(games);
  EXPECT_DOUBLE_EQ(s.mean, 13.6);
  EXPECT_EQ(s.min, 10);
  EXPECT_EQ(s.q1, 12);
  EXPECT_EQ(s.median, 12);
  EXPECT_EQ(s.q3, 14);
  EXPECT_EQ(s.max, 20);
  EXPECT_EQ(s.histogram.at(12), 2);
  const FirstPlayerTally t = tally_first_player(games);  // 12, 12, 20: Black wins
  EXPECT_EQ(t.games, 5);
  EXPECT_EQ(t.black_wins, 3);
  EXPECT_DOUBLE_EQ(t.rate, 0.6);
  EXPECT_LT(t.low, 0.6);
  EXPECT_GT(t.high, 0.6);
}

TEST(BalanceGames, SelfPlayRecordsAValuePerPlyAndTheSwap) {
  UniformEvaluator uniform;
  SelfPlayOptions o;
  // Random-ish games, so that some swaps happen: with flat priors the search spreads its
  // visits over the 16 moves of ply 1 (swap the last of them), and the move is drawn from them.
  o.search.simulations = 48;
  o.sampled_turns = 30;
  o.parallel_games = 5;  // games start as others finish
  const GameSpec swap{Variant::kQuax, 4, true};
  const auto start = new_game(swap);
  const auto games = play_self_games(std::vector<const GameState*>(64, start.get()), uniform, o);
  int swapped = 0;
  ASSERT_EQ(games.size(), 64u);
  for (const PlayedGame& g : games) {
    EXPECT_NE(g.outcome, Outcome::kOngoing);
    EXPECT_EQ(g.opener, Player::kBlack);
    EXPECT_EQ(static_cast<int>(g.black_values.size()), g.plies);
    swapped += g.swapped;
  }
  EXPECT_GT(swapped, 0);
  EXPECT_EQ(tally_first_player(games).swapped, swapped);
}

TEST(BalanceSkill, CountsDoubleUpToTheCap) {
  EXPECT_EQ(skill_counts(8, 512), (std::vector<int>{8, 16, 32, 64, 128, 256}));
  EXPECT_EQ(skill_counts(8, 16), (std::vector<int>{8}));
  EXPECT_TRUE(skill_counts(8, 15).empty());
  std::vector<SkillPoint> curve(3);
  curve[0].score = 0.8;
  curve[1].score = 0.6;
  curve[2].score = 0.5;
  const SkillDepth d = skill_depth(curve);
  EXPECT_EQ(d.doublings_gaining, 2);
  EXPECT_NEAR(d.mean_score, 1.9 / 3, 1e-12);
}

TEST(BalanceSkill, PointIsColourBalancedFromTheDoubledSide) {
  RolloutEvaluator rollouts(1, 3);
  const SkillPoint p = skill_point({Variant::kQuax, 3, false}, rollouts, SearchSettings{}, 4, 6, 1);
  EXPECT_EQ(p.games(), 6);
  EXPECT_EQ(p.sims, 4);
}

// uct:N as the balance lab plays it without a model: the players of mcts/baseline_agents.h (what
// nets/players.h makes of "uct:N"), at the simulations each part asks for; `asked` records them.
BalancePlayer uct_player(std::vector<int>* asked = nullptr, int threads = 1) {
  return BalancePlayer(
      [asked](int simulations, uint64_t seed) {
        if (asked) asked->push_back(simulations);
        std::string error;
        auto agent = make_baseline_agent("uct:" + std::to_string(simulations), seed, &error);
        if (!agent) throw std::runtime_error(error);
        return agent;
      },
      threads);
}

// Hex 4x4 without swap: the solver proves which first moves win (c2 and d1 and their half
// turns) and which lose (a1, the acute corner, among them). UCT's own search of the position
// after each first move, its mean playout result turned to the opener's side, must rank every
// proven win above every proven loss, and the centre well above the corner, whatever the seed.
// (Its values lean to the opener, random playouts favouring the side with a stone more: the
// order is what it gives.)
TEST(BalanceBaseline, UctOpeningMapPutsTheCentreAboveTheCorner) {
  const GameSpec hex4{Variant::kHex, 4, false};
  OpeningMapOptions o;
  o.search.simulations = 20000;
  o.games_per_opening = 0;
  o.solve_seconds = 30;
  o.solve_memory_bytes = size_t{32} << 20;
  for (uint64_t seed : {1, 2, 3}) {
    o.seed = seed;
    std::vector<int> asked;
    const auto map = opening_map(hex4, uct_player(&asked), o);
    ASSERT_EQ(map.size(), 16u);
    // One search per class of first moves, at the count asked.
    EXPECT_EQ(asked, std::vector<int>(first_move_classes(hex4).size(), 20000));
    EXPECT_EQ(entry(map, "c2").proven, GameValue::kWin);
    EXPECT_EQ(entry(map, "a1").proven, GameValue::kLoss);
    EXPECT_GT(entry(map, "c2").value, entry(map, "a1").value + 0.15) << "seed " << seed;
    double lowest_win = 1, highest_loss = -1;
    for (const OpeningValue& v : map) {
      EXPECT_GE(v.value, -1.0);
      EXPECT_LE(v.value, 1.0);
      EXPECT_EQ(v.value, entry(map, v.representative).value) << v.move;  // a class shares its value
      ASSERT_NE(v.proven, GameValue::kUnknown) << v.move;
      if (v.proven == GameValue::kWin) lowest_win = std::min(lowest_win, v.value);
      if (v.proven == GameValue::kLoss) highest_loss = std::max(highest_loss, v.value);
    }
    EXPECT_GT(lowest_win, highest_loss) << "seed " << seed;
  }
}

// The first player's score of uct's self-play is read from games played to their end: every
// game is won by one side (quax cannot draw) after at least the 7 plies of the shortest
// 4x4 win, with a value per ply from uct's search, and the tally counts exactly those games.
// Threads change nothing: each search's seed is drawn in order before they run.
TEST(BalanceBaseline, UctSelfPlayScoresGamesReallyPlayed) {
  SelfPlayOptions o;
  o.search.simulations = 200;
  o.sampled_turns = 2;
  o.parallel_games = 3;
  o.seed = 5;
  const auto start = new_game(kQuax4);
  const std::vector<const GameState*> starts(8, start.get());
  const auto games = play_self_games(starts, uct_player(), o);
  ASSERT_EQ(games.size(), 8u);
  int black = 0;
  bool some_value = false;
  for (const PlayedGame& g : games) {
    EXPECT_TRUE(g.outcome == Outcome::kBlackWins || g.outcome == Outcome::kWhiteWins);
    EXPECT_GE(g.plies, 7);
    EXPECT_EQ(static_cast<int>(g.black_values.size()), g.plies);
    for (float v : g.black_values) {
      EXPECT_GE(v, -1.0f);
      EXPECT_LE(v, 1.0f);
      some_value = some_value || v != 0.0f;
    }
    black += g.outcome == Outcome::kBlackWins;
  }
  EXPECT_TRUE(some_value);
  const FirstPlayerTally t = tally_first_player(games);
  EXPECT_EQ(t.games, 8);
  EXPECT_EQ(t.black_wins, black);
  EXPECT_EQ(t.white_wins, 8 - black);
  EXPECT_DOUBLE_EQ(t.rate, black / 8.0);

  const auto again = play_self_games(starts, uct_player(nullptr, 3), o);
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(again[i].outcome, games[i].outcome) << i;
    EXPECT_EQ(again[i].black_values, games[i].black_values) << i;
  }
}

// Skill depth without a model: uct at twice the playouts against uct at once them, colour-balanced.
TEST(BalanceBaseline, UctSkillDoublesThePlayouts) {
  std::vector<int> asked;
  const SkillPoint p = skill_point({Variant::kQuax, 3, false}, uct_player(&asked), SearchSettings{}, 16, 4, 1);
  EXPECT_EQ(p.games(), 4);
  EXPECT_EQ(p.sims, 16);
  std::sort(asked.begin(), asked.end());
  EXPECT_EQ(asked, (std::vector<int>{16, 32}));  // one agent each, kept between games
}

// A player whose search values nothing (random) cannot measure a game: one line saying so.
TEST(BalanceBaseline, APlayerWithoutValuesIsRefused) {
  const BalancePlayer random([](int, uint64_t seed) { return make_random_agent(seed); });
  OpeningMapOptions o;
  o.games_per_opening = 0;
  try {
    opening_map(kQuax4, random, o);
    FAIL() << "random accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'random' values no position"), std::string::npos) << e.what();
  }
}

// A small report of every part, with a uniform evaluator on 3x3.
nlohmann::json small_report(const GameSpec& spec, const std::string& model) {
  UniformEvaluator uniform;
  OpeningMapOptions o;
  o.search.simulations = 4;
  o.games_per_opening = 1;
  o.solve_seconds = 5;
  o.solve_memory_bytes = size_t{8} << 20;
  nlohmann::json partial{{"variant", variant_info(spec.variant).name},
                         {"size", spec.size},
                         {"swap", spec.swap},
                         {"model", model},
                         {"settings", {{"sims", 4}}}};
  partial["parts"]["openings"] = openings_json(opening_map(spec, uniform, o));
  SelfPlayOptions so;
  so.search.simulations = 4;
  for (bool swap : {false, true}) {
    GameSpec s = spec;
    s.swap = swap;
    const auto start = new_game(s);
    partial["parts"][swap ? "games_with_swap" : "games_without_swap"] =
        games_part_json(play_self_games(std::vector<const GameState*>(4, start.get()), uniform, so), false);
  }
  partial["parts"]["skill"] = {skill_point_json(skill_point(spec, uniform, o.search, 2, 2, 1))};
  partial["complete"] = true;
  return assemble_balance(partial);
}

TEST(BalanceReport, HasTheDocumentedFields) {
  const GameSpec spec{Variant::kQuax, 3, false};
  const auto r = small_report(spec, "m.pt");
  for (const char* key : {"variant", "size", "swap", "model", "openings", "first_player", "length", "draw_rate",
                          "decisiveness", "lead_changes", "skill_trace", "skill_depth", "complete"})
    EXPECT_TRUE(r.contains(key)) << key;
  EXPECT_EQ(r["variant"], "quax");
  ASSERT_EQ(r["openings"].size(), 9u);
  for (const auto& o : r["openings"]) {
    for (const char* key : {"move", "value", "low", "high", "proven", "swap"}) EXPECT_TRUE(o.contains(key)) << key;
    EXPECT_GE(o["value"].get<double>(), -1.0);
    EXPECT_LE(o["value"].get<double>(), 1.0);
    EXPECT_TRUE(o["proven"] == "win" || o["proven"] == "loss") << o.dump();  // 3x3: solved at once
  }
  // docs/SOLVE.md: b2 wins on 3x3, a1 does not.
  for (const auto& o : r["openings"]) {
    if (o["move"] == "b2") {
      EXPECT_EQ(o["proven"], "win");
    }
    if (o["move"] == "a1") {
      EXPECT_EQ(o["proven"], "loss");
    }
  }
  for (const char* side : {"without_swap", "with_swap"})
    for (const char* key : {"games", "wins", "rate", "low", "high"})
      EXPECT_TRUE(r["first_player"][side].contains(key)) << side << " " << key;
  EXPECT_TRUE(r["first_player"]["swapped"].is_number());
  EXPECT_TRUE(r["draw_rate"].is_null());  // quax cannot draw
  EXPECT_EQ(r["skill_trace"].size(), 1u);
  EXPECT_EQ(r["length"]["games"], 4);
  // The openings read back for the map.
  const auto back = openings_from_json(spec, r["openings"]);
  ASSERT_EQ(back.size(), 9u);
  EXPECT_EQ(new_game(spec)->action_to_string(back[4].action), back[4].move);
  const std::string text = balance_text(r);
  EXPECT_NE(text.find("first player without swap"), std::string::npos) << text;
  EXPECT_NE(text.find("proven"), std::string::npos) << text;
  EXPECT_NE(text.find("  plies:games "), std::string::npos) << text;
}

// Who would swap the good openings: the second player under the pie rule; a report without
// it says so; torax, whose auction replaces the pie rule, has nobody to swap.
TEST(BalanceReport, SaysWhoWouldSwapTheGoodOpenings) {
  auto line = [](nlohmann::json r, const std::string& variant, bool swap) {
    r["variant"] = variant;
    r["swap"] = swap;
    const std::string text = balance_text(r);
    const size_t at = text.find("first moves are good for the opener");
    EXPECT_NE(at, std::string::npos) << text;
    return text.substr(at, text.find_first_of(";\n", at) - at);  // up to the solver's agreement
  };
  const auto r = small_report(GameSpec{Variant::kQuax, 3, false}, "m.pt");
  EXPECT_EQ(line(r, "quax", true), "first moves are good for the opener (the second player should swap them)");
  EXPECT_EQ(line(r, "quax", false),
            "first moves are good for the opener (under the pie rule, the second player would swap them)");
  EXPECT_EQ(line(r, "torax", false), "first moves are good for the opener");
}

// The game line names a triangle by its side, a square or rhombus by N x N.
TEST(BalanceReport, NamesTheBoardByItsShape) {
  auto r = small_report(GameSpec{Variant::kQuax, 3, false}, "m.pt");
  EXPECT_EQ(balance_text(r).rfind("quax 3x3 (no swap), model m.pt", 0), 0u);
  r["variant"] = "y";
  r["size"] = 15;
  r["swap"] = true;
  EXPECT_EQ(balance_text(r).rfind("y side 15 (swap), model m.pt", 0), 0u);
}

TEST(BalanceReport, CompareGivesEachReportsRows) {
  const auto a = small_report({Variant::kQuax, 3, false}, "a.pt");
  const auto b = small_report({Variant::kHex, 3, false}, "b.pt");
  const auto rows = compare_rows({{"dirA", a}, {"dirB", b}});
  std::map<std::string, std::vector<std::string>> by_name(rows.begin(), rows.end());
  EXPECT_EQ(by_name["report"], (std::vector<std::string>{"dirA", "dirB"}));
  EXPECT_EQ(by_name["game"], (std::vector<std::string>{"quax 3x3 (no swap)", "hex 3x3 (no swap)"}));
  EXPECT_EQ(by_name["player"], (std::vector<std::string>{"a.pt", "b.pt"}));
  ASSERT_EQ(by_name["first player, no swap"].size(), 2u);
  EXPECT_NE(by_name["first player, no swap"][0], "-");
  EXPECT_EQ(by_name["openings good for the opener"][1].find(" of 9"), 1u);
  const std::string md = compare_markdown({{"dirA", a}, {"dirB", b}}, {"dirA/openings.svg", "dirB/openings.svg"});
  EXPECT_NE(md.find("| | dirA | dirB |"), std::string::npos) << md;
  EXPECT_NE(md.find("![map](dirB/openings.svg)"), std::string::npos) << md;
}

// A run without a model says so wherever it is read: the text's first lines, the compare
// table's player row and the map's title name the baseline, never a model.
TEST(BalanceReport, MarksBaselinePlay) {
  auto partial = nlohmann::json{{"variant", "quax"},   {"size", 4},          {"swap", false},
                                {"model", nullptr},    {"player", "uct:2000"}, {"baseline", true},
                                {"settings", {{"sims", 2000}}}, {"parts", nlohmann::json::object()}};
  const auto r = assemble_balance(partial);
  EXPECT_EQ(r["player"], "uct:2000");
  EXPECT_EQ(r["baseline"], true);
  EXPECT_TRUE(r["model"].is_null());
  const std::string text = balance_text(r);
  EXPECT_EQ(text.rfind("quax 4x4 (no swap), player: uct:2000 (baseline, no model)\n", 0), 0u) << text;
  EXPECT_NE(text.find("baseline play: every figure is uct:2000's, not a model's"), std::string::npos) << text;
  EXPECT_NE(text.find("the mean result of its random playouts"), std::string::npos) << text;
  EXPECT_EQ(text.find("model quax"), std::string::npos) << text;
  const auto model = small_report(GameSpec{Variant::kQuax, 3, false}, "m.pt");
  const auto rows = compare_rows({{"a", r}, {"b", model}});
  std::map<std::string, std::vector<std::string>> by_name(rows.begin(), rows.end());
  EXPECT_EQ(by_name["player"], (std::vector<std::string>{"uct:2000 (baseline, no model)", "m.pt"}));
  EXPECT_EQ(baseline_label(r), "uct:2000 (baseline, no model)");
  // A model's report reads as before (its text is compared with the shipped reports').
  EXPECT_EQ(balance_text(model).rfind("quax 3x3 (no swap), model m.pt, 4 simulations\n", 0), 0u);
}

// What the terminal warns of (a model playing a size or pie rule it was not trained with) is in
// the text report and the compare table too; a report without warnings says "none".
TEST(BalanceReport, KeepsTheModelsWarnings) {
  nlohmann::json partial = {{"variant", "quax"}, {"size", 3}, {"swap", false}, {"model", "m.pt"},
                            {"settings", {{"sims", 4}}}, {"parts", nlohmann::json::object()}};
  partial["model_warnings"] = {"warning: model 'm.pt' was trained on quax 5x5, not 3x3; it plays that size untested"};
  const auto warned = assemble_balance(partial);
  ASSERT_EQ(warned["model_warnings"].size(), 1u);
  const std::string text = balance_text(warned);
  EXPECT_EQ(text.find("warning: model 'm.pt' was trained on quax 5x5, not 3x3"), text.find('\n') + 1) << text;
  const auto plain = small_report(GameSpec{Variant::kQuax, 3, false}, "a.pt");
  EXPECT_EQ(balance_text(plain).find("warning"), std::string::npos);
  const auto rows = compare_rows({{"a", plain}, {"b", warned}});
  std::map<std::string, std::vector<std::string>> by_name(rows.begin(), rows.end());
  EXPECT_EQ(by_name["model warnings"],
            (std::vector<std::string>{"none", "was trained on quax 5x5, not 3x3; it plays that size untested"}));
}

// An opening map measured without games (--opening-games 0) shows no mean or interval of
// zero games ("+0.00 [-1.00, +1.00] of 0").
TEST(BalanceReport, OpeningsWithoutGamesShowNoInterval) {
  auto r = small_report(GameSpec{Variant::kQuax, 3, false}, "m.pt");
  for (auto& o : r["openings"]) {
    o["games"] = 0;
    o["games_value"] = 0.0;
    o["low"] = -1.0;
    o["high"] = 1.0;
  }
  const std::string text = balance_text(r);
  EXPECT_EQ(text.find("of 0"), std::string::npos) << text;
  EXPECT_EQ(text.find("[-1.00, +1.00]"), std::string::npos) << text;
  EXPECT_NE(text.find("no games"), std::string::npos) << text;
}

TEST(BalanceMap, SvgColoursEveryFirstMove) {
  EXPECT_EQ(value_colour(0), "#ffffff");
  EXPECT_EQ(value_colour(-1), "#d73027");
  EXPECT_EQ(value_colour(1), "#2166ac");
  EXPECT_EQ(value_colour(5), "#2166ac");
  std::vector<OpeningValue> map(2);
  map[0].action = 0;
  map[0].move = "a1";
  map[0].value = 1;
  map[0].proven = GameValue::kWin;
  map[1].action = 4;
  map[1].move = "b2";
  map[1].value = -1;
  const std::string svg = opening_map_svg({Variant::kQuax, 3, false}, map, "t <3>");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("fill=\"#2166ac\" stroke"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#d73027\" stroke"), std::string::npos);
  EXPECT_NE(svg.find("<title>a1 +1.00</title>"), std::string::npos);
  EXPECT_NE(svg.find(">W</text>"), std::string::npos);
  EXPECT_NE(svg.find("t &lt;3&gt;"), std::string::npos);
  size_t polygons = 0;
  for (size_t at = svg.find("<polygon"); at != std::string::npos; at = svg.find("<polygon", at + 1)) ++polygons;
  EXPECT_EQ(polygons, 9u);  // every cell; the 7 that are no opening here in grey
}

}  // namespace
}  // namespace quax
