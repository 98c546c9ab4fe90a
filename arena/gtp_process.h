// A program outside the project that speaks GTP (MoHex, another `quax gtp`), run as a child
// process and asked one command at a time: the client side of the text protocol, for matches
// against programs the project does not link (`quax bench strength --opponent-gtp`).
//
// Every answer is bounded in time and size, and every way the program can fail (it does not
// start, dies, refuses a command, says nothing, writes without end, writes answers nobody asked
// for) is a GtpProcessError naming the program and the command, never a hang or a crash here.
#pragma once

#include <stdexcept>
#include <string>
#include <sys/types.h>

namespace quax {

class GtpProcessError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class GtpProcess {
 public:
  // The longest answer taken (a 26x26 board with its labels is under 4 KB): a program writing
  // without end is stopped there, not read into memory.
  static constexpr size_t kMaxAnswerBytes = size_t{1} << 20;

  // Starts `command` with /bin/sh (its words, quotes and variables as a shell reads them) in a
  // process group of its own, its standard input and output connected here, its standard error
  // appended to `stderr_path` ("" : discarded). `name` is how errors call it. Throws GtpProcessError when the shell
  // cannot be started or the stderr file opened; a command the shell cannot find shows at the
  // first ask, as the program's exit.
  GtpProcess(std::string name, const std::string& command, const std::string& stderr_path = "");
  // Sends `quit` and closes the connection, waits up to 5 s for the program to exit, then kills
  // its process group.
  ~GtpProcess();
  GtpProcess(const GtpProcess&) = delete;
  GtpProcess& operator=(const GtpProcess&) = delete;

  // Sends one command line and returns the answer's text without its "=" and the blank line
  // that ends it (the lines of a long answer joined by '\n'). Throws GtpProcessError for a "?"
  // answer (with its text), a line that is not GTP, no whole answer within `seconds`, an answer
  // over kMaxAnswerBytes, output before the command (an extra answer), or the program's exit.
  // After an error other than a "?" answer the process is out of step and should be dropped.
  std::string ask(const std::string& command, double seconds);

  const std::string& name() const { return name_; }

 private:
  // The next line of output (without its '\n' and a '\r' before it), waiting until `deadline`
  // (CLOCK_MONOTONIC seconds).
  std::string read_line(const std::string& command, double deadline, double seconds);
  // Why the program stopped, e.g. "exited with status 1" (waits up to 5 s for it).
  std::string exit_text();

  std::string name_;
  pid_t pid_ = -1;
  int fd_ = -1;          // our end of the socket pair: the program's stdin and stdout
  std::string pending_;  // read, not yet taken as lines
};

}  // namespace quax
