// A connection's socket as cpp-httplib's Stream for one request, with a deadline on the whole
// of what is read: the request's head and body must have arrived by `deadline`, however slowly
// they trickle in. cpp-httplib 0.11's own socket stream waits up to its read timeout for each
// read, and so restarts it with every byte: a client sending one byte every few seconds held a
// worker for ever (issue 58). Writes wait up to `write_timeout` each, as cpp-httplib's do.
#pragma once

#include <httplib.h>

#include <array>
#include <chrono>

namespace quax {

class DeadlineStream : public httplib::Stream {
 public:
  using Clock = std::chrono::steady_clock;

  DeadlineStream(socket_t sock, Clock::time_point deadline, std::chrono::milliseconds write_timeout)
      : sock_(sock), deadline_(deadline), write_timeout_(write_timeout) {}

  // Whether a read failed because the deadline had passed (the request was too slow).
  bool timed_out() const { return timed_out_; }

  // httplib::Stream. read() returns -1 once the deadline has passed (a slow request ends
  // there), 0 when the client has closed its side.
  bool is_readable() const override;
  bool is_writable() const override;  // also false when the client has gone (an analysis stream stops)
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return sock_; }

 private:
  // Waits until the socket has bytes to read or the deadline passes (then sets timed_out_).
  bool wait_readable() const;

  socket_t sock_;
  Clock::time_point deadline_;
  std::chrono::milliseconds write_timeout_;
  mutable bool timed_out_ = false;
  // cpp-httplib reads a request's head a byte at a time: one recv() per 4 KB instead.
  std::array<char, 4096> buffer_{};
  size_t begin_ = 0, end_ = 0;
};

// The numeric address and port of the peer (`remote`) or of this end of the connected socket
// `sock`; ip "" when unknown.
void socket_address(socket_t sock, bool remote, std::string* ip, int* port);


}  // namespace quax
