#include "serve/client_slots.h"

namespace quax {

ClientSlots::Admission ClientSlots::admit(const std::string& client, int handle) {
  std::lock_guard<std::mutex> lock(mu_);
  Client& c = clients_[client];
  if (c.serving < serving_cap_) {
    ++c.serving;
    return Admission::kServe;
  }
  if (c.waiting.size() >= waiting_cap_) return Admission::kRefuse;
  c.waiting.push_back(handle);
  return Admission::kWait;
}

int ClientSlots::next(const std::string& client) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = clients_.find(client);
  if (it == clients_.end()) return -1;  // not a holder's call: nothing to hand out
  Client& c = it->second;
  if (!c.waiting.empty()) {
    const int handle = c.waiting.front();
    c.waiting.pop_front();
    return handle;
  }
  if (--c.serving == 0) clients_.erase(it);  // a client with nothing in service costs nothing
  return -1;
}

}  // namespace quax
