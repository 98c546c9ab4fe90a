// The `quax` program: one binary, one subcommand per file in this folder.
#include <cstdio>
#include <exception>

#include "command/command.h"

namespace quax {

namespace {
std::vector<std::pair<std::string, CommandSetup>>& registry() {
  static std::vector<std::pair<std::string, CommandSetup>> commands;
  return commands;
}
int g_exit_code = 0;
}  // namespace

bool register_command(const std::string& name, CommandSetup setup) {
  registry().emplace_back(name, std::move(setup));
  return true;
}
const std::vector<std::pair<std::string, CommandSetup>>& registered_commands() { return registry(); }
void set_exit_code(int code) { g_exit_code = code; }
int exit_code() { return g_exit_code; }

}  // namespace quax

int main(int argc, char** argv) {
  CLI::App app{"quax: a self-play trainer for quadrangular connection games"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "quax 0.1");
  auto commands = quax::registered_commands();
  std::sort(commands.begin(), commands.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [name, setup] : commands) setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    // CommandError, and the runtime errors of the layers below (bad config, unreadable
    // checkpoint, ...): one line naming the subcommand.
    const auto subs = app.get_subcommands();
    std::fprintf(stderr, "quax %s: %s\n", subs.empty() ? "" : subs[0]->get_name().c_str(), e.what());
    return 1;
  }
  return quax::exit_code();
}
