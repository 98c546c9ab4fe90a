#include "core/machine_memory.h"

#include <unistd.h>

namespace quax {

std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::string memory_refusal(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t physical = physical_memory();
  if (physical == 0 || bytes <= physical) return "";
  return what + " needs about " + std::to_string(bytes >> 20) + " MiB, more than this machine's " +
         std::to_string(physical >> 20) + " MiB";
}

}  // namespace quax
