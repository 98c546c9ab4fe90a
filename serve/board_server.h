// The browser board's HTTP server (`quax serve`): the single-page app of web/ (compiled into
// the binary, or read from a directory) and its JSON API (README, "The board in the browser").
//
// Robustness: unknown paths answer 404, malformed JSON and illegal moves 400 with one line
// and no change to the game, at most max_games games are kept (the least recently used is
// dropped), at most max_analyses analyses run at once and the searches (engine moves and
// analyses) together hold at most memory_mb (503 beyond; a game keeps no search tree between
// moves), an engine move searches without holding its game (readers answer meanwhile), an
// analysis stops when its client goes away, request bodies over 1 MB are refused (413) however
// they are sent, slow and many connections of one client are held by the HTTP layer
// (serve/http_server.h: a deadline per request, a cap per client address), an exception in any
// request ends that request only, and no request reads a file outside the served directories,
// links resolved (serve/served_folder.h; results files: under runs_dir only), or any file but a
// regular one under a size limit.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "nets/device.h"

namespace quax {

struct BoardServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                     // 0: any free port
  std::vector<std::string> model_dirs;  // scanned for model files (opponents, analysis)
  std::string runs_dir = "runs";
  std::vector<std::string> balance_dirs{"docs/balance"};  // reports of `quax balance` (serve/balance_reports.h)
  std::string web_dir;                  // empty: the files compiled into the binary
  int max_games = 64;
  int max_analyses = 4;
  int threads = 16;                     // HTTP worker threads (a connection holds one while it is served)
  int memory_mb = 1024;                 // the searches' memory, engine moves and analyses together (503 beyond)
  Device device = kCpuDevice;           // where the models' networks run (resolved: nets/device.h)
};

class BoardServer {
 public:
  explicit BoardServer(BoardServerOptions options);
  ~BoardServer();

  // Binds the socket; returns the port (the chosen one for port 0), or -1 with *error set.
  int bind(std::string* error);
  // Serves until stop(); returns false when the server failed.
  bool run();
  // Thread-safe; run() returns soon after.
  void stop();

  // For tests: games currently kept.
  size_t games_in_memory() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace quax
