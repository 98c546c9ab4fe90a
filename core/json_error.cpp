#include "core/json_error.h"

namespace quax {

std::string json_error_text(const std::exception& e) {
  std::string what = e.what();
  if (what.rfind("[json.exception.", 0) == 0) {
    const auto close = what.find("] ");
    if (close != std::string::npos) what = what.substr(close + 2);
  }
  if (const auto token = what.find("; last read: "); token != std::string::npos) what.resize(token);
  const std::string at = "parse error at line 1, ";
  if (what.rfind(at, 0) == 0) what = "not JSON at " + what.substr(at.size());
  constexpr size_t kLongest = 160;
  if (what.size() > kLongest) what = what.substr(0, kLongest) + "...";
  return what;
}

}  // namespace quax
