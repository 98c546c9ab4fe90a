// Subcommands of the `quax` program register themselves here, one file each
// (KataGo's cpp/command/ layout): a file defines a setup function that adds its
// subcommand to the CLI11 app and sets the callback that runs it.
// Setups run in name order, so a nested command registers as "parent.child" and its
// setup finds the parent with app.get_subcommand("parent") (e.g. "bench" then
// "bench.search" adding `quax bench search`).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace quax {

// Thrown by a subcommand for a user error: main prints "quax <cmd>: <message>" and exits 1.
struct CommandError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The text up to its first newline: LibTorch's errors carry a stack trace after it, and a
// command's error is one line.
std::string first_line(const std::string& message);

using CommandSetup = std::function<void(CLI::App& app)>;

// Called at static initialisation by REGISTER_COMMAND.
bool register_command(const std::string& name, CommandSetup setup);
const std::vector<std::pair<std::string, CommandSetup>>& registered_commands();

// Set by a subcommand's callback as the process exit code (0 by default).
void set_exit_code(int code);
int exit_code();

}  // namespace quax

#define QUAX_CONCAT_INNER(a, b) a##b
#define QUAX_CONCAT(a, b) QUAX_CONCAT_INNER(a, b)
#define REGISTER_COMMAND(name, setup) \
  static const bool QUAX_CONCAT(quax_registered_, __LINE__) = ::quax::register_command(name, setup)
