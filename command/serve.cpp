// `quax serve`: the board in the browser (serve/board_server.h), until Ctrl-C.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include "command/command.h"
#include "command/device_option.h"
#include "command/stop_signal.h"
#include "nets/model_locations.h"
#include "rules/rules_file.h"
#include "serve/board_server.h"

namespace quax {
namespace {

void setup_serve(CLI::App& app) {
  struct Options {
    BoardServerOptions server;
    std::vector<std::string> models;  // empty: the shipped models' folders
    std::string device = "auto";
    std::vector<std::string> variant_dirs;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("serve", "The board in the browser: play the models, analyze, replay, watch runs");
  cmd->add_option("--port", opt->server.port, "TCP port (0: any free one, printed)")->check(CLI::Range(0, 65535));
  cmd->add_option("--host", opt->server.host, "Address to listen on (127.0.0.1: this machine only)");
  cmd->add_option("--models", opt->models, "Directories of model files the board offers (repeatable; default: the shipped models' folders, "
                  "as every command finds them: QUAX_MODELS, else the install's or the repository's checkpoints/)");
  cmd->add_option("--runs", opt->server.runs_dir, "Directory of training runs for the Runs page");
  cmd->add_option("--balance", opt->server.balance_dirs,
                  "Directories of `quax balance` reports for the Balance page: a report's own directory, or one "
                  "holding several (repeatable; default docs/balance)");
  cmd->add_option("--web", opt->server.web_dir, "Serve the page from this directory instead of the built-in copy");
  cmd->add_option("--max-games", opt->server.max_games, "Games kept in memory")->check(CLI::Range(1, 100000));
  cmd->add_option("--max-analyses", opt->server.max_analyses, "Analyses running at once")->check(CLI::Range(1, 64));
  cmd->add_option("--memory-mb", opt->server.memory_mb,
                  "Memory the searches (engine moves and analyses together) may hold at once, in MB; a search that "
                  "would go past it is refused (503)")
      ->check(CLI::Range(16, 1 << 20));
  cmd->add_option("--variants", opt->variant_dirs,
                  "Directories of rules files (docs/VARIANTS.md) the board offers beside the shipped variants "
                  "(repeatable)");
  add_device_option(cmd, &opt->device);
  cmd->callback([opt] {
    for (const std::string& dir : opt->variant_dirs) {
      try {
        register_rules_dir(dir);
      } catch (const RulesFileError& e) {
        throw CommandError(e.what());
      }
    }
    opt->server.device = device_from_option(opt->device);
    opt->server.model_dirs = opt->models.empty() ? shipped_model_dirs() : opt->models;
    std::signal(SIGPIPE, SIG_IGN);  // a client that leaves mid-reply is not an error of ours
    BoardServer server(opt->server);
    std::string error;
    const int port = server.bind(&error);
    if (port < 0) throw CommandError(error);
    std::printf("quax serve: http://%s:%d/\n", opt->server.host.c_str(), port);
    std::fflush(stdout);
    StopOnSignal signals;
    std::atomic<bool> ended{false};
    std::thread watcher([&] {  // a signal handler may not call stop(): this thread does
      while (!signals.flag()->load() && !ended.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      server.stop();
    });
    const bool ok = server.run();
    ended = true;
    watcher.join();
    if (!ok) {
      std::fprintf(stderr, "quax serve: the server stopped on an error\n");
      set_exit_code(1);
    }
  });
}

REGISTER_COMMAND("serve", setup_serve);

}  // namespace
}  // namespace quax
