// Google Benchmark figures of the multi-action variants (quikquax, torax, stymie): random
// playouts, and Torax's two win tests (incremental wrapping loop, "Black can no longer win").
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "env/game_state.h"
#include "env/torax_game.h"

namespace quax {
namespace {

GameSpec spec_of(const benchmark::State& state) {
  const auto v = static_cast<Variant>(state.range(0));
  return GameSpec{v, static_cast<int>(state.range(1)), variant_info(v).swap_by_default};
}

// One iteration is one game from the start: copy + random play to the end.
void BM_MultiRandomPlayout(benchmark::State& state) {
  const GameSpec spec = spec_of(state);
  const auto start = new_game(spec);
  auto game = new_game(spec);
  // Torax from the start would spend most of a random game in the auction: start after an
  // immediate adopt instead, which is where self-play spends its time.
  if (spec.variant == Variant::kTorax) {
    game->apply(static_cast<const ToraxGame&>(*game).adopt_action());
  }
  const auto first = game->clone();
  Rng rng(1);
  long plies = 0;
  for (auto _ : state) {
    game->copy_from(*first);
    benchmark::DoNotOptimize(game->play_random_to_end(rng));
    plies += game->move_number();
  }
  state.counters["games/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["actions/game"] = static_cast<double>(plies) / static_cast<double>(state.iterations());
  state.SetLabel(describe(spec));
}

// Positions of Torax games after adopt and `range(1)` random play actions.
std::vector<ToraxGame> torax_positions(int n, int actions) {
  std::vector<ToraxGame> out;
  Rng rng(5);
  std::vector<int> legal;
  while (out.size() < 32) {
    ToraxGame s({Variant::kTorax, n, false});
    s.apply(s.adopt_action());
    for (int i = 0; i < actions && !s.is_over(); ++i) {
      s.legal_actions(&legal);
      s.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    if (!s.is_over()) out.push_back(s);
  }
  return out;
}

// The from-scratch "can Black still make a wrapping loop" test, run after every White action.
void BM_ToraxBlackCanStillWin(benchmark::State& state) {
  const auto positions = torax_positions(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(positions[i++ % positions.size()].black_can_still_win());
  state.SetLabel("torax " + std::to_string(state.range(0)) + "x" + std::to_string(state.range(0)) + " after " +
                 std::to_string(state.range(1)) + " actions");
}

// copy + apply of one legal action (the search's step), incremental loop test included.
void BM_ToraxCopyApply(benchmark::State& state) {
  const auto positions = torax_positions(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  std::vector<std::vector<int>> legal(positions.size());
  for (size_t k = 0; k < positions.size(); ++k) positions[k].legal_actions(&legal[k]);
  ToraxGame scratch = positions[0];
  size_t i = 0;
  for (auto _ : state) {
    const size_t k = i++ % positions.size();
    scratch.copy_from(positions[k]);
    scratch.apply(legal[k][i % legal[k].size()]);
    benchmark::DoNotOptimize(scratch.outcome());
  }
  state.SetLabel("torax " + std::to_string(state.range(0)) + "x" + std::to_string(state.range(0)) + " after " +
                 std::to_string(state.range(1)) + " actions");
}

BENCHMARK(BM_MultiRandomPlayout)
    ->Args({static_cast<int>(Variant::kQuikQuax), 8})
    ->Args({static_cast<int>(Variant::kQuikQuax), 14})
    ->Args({static_cast<int>(Variant::kTorax), 5})
    ->Args({static_cast<int>(Variant::kTorax), 9})
    ->Args({static_cast<int>(Variant::kStymie), 5})
    ->Args({static_cast<int>(Variant::kStymie), 8});
BENCHMARK(BM_ToraxBlackCanStillWin)->Args({9, 10})->Args({9, 40})->Args({9, 80});
BENCHMARK(BM_ToraxCopyApply)->Args({9, 10})->Args({9, 40});

}  // namespace
}  // namespace quax
