// The connections each client (a remote address) has in service, held to a cap, so that one
// client's slow or many connections leave the HTTP workers to the others. Beyond the cap a new
// connection waits in its client's own line without holding a worker, and the worker that ends
// one of that client's connections serves it next; beyond a longer cap it is refused.
// Thread-safe.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace quax {

class ClientSlots {
 public:
  // `serving`: connections of one client in service at once (>= 1); `waiting`: more of its
  // connections that may wait for one of those to end.
  ClientSlots(size_t serving, size_t waiting) : serving_cap_(serving), waiting_cap_(waiting) {}

  enum class Admission {
    kServe,   // the caller serves it now, in one of the client's slots
    kWait,    // kept: next() hands it to a worker of the same client later
    kRefuse,  // the client has too many connections: the caller refuses and closes it
  };
  // A new connection (`handle`, e.g. its socket) of `client`.
  Admission admit(const std::string& client, int handle);

  // Called by a worker that holds one of `client`'s slots when its connection has ended: the
  // client's oldest waiting connection, to serve now in the same slot, or -1 when none waits
  // (the slot is then given up).
  int next(const std::string& client);

 private:
  struct Client {
    size_t serving = 0;
    std::deque<int> waiting;
  };
  const size_t serving_cap_;
  const size_t waiting_cap_;
  std::mutex mu_;
  std::unordered_map<std::string, Client> clients_;  // only clients with a connection in service
};

}  // namespace quax
