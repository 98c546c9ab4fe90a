#include "command/stop_signal.h"

#include <csignal>

namespace quax {

namespace {

std::atomic<bool> g_stop_requested{false};

void on_stop_signal(int) { g_stop_requested = true; }

}  // namespace

StopOnSignal::StopOnSignal() {
  g_stop_requested = false;
  old_int_ = std::signal(SIGINT, on_stop_signal);
  old_term_ = std::signal(SIGTERM, on_stop_signal);
}

StopOnSignal::~StopOnSignal() {
  std::signal(SIGINT, old_int_);
  std::signal(SIGTERM, old_term_);
}

const std::atomic<bool>* StopOnSignal::flag() const { return &g_stop_requested; }

}  // namespace quax
