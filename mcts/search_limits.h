// The most simulations one move's search may ask for, by purpose, in one place: every door
// that takes a number of simulations (or visits) takes its bound from here, so that `sims=`,
// `simulations=`, --sims and their Python and JSON forms accept one range wherever the same
// kind of caller gives them.
#pragma once

namespace quax {

// Asked on the machine itself: a command's --sims, a player's sims= and simulations=,
// quax.Search's simulations, a training config's search.simulations,
// selfplay.fast_simulations, selfplay.simulations_schedule and gating.simulations. More
// would not end in any useful time; the memory a search needs is checked apart
// (nets/players.h's search_memory_refusal).
inline constexpr int kMaxSimulations = 10'000'000;

// Asked over a connection: quax serve's requests (its sims field and the simulations= of a
// player it is given), quax analysis's maxVisits and --visits, the static page. One
// client's request must not hold the engine for hours (docs/SECURITY.md).
inline constexpr int kMaxServedSimulations = 100'000;

}  // namespace quax
