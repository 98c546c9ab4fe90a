#include "nets/model_card.h"

#include <fmt/format.h>

#include "core/quoted_input.h"

namespace quax {

std::string pie_rule_line(const GameSpec& trained) {
  const std::string variant = variant_info(trained.variant).name;
  // A variant whose rules refuse the pie rule (check_spec) has an opening of its own instead.
  if (!check_spec(GameSpec{trained.variant, trained.size, true}).empty())
    return fmt::format("pie rule: off ({} has none; its own opening replaces it)", variant);
  if (trained.swap)
    return "pie rule: on (trained with it; in a game without it, --swap off, its openings are untested and it "
           "plays with a warning)";
  return "pie rule: off (trained without it; in a game with it, --swap on, its openings and swap decisions are "
         "untested and it plays with a warning)";
}

std::vector<std::string> model_card(const std::string& path, const LoadedModel& model) {
  const GameSpec& spec = model.shape.spec;
  std::vector<std::string> lines = {
      "model: " + path,
      fmt::format("game: {}, trained on {} (other sizes of {} play with a warning)", variant_info(spec.variant).name,
                  sizes_text(spec.variant, model.trained_sizes), variant_info(spec.variant).name),
      pie_rule_line(spec),
      "net: " + describe(model.net),
      fmt::format("step: {}", model.step),
  };
  // Written by `quax export` (train/model_export.h); a model a run published has none.
  if (const auto it = model.description.find("exported_from");
      it != model.description.end() && it->is_string())
    lines.push_back("exported from: " + printable_line(it->get<std::string>()));  // a file's text: one short printable line
  if (model.levels) {
    for (std::string& line : model_levels_lines(*model.levels, spec.variant)) lines.push_back(std::move(line));
  } else {
    lines.push_back("levels: the default table (measure this model's own with `quax levels`)");
  }
  return lines;
}

}  // namespace quax
