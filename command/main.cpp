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

// "quax <command> [<subcommand>]" of the commands the parse reached, for messages.
std::string command_path(const CLI::App& app) {
  std::string path = "quax";
  for (const CLI::App* a = &app;;) {
    const auto subs = a->get_subcommands();
    if (subs.empty()) return path;
    a = subs[0];
    path += " " + a->get_name();
  }
}

// The top-level commands, comma-separated, in the order --help lists them.
std::string command_list(CLI::App& app) {
  std::string list;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    list += (list.empty() ? "" : ", ") + sub->get_name();
  return list;
}

bool is_command(CLI::App& app, const std::string& word) {
  try {
    app.get_subcommand(word);
    return true;
  } catch (const CLI::OptionNotFound&) {
    return false;
  }
}
}  // namespace

bool register_command(const std::string& name, CommandSetup setup) {
  registry().emplace_back(name, std::move(setup));
  return true;
}
const std::vector<std::pair<std::string, CommandSetup>>& registered_commands() { return registry(); }
void set_exit_code(int code) { g_exit_code = code; }
int exit_code() { return g_exit_code; }

std::string first_line(const std::string& message) { return message.substr(0, message.find('\n')); }

}  // namespace quax

int main(int argc, char** argv) {
  CLI::App app{"quax: a self-play trainer for quadrangular connection games"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "quax 0.1");
  app.footer("The rules of every variant: docs/RULES.md");
  auto commands = quax::registered_commands();
  std::sort(commands.begin(), commands.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [name, setup] : commands) setup(app);
  // The top level takes no option with a value, so a first word that is not an option names
  // the command (CLI11 would read an unknown one as an extra argument and ask for a command).
  if (argc > 1 && argv[1][0] != '-' && !quax::is_command(app, argv[1])) {
    std::fprintf(stderr, "quax: unknown command '%s' (commands: %s; see quax --help)\n", argv[1],
                 quax::command_list(app).c_str());
    return 1;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
    const std::string where = quax::command_path(app);
    std::fprintf(stderr, "%s: %s (see %s --help)\n", where.c_str(), quax::first_line(e.what()).c_str(), where.c_str());
    return 1;
  } catch (const std::exception& e) {
    // CommandError, and the runtime errors of the layers below (bad config, unreadable
    // checkpoint, ...): one line naming the subcommand. LibTorch's errors carry a stack
    // trace after their first line.
    std::fprintf(stderr, "%s: %s\n", quax::command_path(app).c_str(), quax::first_line(e.what()).c_str());
    return 1;
  }
  return quax::exit_code();
}
