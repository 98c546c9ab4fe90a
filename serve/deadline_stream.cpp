#include "serve/deadline_stream.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace quax {
namespace {

// poll() on one socket for `events`, at most `ms` milliseconds, past interruptions by signals:
// > 0 when ready, 0 on time out, < 0 on error.
int poll_one(socket_t sock, short events, long long ms) {
  pollfd p{sock, events, 0};
  const auto until = DeadlineStream::Clock::now() + std::chrono::milliseconds(ms);
  for (;;) {
    const int r = ::poll(&p, 1, static_cast<int>(std::clamp<long long>(ms, 0, INT_MAX)));
    if (r >= 0 || errno != EINTR) return r;
    ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - DeadlineStream::Clock::now()).count();
  }
}

ssize_t recv_some(socket_t sock, char* ptr, size_t size, int flags) {
  for (;;) {
    const ssize_t n = ::recv(sock, ptr, size, flags);
    if (n >= 0 || errno != EINTR) return n;
  }
}

}  // namespace

bool DeadlineStream::wait_readable() const {
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
    if (left <= 0) {
      timed_out_ = true;
      return false;
    }
    const int r = poll_one(sock_, POLLIN, left);
    if (r > 0) return true;  // bytes, or the end of the connection or an error: recv() says which
    if (r < 0) return false;
  }
}

bool DeadlineStream::is_readable() const { return begin_ < end_ || wait_readable(); }

ssize_t DeadlineStream::read(char* ptr, size_t size) {
  if (begin_ < end_) {
    const size_t n = std::min(size, end_ - begin_);
    std::memcpy(ptr, buffer_.data() + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }
  if (!wait_readable()) return -1;
  if (size >= buffer_.size()) return recv_some(sock_, ptr, size, 0);
  const ssize_t got = recv_some(sock_, buffer_.data(), buffer_.size(), 0);
  if (got <= 0) return got;
  begin_ = 0;
  end_ = static_cast<size_t>(got);
  return read(ptr, size);
}

bool DeadlineStream::is_writable() const {
  if (poll_one(sock_, POLLOUT, write_timeout_.count()) <= 0) return false;
  // Gone when it has closed its side: readable, with nothing to read.
  if (poll_one(sock_, POLLIN, 0) == 0) return true;
  char byte;
  return recv_some(sock_, &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
}

ssize_t DeadlineStream::write(const char* ptr, size_t size) {
  if (poll_one(sock_, POLLOUT, write_timeout_.count()) <= 0) return -1;
  for (;;) {
    const ssize_t n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    if (n >= 0 || errno != EINTR) return n;
  }
}

void DeadlineStream::get_remote_ip_and_port(std::string& ip, int& port) const { socket_address(sock_, true, &ip, &port); }

void DeadlineStream::get_local_ip_and_port(std::string& ip, int& port) const { socket_address(sock_, false, &ip, &port); }

void socket_address(socket_t sock, bool remote, std::string* ip, int* port) {
  sockaddr_storage addr{};
  socklen_t length = sizeof addr;
  auto* any = reinterpret_cast<sockaddr*>(&addr);
  ip->clear();
  if ((remote ? ::getpeername(sock, any, &length) : ::getsockname(sock, any, &length)) != 0) return;
  char host[NI_MAXHOST], service[NI_MAXSERV];
  if (::getnameinfo(any, length, host, sizeof host, service, sizeof service, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return;
  *ip = host;
  *port = std::atoi(service);
}

}  // namespace quax
