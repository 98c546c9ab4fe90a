#include "serve/http_server.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "serve/deadline_stream.h"

namespace quax {
namespace {

using Clock = DeadlineStream::Clock;

// The stream of the request a worker thread is reading, for request_timed_out().
thread_local const DeadlineStream* t_request = nullptr;

bool has_body_method(const std::string& method) {
  // The methods whose body cpp-httplib reads (its expect_content()).
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

// The first line of `what`, at most 400 characters: a log line, whatever an exception says.
std::string log_line(std::string what) {
  what = what.substr(0, what.find('\n'));
  return what.size() > 400 ? what.substr(0, 400) + "..." : what;
}

// A connection over its client's caps: told so in one line, without reading its request (that
// would hold a worker for as long as the client likes), and closed.
void refuse(socket_t sock, const HttpLimits& limits) {
  const std::string body = "{\"error\":\"too many connections from this address at once (" +
                           std::to_string(limits.client_connections) + " served, " +
                           std::to_string(limits.client_waiting) + " waiting)\"}";
  const std::string answer = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  // A new socket's send buffer takes it whole at once; never wait on this client.
  (void)::send(sock, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
}

}  // namespace

HttpServer::HttpServer(const HttpLimits& limits)
    : limits_(limits),
      slots_(static_cast<size_t>(limits.client_connections), static_cast<size_t>(limits.client_waiting)) {
  const size_t threads = static_cast<size_t>(limits.threads);
  new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // cpp-httplib's default options add SO_REUSEPORT, with which a second server binds the same
  // port and the two share its connections at random: only SO_REUSEADDR here (a restart may
  // bind while the last connections are in TIME_WAIT), so a port in use refuses the bind.
  set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  set_payload_max_length(limits.max_body_bytes);
  set_keep_alive_timeout(limits.keep_alive_seconds);
  set_read_timeout(limits.request_seconds);  // the sockets' SO_RCVTIMEO; reads wait on the deadline first
  set_write_timeout(limits.write_seconds);
}

int HttpServer::bind_port(const std::string& host, int port) {
  int bound = port;
  if (port == 0) {
    bound = bind_to_any_port(host);
  } else if (!bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound >= 0) {
    const int saved = errno;
    ::listen(svr_sock_, SOMAXCONN);  // on a listening socket: only the queue's length changes
    errno = saved;
  }
  return bound;
}

bool HttpServer::request_timed_out() { return t_request && t_request->timed_out(); }

bool HttpServer::process_and_close_socket(socket_t sock) {
  std::string client;
  int port = 0;
  socket_address(sock, true, &client, &port);
  switch (slots_.admit(client, sock)) {
    case ClientSlots::Admission::kServe: break;
    case ClientSlots::Admission::kWait: return true;  // served by this client's next free worker
    case ClientSlots::Admission::kRefuse: refuse(sock, limits_); return false;
  }
  for (socket_t next = sock; next >= 0; next = slots_.next(client)) {
    try {
      serve_connection(next);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "quax serve: a request failed: %s\n", log_line(e.what()).c_str());
    } catch (...) {
      std::fprintf(stderr, "quax serve: a request failed (an exception of unknown type)\n");
    }
    t_request = nullptr;
    ::shutdown(next, SHUT_RDWR);
    ::close(next);
  }
  return true;
}

void HttpServer::serve_connection(socket_t sock) {
  const std::chrono::milliseconds write_timeout(1000LL * limits_.write_seconds);
  for (size_t count = keep_alive_max_count_; count > 0 && svr_sock_ != INVALID_SOCKET; --count) {
    // The next request's first byte, within the keep-alive time; its deadline starts there.
    if (!DeadlineStream(sock, Clock::now() + std::chrono::seconds(limits_.keep_alive_seconds), write_timeout).is_readable())
      return;
    DeadlineStream stream(sock, Clock::now() + std::chrono::seconds(limits_.request_seconds), write_timeout);
    t_request = &stream;
    bool closed = false, empty_body = false;
    // Called once the head is read, before the body: a request with neither a length nor
    // chunks has an empty body (RFC 9112, 6.3), where cpp-httplib would read on until the
    // client closes its side.
    const bool ok = process_request(stream, count == 1, closed, [&empty_body](httplib::Request& req) {
      if (!has_body_method(req.method) || req.has_header("Content-Length") || req.has_header("Transfer-Encoding"))
        return;
      req.set_header("Content-Length", "0");
      req.headers.erase("Connection");
      req.set_header("Connection", "close");  // the answer says so
      empty_body = true;
    });
    t_request = nullptr;
    if (!ok || closed || empty_body || stream.timed_out()) return;
  }
}

}  // namespace quax
