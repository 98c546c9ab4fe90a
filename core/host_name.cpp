#include "core/host_name.h"

#include <unistd.h>

#include <cctype>

namespace quax {

const std::string& host_name_token() {
  static const std::string token = [] {
    char host[256] = {0};
    std::string name;
    if (::gethostname(host, sizeof(host) - 1) != 0) return name;
    for (const char* c = host; *c && name.size() < 16; ++c)
      if (std::isalnum(static_cast<unsigned char>(*c))) name += *c;
    return name;
  }();
  return token;
}

}  // namespace quax
