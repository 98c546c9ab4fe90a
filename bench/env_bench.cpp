// Google Benchmark figures of the rules engine and the vectorized environment (one thread).
// `quax bench env` measures the same things for one spec from the command line.
#include <benchmark/benchmark.h>

#include <vector>

#include "env/square_game.h"
#include "env/vector_env.h"

namespace quax {
namespace {

GameSpec spec_of(const benchmark::State& state) {
  const auto v = static_cast<Variant>(state.range(0));
  return GameSpec{v, static_cast<int>(state.range(1)), variant_info(v).swap_by_default};
}

void label(benchmark::State& state) { state.SetLabel(describe(spec_of(state))); }

// Copy of the start position + random play to the end: one iteration is one game.
void BM_RandomPlayout(benchmark::State& state) {
  const GameSpec spec = spec_of(state);
  const SquareGame start(spec);
  SquareGame game(spec);
  Rng rng(1);
  long plies = 0;
  for (auto _ : state) {
    game.copy_from(start);
    benchmark::DoNotOptimize(game.play_random_to_end(rng));
    plies += game.move_number();
  }
  state.counters["games/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["plies/game"] = static_cast<double>(plies) / static_cast<double>(state.iterations());
  label(state);
}


// One iteration: a random legal action per game (from the last mask), step, encode + mask
// of all B = range(2) games.
void BM_VectorStepEncode(benchmark::State& state) {
  const GameSpec spec = spec_of(state);
  const int batch = static_cast<int>(state.range(2));
  VectorEnv env(spec, batch);
  const int A = env.num_actions();
  std::vector<float> planes(static_cast<size_t>(batch) * env.planes_per_game());
  std::vector<uint8_t> masks(static_cast<size_t>(batch) * A);
  std::vector<int> actions(batch);
  env.legal_masks(masks.data());
  Rng rng(2);
  for (auto _ : state) {
    for (int i = 0; i < batch; ++i) actions[i] = sample_legal(masks.data() + static_cast<size_t>(i) * A, A, rng);
    env.step(actions.data());
    env.encode(planes.data());
    env.legal_masks(masks.data());
    benchmark::ClobberMemory();
  }
  state.counters["boards/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * batch, benchmark::Counter::kIsRate);
  label(state);
}

// encode() alone over positions from random games, to see its share.
void BM_Encode(benchmark::State& state) {
  const GameSpec spec = spec_of(state);
  std::vector<SquareGame> positions;
  Rng rng(3);
  std::vector<int> legal;
  for (int g = 0; g < 16; ++g) {
    SquareGame s(spec);
    for (int ply = 0; ply < 30 && !s.is_over(); ++ply) {
      s.legal_actions(&legal);
      s.apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    positions.push_back(s);
  }
  std::vector<float> planes(static_cast<size_t>(positions[0].num_planes()) * spec.size * spec.size);
  size_t i = 0;
  for (auto _ : state) {
    positions[i++ % positions.size()].encode(planes.data());
    benchmark::ClobberMemory();
  }
  state.counters["boards/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  label(state);
}

void all_variants_at(benchmark::internal::Benchmark* b, std::initializer_list<int> sizes) {
  for (int v = 0; v <= static_cast<int>(Variant::kQuadrex); ++v)
    for (int n : sizes) b->Args({v, n});
}

BENCHMARK(BM_RandomPlayout)->Apply([](benchmark::internal::Benchmark* b) { all_variants_at(b, {8, 11, 19}); });
BENCHMARK(BM_VectorStepEncode)->Apply([](benchmark::internal::Benchmark* b) {
  for (int v = 0; v <= static_cast<int>(Variant::kQuadrex); ++v) b->Args({v, 11, 256});
});
BENCHMARK(BM_Encode)->Args({0, 11})->Args({0, 19});

}  // namespace
}  // namespace quax
