// `quax card <model.pt>`: a model file's card (nets/model_card.h) - its game and trained
// sizes, the pie rule it was trained with, its net and step - so that a user can tell
// before playing it which games it was made for.
#include <fmt/core.h>

#include "command/command.h"
#include "nets/model_card.h"
#include "nets/model_file.h"

namespace quax {
namespace {

void setup_card(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("card", "Print a model file's card: its game, pie rule, trained sizes, net and step");
  cmd->add_option("model", *path, "A model file (a run's models/*.pt, or one `quax export` wrote)")->required();
  cmd->callback([path] {
    // load_model_file's errors are one line naming the file; main prints them.
    const LoadedModel model = load_model_file(*path);
    for (const std::string& line : model_card(*path, model)) fmt::print("{}\n", line);
  });
}

REGISTER_COMMAND("card", setup_card);

}  // namespace
}  // namespace quax
