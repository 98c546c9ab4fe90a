// The HTTP layer of `quax serve`: cpp-httplib's server with the limits of docs/SECURITY.md, all
// set up in this one place (the routes are the caller's: serve/board_server.cpp). Beyond the
// library's own settings (worker threads, body size, keep-alive, write timeout, a listening
// socket without SO_REUSEPORT, a longer accept queue), it holds to what cpp-httplib 0.11 has no
// setting for:
//
// - A deadline for the whole request: its head and body must arrive within request_seconds of
//   its first byte, however slowly they trickle in (serve/deadline_stream.h). The library's read
//   timeout restarted with every byte, so that sixteen clients sending a byte every 4 s held all
//   the workers for ever. A request cut there ends its connection; request_timed_out() tells
//   the handlers why its head or body is incomplete (a 408, not a malformed request).
// - A cap on the connections one client (a remote address) has in service: beyond
//   client_connections its new connections wait, holding no worker, for one of its own to end,
//   and beyond client_waiting more they are refused (503) at once (serve/client_slots.h). So
//   one client's slow or many connections leave the other workers to the other clients.
// - A request with neither Content-Length nor Transfer-Encoding (POST, PUT, PATCH, DELETE) has
//   an empty body, as HTTP says (RFC 9112, 6.3), and is answered at once instead of waiting for
//   the connection to end; that connection is closed after the answer, so that bytes a client
//   sent after the head are not read as a next request.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <string>

#include "serve/client_slots.h"

namespace quax {

struct HttpLimits {
  int threads = 16;                 // worker threads: connections in service at once
  size_t max_body_bytes = 1 << 20;  // a Content-Length over it: 413 (chunked bodies: the routes count)
  int keep_alive_seconds = 2;       // a connection idle longer between two requests is closed
  int request_seconds = 10;         // a request's head and body must arrive within this, from its first byte
  int write_seconds = 5;            // each write of an answer to a client that does not read it
  int client_connections = 8;       // connections of one remote address in service at once
  int client_waiting = 64;          // more of its connections that may wait; beyond, 503 and closed
};

class HttpServer : public httplib::Server {
 public:
  explicit HttpServer(const HttpLimits& limits);

  const HttpLimits& limits() const { return limits_; }

  // Binds to host:port (0: any free port) as cpp-httplib's bind_to_port / bind_to_any_port do,
  // then lengthens the accept queue from the library's 5 to SOMAXCONN: a burst of connections
  // (a client opening forty at once) overflowed it, and each connection over it cost its client
  // a second before its retry. Returns the port, or -1 with errno set by the failed bind.
  int bind_port(const std::string& host, int port);

  // Whether the request being handled on the calling thread (an HTTP worker: a handler, the
  // error handler) stopped at its deadline while its head or body was read.
  static bool request_timed_out();

 private:
  // Called by cpp-httplib for each accepted connection, on a worker thread: admits it under
  // the client's cap, serves it and then the client's connections that waited for it, and
  // closes each. An exception escaping a connection ends that connection only (one line on
  // stderr): cpp-httplib does not catch in content providers, and std::terminate would end the
  // server.
  bool process_and_close_socket(socket_t sock) override;
  // Serves the requests of one connection until it closes, is idle past the keep-alive time,
  // a request is cut at its deadline, or the server stops.
  void serve_connection(socket_t sock);

  HttpLimits limits_;
  ClientSlots slots_;
};

}  // namespace quax
