#include "command/onnx_export.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "export_onnx_script.h"

extern char** environ;

namespace quax {

namespace {

constexpr const char* kPython = "/usr/bin/python3";  // Debian's: python3-torch imports there

}  // namespace

void write_onnx_model(const std::string& model_file, const std::string& out, int size, int opset,
                      const std::string& int8_calibration) {
  // The exporter's stderr goes to a file: its last line is the reason on a failure.
  char log_name[] = "/tmp/quax-onnx-XXXXXX";
  const int log = ::mkstemp(log_name);
  if (log < 0) throw std::runtime_error("cannot make a temporary file for the ONNX exporter's messages");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, log, STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log, STDOUT_FILENO);
  const std::string size_text = std::to_string(size), opset_text = std::to_string(opset);
  std::vector<char*> argv{const_cast<char*>("python3"), const_cast<char*>("-c"), const_cast<char*>(kExportOnnxScript),
                          const_cast<char*>(model_file.c_str()), const_cast<char*>(out.c_str()),
                          const_cast<char*>(size_text.c_str()), const_cast<char*>(opset_text.c_str()),
                          const_cast<char*>(int8_calibration.empty() ? "fp32" : "int8")};
  if (!int8_calibration.empty()) argv.push_back(const_cast<char*>(int8_calibration.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, kPython, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(log);
  int status = 0;
  if (spawned == 0 && ::waitpid(pid, &status, 0) < 0) status = -1;
  std::string last;
  {
    std::ifstream in(log_name);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) last = line;
  }
  std::remove(log_name);
  if (spawned != 0)
    throw std::runtime_error(std::string("cannot run ") + kPython + " for the ONNX export (install python3-torch and "
                             "python3-onnx: scripts/install_deps.sh)");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("the ONNX export failed: " + (last.empty() ? std::string("no message") : last.substr(0, 300)));
}

}  // namespace quax
