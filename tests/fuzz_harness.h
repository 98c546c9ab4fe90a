// The loop of the fuzz tests (tests/fuzz_*_test.cpp): mutated inputs (tests/fuzz_mutator.h)
// through a reader for a time budget, with what the program promises of every hostile file
// checked on each: the reader accepts it or throws a std::exception of one short line. A crash
// (a signal), an input that takes too long (a hang) and an allocation beyond a memory bound
// fail, and the input that did it is saved for reproducing it.
//
// Budget (environment): QUAX_FUZZ_SECONDS per format (CI's default is the test's),
// QUAX_FUZZ_ITERATIONS (a cap on inputs; 0 = none), QUAX_FUZZ_SEED (default 1),
// QUAX_FUZZ_SAVE_DIR where failing inputs go (default: the working directory) and
// QUAX_FUZZ_MESSAGE_CHARS (the longest message allowed, default 512).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <functional>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/steady_time.h"
#include "fuzz_mutator.h"

namespace quax::fuzz {

// Thrown by a reader's wrapper when the reader accepted an input but what it made of it is
// wrong (e.g. a shard decoded that does not encode back to its bytes). Not a std::exception,
// so it is never mistaken for a refusal.
struct Broken {
  std::string what;
};

struct Budget {
  double seconds = 20;
  int64_t max_inputs = 0;  // 0 = no limit
  uint64_t seed = 1;
};

// The budget from the environment, `default_seconds` when QUAX_FUZZ_SECONDS is not set.
inline Budget budget_from_env(double default_seconds) {
  Budget b;
  b.seconds = default_seconds;
  if (const char* v = std::getenv("QUAX_FUZZ_SECONDS")) b.seconds = std::atof(v);
  if (const char* v = std::getenv("QUAX_FUZZ_ITERATIONS")) b.max_inputs = std::atoll(v);
  if (const char* v = std::getenv("QUAX_FUZZ_SEED")) b.seed = std::strtoull(v, nullptr, 10);
  return b;
}

struct Limits {
  double seconds_per_input = 10;    // a hang: far above any reader's time on a 64 KB input
  // One line a person reads, whatever the input's size: a message may quote the input twice,
  // each quote cut to 60 bytes but up to 4 chars a byte (\xNN for what is not printable).
  // QUAX_FUZZ_MESSAGE_CHARS raises it, to look past known long messages for crashes by hand.
  size_t message_chars = std::getenv("QUAX_FUZZ_MESSAGE_CHARS") ? std::atoll(std::getenv("QUAX_FUZZ_MESSAGE_CHARS")) : 512;
  uint64_t memory_bytes = 2ull << 30;  // address space the reads may add to the process's
};

struct Report {
  int64_t inputs = 0, accepted = 0, rejected = 0;
  double seconds = 0;
  std::vector<std::string> failures;  // "<what went wrong> (input saved as <file>)"
  std::string summary(const std::string& format) const {
    return format + ": " + std::to_string(inputs) + " inputs in " + std::to_string(static_cast<int>(seconds)) +
           " s, " + std::to_string(accepted) + " accepted, " + std::to_string(rejected) + " refused, " +
           std::to_string(failures.size()) + " failures";
  }
};

namespace detail {

// What the signal handler and the watchdog need, set before each input. Only one fuzz loop
// runs at a time in a process.
inline std::atomic<const std::string*> current_input{nullptr};
inline char crash_path[512];
inline char crash_note[700];

inline std::string save_dir() {
  const char* dir = std::getenv("QUAX_FUZZ_SAVE_DIR");
  return dir && *dir ? dir : ".";
}

inline void write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n <= 0) return;
    data += n;
    size -= static_cast<size_t>(n);
  }
}

// Async-signal-safe: writes the input being read to crash_path and says so on stderr.
inline void save_current_input() {
  const std::string* input = current_input.load();
  if (!input) return;
  const int fd = ::open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    write_all(fd, input->data(), input->size());
    ::close(fd);
  }
  write_all(2, crash_note, std::strlen(crash_note));
}

inline void on_fatal_signal(int sig) {
  write_all(2, "\nFUZZ: fatal signal while reading an input\n", 43);
  save_current_input();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Handlers for the signals of a crash, on their own stack so that a stack overflow (deep
// nesting in a recursive reader) is reported too.
inline void install_crash_handlers() {
  static std::vector<char> stack(1 << 16);
  stack_t ss{};
  ss.ss_sp = stack.data();
  ss.ss_size = stack.size();
  ::sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &sa, nullptr);
}

inline uint64_t status_kib(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(in, line))
    if (line.compare(0, n, field) == 0) return std::strtoull(line.c_str() + n + 1, nullptr, 10);
  return 0;
}

// Lowers the address-space limit to what the process uses now plus `extra` for its lifetime,
// so that an unbounded allocation fails (std::bad_alloc, a failure below) instead of taking
// the machine's memory; the old limit is put back at the end.
class MemoryCap {
 public:
  explicit MemoryCap(uint64_t extra) {
    ::getrlimit(RLIMIT_AS, &old_);
    rlimit cap = old_;
    const uint64_t want = status_kib("VmSize:") * 1024 + extra;
    if (cap.rlim_max == RLIM_INFINITY || want < cap.rlim_max) cap.rlim_cur = want;
    ::setrlimit(RLIMIT_AS, &cap);
  }
  ~MemoryCap() { ::setrlimit(RLIMIT_AS, &old_); }

 private:
  rlimit old_{};
};

// Ends the process, saving the input, when one input has been read for longer than the limit.
class Watchdog {
 public:
  explicit Watchdog(double seconds) : limit_(seconds), thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void started() { start_ns_.store(now_ns()); }
  void finished() { start_ns_.store(0); }

 private:
  static int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void watch() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; })) {
      const int64_t start = start_ns_.load();
      if (start != 0 && (now_ns() - start) * 1e-9 > limit_) {
        std::fprintf(stderr, "\nFUZZ: one input read for more than %.0f s (a hang)\n", limit_);
        save_current_input();
        std::_Exit(1);
      }
    }
  }
  double limit_;
  std::atomic<int64_t> start_ns_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

// Reads one input and sorts the outcome: "" when the reader accepted it or refused it properly
// (*accepted says which), else what is wrong.
inline std::string read_one(const std::function<void(const std::string&)>& read, const std::string& input,
                            const Limits& limits, bool* accepted) {
  *accepted = false;
  try {
    read(input);
    *accepted = true;
    return "";
  } catch (const Broken& e) {
    return e.what;
  } catch (const std::bad_alloc& e) {
    return std::string("an allocation beyond the memory bound (std::bad_alloc: ") + e.what() + ")";
  } catch (const std::length_error& e) {
    return std::string("an allocation of a size read from the input (std::length_error: ") + e.what() + ")";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.empty()) return "refused with an empty message";
    if (what.find('\n') != std::string::npos) return "refused with a message of several lines: " + what.substr(0, 600);
    if (what.size() > limits.message_chars)
      return "refused with a message of " + std::to_string(what.size()) + " chars: " + what.substr(0, 400) + "...";
    return "";
  } catch (...) {
    return "refused with an exception that is not a std::exception";
  }
}

inline std::string save_failure(const std::string& format, int64_t n, const std::string& input) {
  const std::string path = save_dir() + "/fuzz-" + format + "-failure-" + std::to_string(n) + ".bin";
  std::ofstream(path, std::ios::binary) << input;
  return path;
}

// Runs `inputs()` (nullptr when there are no more) through the checks.
inline Report run(const std::string& format, const std::function<const std::string*()>& inputs,
                  const std::function<void(const std::string&, bool accepted)>& after,
                  const std::function<void(const std::string&)>& read, const Limits& limits) {
  Report report;
  const std::string crash_file = save_dir() + "/fuzz-" + format + "-crash.bin";
  std::snprintf(crash_path, sizeof crash_path, "%s", crash_file.c_str());
  std::snprintf(crash_note, sizeof crash_note, "FUZZ: the %s input is saved as %s\n", format.c_str(),
                crash_file.c_str());
  install_crash_handlers();
  const auto start = std::chrono::steady_clock::now();
  {
    MemoryCap cap(limits.memory_bytes);
    Watchdog watchdog(limits.seconds_per_input);
    while (const std::string* input = inputs()) {
      current_input.store(input);
      watchdog.started();
      bool accepted = false;
      const std::string problem = read_one(read, *input, limits, &accepted);
      watchdog.finished();
      current_input.store(nullptr);
      ++report.inputs;
      ++(accepted ? report.accepted : report.rejected);
      if (!problem.empty() && report.failures.size() < 5)
        report.failures.push_back(problem + " (input saved as " +
                                  save_failure(format, static_cast<int64_t>(report.failures.size()), *input) + ")");
      if (after) after(*input, accepted);
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace detail

// Mutated inputs for the budget's time (or its number of inputs).
inline Report fuzz(const std::string& format, Mutator& mutator, const std::function<void(const std::string&)>& read,
                   const Budget& budget, const Limits& limits = {}) {
  const auto end = seconds_from_now(budget.seconds);
  int64_t made = 0;
  std::string input;
  auto inputs = [&]() -> const std::string* {
    if (std::chrono::steady_clock::now() >= end || (budget.max_inputs > 0 && made >= budget.max_inputs))
      return nullptr;
    ++made;
    input = mutator.next();
    return &input;
  };
  auto after = [&](const std::string& in, bool accepted) {
    if (accepted) mutator.accepted(in);
  };
  return detail::run(format, inputs, after, read, limits);
}

// The inputs kept under tests/data/fuzz/<format>/ (QUAX_TEST_DATA_DIR), sorted by name: small
// files that once crashed or hung a reader, or made it answer badly, read again by every run.
inline std::vector<std::string> kept_inputs(const std::string& format) {
  std::vector<std::string> names, out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(std::string(QUAX_TEST_DATA_DIR) + "/fuzz/" + format, ec))
    names.push_back(e.path().string());
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    std::ifstream in(name, std::ios::binary);
    out.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return out;
}

// Each of `inputs` as it is (the seeds, or kept inputs that once failed), with the same checks.
inline Report read_each(const std::string& format, const std::vector<std::string>& inputs,
                        const std::function<void(const std::string&)>& read, const Limits& limits = {}) {
  size_t next = 0;
  return detail::run(
      format, [&]() -> const std::string* { return next < inputs.size() ? &inputs[next++] : nullptr; }, nullptr, read,
      limits);
}

// The verdict of a kept-inputs test: every one of `inputs` inputs refused in one line.
inline void expect_all_refused(const Report& r, size_t inputs) {
  for (const std::string& f : r.failures) ADD_FAILURE() << f;
  EXPECT_EQ(r.rejected, static_cast<int64_t>(inputs));
}

// The verdict of a mutation run: its summary printed, no failure, and inputs on both sides of
// the reader (some accepted, some refused), or the mutations missed what they were for.
inline void expect_read_or_refused(const Report& r, const std::string& format) {
  std::printf("%s\n", r.summary(format).c_str());
  for (const std::string& f : r.failures) ADD_FAILURE() << f;
  EXPECT_GT(r.accepted, 0);
  EXPECT_GT(r.rejected, 0);
}

}  // namespace quax::fuzz
