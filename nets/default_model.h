// The model that plays a game when the user names none (`quax play`, `quax gtp --level`,
// the browser's analysis): the variant's model trained at the board's size, else the one
// trained nearest to it, so that a player who asks for hex 13 meets the hex model and not a
// baseline that scatters stones.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "env/types.h"

namespace quax {

// What the choice needs to know of a model file (its card).
struct ModelSummary {
  std::string path;
  GameSpec spec;           // the game it was made for (its first trained size, its pie rule)
  std::vector<int> sizes;  // the sizes it was trained on
  int64_t step = 0;
};

// Whether `a` should play `want` rather than `b` (both of want's rules, rules_of): a model of
// want's own variant before one of another variant of the same rules (link: quax's); then a
// model trained at want.size before one that was not; among those trained at want.size, one
// trained with want's pie rule (hex 9 with the pie rule: hex-11.pt, trained on 11 and 9 with
// it, before hex-9.pt, trained without); then the nearer trained size (the larger one on a
// tie); then one trained with want's pie rule; then more learner steps: of two models trained
// at a size, the later run of a campaign (quax-11.pt, trained on 11 and 9 from quax-9.pt's
// weights, before quax-9.pt at 9x9), which issue 34's checks keep from being the weaker at any
// size it was trained on. False on a full tie.
bool plays_better(const ModelSummary& a, const ModelSummary& b, const GameSpec& want);

// The model of `models` (ModelSummary or a type derived from it) that should play `want`;
// null when none plays its rules. The first one listed wins a full tie.
template <class Model>
const Model* best_model_for(const std::vector<Model>& models, const GameSpec& want) {
  const Model* best = nullptr;
  for (const Model& m : models)
    if (rules_of(m.spec.variant) == rules_of(want.variant) && (!best || plays_better(m, *best, want))) best = &m;
  return best;
}

// The model files (*.pt) of `dirs`, each read by load_model_file: not recursive, by name
// within a directory, the directories in order, one reached twice (another spelling, a link)
// read once. A directory that cannot be listed and a file that does not load (a learner
// checkpoint, a damaged file) are left out, with one line each to `warn` when given.
std::vector<ModelSummary> read_model_summaries(const std::vector<std::string>& dirs,
                                               const std::function<void(const std::string&)>& warn = nullptr);

// The shipped models: read_model_summaries of shipped_model_dirs() (nets/model_locations.h),
// without warnings.
std::vector<ModelSummary> shipped_models();

// The path of the shipped model that should play `want`, "" when there is none.
std::string default_model_path(const GameSpec& want);

}  // namespace quax
