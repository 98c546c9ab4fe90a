// What a command may ask of the machine's memory: a size the user chose (a solver's table, a
// search of N simulations) is checked against the physical memory before anything is
// allocated, so that it is refused in one line naming the option instead of ending in a bare
// std::bad_alloc after minutes, or in the kernel's out-of-memory kill.
#pragma once

#include <cstdint>
#include <string>

namespace quax {

// The machine's physical memory in bytes (0 when unknown).
std::uint64_t physical_memory();

// "" when `bytes` fits in the machine's memory (or that is unknown); else one line: "<what>
// needs about N MiB, more than this machine's M MiB".
std::string memory_refusal(std::uint64_t bytes, const std::string& what);

}  // namespace quax
