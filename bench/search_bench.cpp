// Search speed with the uniform evaluator (no network): simulations per second of one
// tree on 9x9 quax from the empty board. `quax bench search` gives the driver figure and
// the cost split.
#include <benchmark/benchmark.h>

#include "mcts/search_agent.h"
#include "mcts/simple_evaluators.h"

namespace quax {
namespace {

void BM_SearchUniform(benchmark::State& bs) {
  const GameSpec spec{Variant::kQuax, static_cast<int>(bs.range(0)), true};
  SearchSettings s;
  s.simulations = static_cast<int>(bs.range(1));
  s.leaves_per_batch = static_cast<int>(bs.range(2));
  auto root = new_game(spec);
  SearchTree tree(spec);
  UniformEvaluator ev;
  Rng rng(1);
  EvaluationBatch batch;
  int64_t sims = 0;
  for (auto _ : bs) {
    tree.set_root(*root);
    run_search(tree, ev, s, false, rng, &batch);
    sims += tree.simulations_done();
  }
  bs.SetItemsProcessed(sims);
}
BENCHMARK(BM_SearchUniform)->Args({9, 800, 1})->Args({9, 800, 8})->Args({5, 800, 8})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace quax
