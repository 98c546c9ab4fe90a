#include "command/arena_games.h"

#include <memory>
#include <stdexcept>

#include "mcts/baseline_agents.h"
#include "arena/batched_games.h"
#include "env/rng.h"
#include "mcts/simple_evaluators.h"
#include "nets/net_evaluator.h"

namespace quax {

void play_arena_games(const GameSpec& spec, const std::vector<std::string>& names,
                      const std::vector<PlayerDescription>& desc, const std::vector<Pairing>& games,
                      const ArenaGamesOptions& options,
                      const std::function<void(size_t, const GameResult&)>& on_result,
                      const std::function<bool()>& should_stop) {
  const size_t n = names.size();
  auto is_model = [&](int i) { return desc[i].kind == PlayerDescription::Kind::kModel; };
  // mcts:<sims> searches as a model does, with a rollout for its network.
  auto mcts = [&](int i) {
    const auto b = is_model(i) ? std::nullopt : parse_baseline(desc[i].text, nullptr);
    return b && b->kind == BaselinePlayer::Kind::kMcts ? b->count : 0;
  };
  auto searches = [&](int i) { return is_model(i) || mcts(i) > 0; };
  // Indices into `games` of each way, so on_result reports the caller's index.
  std::vector<Pairing> batched, threaded;
  std::vector<size_t> batched_index, threaded_index;
  for (size_t g = 0; g < games.size(); ++g) {
    const Pairing& p = games[g];
    const bool batch = (is_model(p.black) || is_model(p.white)) && searches(p.black) && searches(p.white);
    (batch ? batched : threaded).push_back(p);
    (batch ? batched_index : threaded_index).push_back(g);
  }
  if (!batched.empty()) {
    set_torch_threads(options.net_threads);
    std::vector<std::unique_ptr<Evaluator>> evaluators;
    std::vector<SearchPlayer> search(n);
    std::vector<const SearchPlayer*> players(n, nullptr);
    for (size_t i = 0; i < n; ++i) {
      if (!searches(static_cast<int>(i))) continue;
      if (is_model(static_cast<int>(i))) {
        evaluators.push_back(std::make_unique<NetEvaluator>(load_inference_model(desc[i].model_path, spec, desc[i].precision, options.device)));
        search[i].search = desc[i].search;
      } else {  // mcts:<sims>: the same search as the baseline agent, flat priors and one rollout
        evaluators.push_back(std::make_unique<RolloutEvaluator>(1, derive_seed(options.seed, i)));
        search[i].search.simulations = mcts(static_cast<int>(i));
      }
      search[i].evaluator = evaluators.back().get();
      players[i] = &search[i];
    }
    BatchedGamesOptions bo;
    bo.parallel_games = options.parallel;
    bo.sampled_turns = options.sampled_turns;
    bo.seed = options.seed;
    play_games_batched(
        spec, names, batched, players, bo,
        [&](size_t g, const GameResult& r) { on_result(batched_index[g], r); }, should_stop);
  }
  if (!threaded.empty() && !(should_stop && should_stop())) {
    play_games(
        spec, names, threaded,
        [&](int index, uint64_t seed) {
          set_torch_threads(1);
          std::string error;
          auto agent = make_player(desc[index], spec, seed, &error, options.device);
          if (!agent) throw std::runtime_error(error);
          return agent;
        },
        options.threads, options.seed, [&](size_t g, const GameResult& r) { on_result(threaded_index[g], r); },
        should_stop);
  }
}

}  // namespace quax
