#include "arena/gtp_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "core/quoted_input.h"

extern char** environ;

namespace quax {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string errno_text() { return std::strerror(errno); }

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

}  // namespace

GtpProcess::GtpProcess(std::string name, const std::string& command, const std::string& stderr_path)
    : name_(std::move(name)) {
  const std::string err_path = stderr_path.empty() ? "/dev/null" : stderr_path;
  const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (err_fd < 0) throw GtpProcessError(name_ + ": cannot open '" + err_path + "' for its stderr: " + errno_text());
  // A socket pair rather than pipes: send() with MSG_NOSIGNAL tells us of a program that has
  // gone as an error, where a write to a pipe would end this process with SIGPIPE.
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    const std::string why = errno_text();
    ::close(err_fd);
    throw GtpProcessError(name_ + ": cannot make a socket pair: " + why);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 0);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  // A process group of its own: the kill reaches whatever the shell started, and Ctrl-C at the
  // terminal reaches only this process, which ends the match between games.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  const int rc = ::posix_spawn(&pid_, "/bin/sh", &actions, &attributes, const_cast<char* const*>(argv), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(ends[1]);
  ::close(err_fd);
  if (rc != 0) {
    ::close(ends[0]);
    pid_ = -1;
    throw GtpProcessError(name_ + ": cannot start " + quoted_input(command) + ": " + std::strerror(rc));
  }
  fd_ = ends[0];
}

GtpProcess::~GtpProcess() {
  if (pid_ > 0) {
    static const char kQuit[] = "quit\n";
    ::send(fd_, kQuit, sizeof kQuit - 1, MSG_NOSIGNAL);
    // Its input ends after quit, and its writes fail from now on: a program that ignores quit
    // or is blocked writing output nobody reads stops at once instead of at the kill.
    ::shutdown(fd_, SHUT_RDWR);
    int status = 0;
    const double deadline = now_seconds() + 5;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (now_seconds() > deadline) {
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  if (fd_ >= 0) ::close(fd_);
}

std::string GtpProcess::exit_text() {
  if (pid_ <= 0) return "gone";
  int status = 0;
  pid_t done = 0;
  const double deadline = now_seconds() + 5;
  while ((done = ::waitpid(pid_, &status, WNOHANG)) == 0 && now_seconds() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (done != pid_) return "closed its output";
  pid_ = -1;  // reaped: the destructor has nothing to stop
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("died of signal ") + strsignal(WTERMSIG(status));
  return "stopped";
}

std::string GtpProcess::read_line(const std::string& command, double deadline, double seconds) {
  for (;;) {
    const size_t end = pending_.find('\n');
    if (end != std::string::npos) {
      std::string line = pending_.substr(0, end);
      pending_.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (pending_.size() > kMaxAnswerBytes)
      throw GtpProcessError(name_ + ": answer to " + quoted_input(command) + " longer than " +
                            std::to_string(kMaxAnswerBytes) + " bytes");
    const double left = deadline - now_seconds();
    pollfd p{fd_, POLLIN, 0};
    const int ready = left > 0 ? ::poll(&p, 1, static_cast<int>(left * 1000) + 1) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0)
      throw GtpProcessError(fmt::format("{}: no answer to {} within {:g} s", name_, quoted_input(command), seconds));
    char buffer[65536];
    const ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) throw GtpProcessError(name_ + ": " + exit_text() + " during " + quoted_input(command));
    pending_.append(buffer, static_cast<size_t>(got));
  }
}

std::string GtpProcess::ask(const std::string& command, double seconds) {
  // Output nobody asked for (a second answer to the last command) would be taken as the answer
  // to this one: the program and this side are out of step.
  for (pollfd p{fd_, POLLIN, 0}; ::poll(&p, 1, 0) > 0 && pending_.size() <= kMaxAnswerBytes; p.revents = 0) {
    char buffer[65536];
    const ssize_t got = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
    if (got <= 0) break;  // its exit shows when the answer is read
    pending_.append(buffer, static_cast<size_t>(got));
  }
  if (!blank(pending_))
    throw GtpProcessError(name_ + ": wrote " + quoted_input(pending_.substr(0, pending_.find('\n'))) +
                          " before " + quoted_input(command) + ": more answers than commands");
  pending_.clear();
  const std::string line = command + "\n";
  for (size_t sent = 0; sent < line.size();) {
    const ssize_t n = ::send(fd_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw GtpProcessError(name_ + ": " + exit_text() + " before " + quoted_input(command));
    sent += static_cast<size_t>(n);
  }
  const double deadline = now_seconds() + seconds;
  std::string head, rest;
  size_t size = 0;
  for (;;) {
    std::string next = read_line(command, deadline, seconds);
    if (head.empty() && blank(next)) continue;  // blank lines before an answer
    if (blank(next)) break;
    size += next.size() + 1;
    if (size > kMaxAnswerBytes)
      throw GtpProcessError(name_ + ": answer to " + quoted_input(command) + " longer than " +
                            std::to_string(kMaxAnswerBytes) + " bytes");
    if (head.empty())
      head = std::move(next);
    else
      rest += "\n" + next;
  }
  if (head[0] != '=' && head[0] != '?')
    throw GtpProcessError(name_ + ": answer to " + quoted_input(command) + " is not GTP: " +
                          quoted_input(head));
  // "=" may carry the command's id, which is never sent here.
  size_t text = 1;
  while (text < head.size() && std::isdigit(static_cast<unsigned char>(head[text]))) ++text;
  while (text < head.size() && (head[text] == ' ' || head[text] == '\t')) ++text;
  std::string answer = head.substr(text) + rest;
  if (head[0] == '?')
    throw GtpProcessError(name_ + ": " + quoted_input(command) + " refused: " +
                          quoted_input(answer));
  return answer;
}

}  // namespace quax
