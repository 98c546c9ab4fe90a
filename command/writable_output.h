// The check of an output file before a command's work: a bad --out fails at once, not after
// minutes of work, and leaves nothing behind.
#pragma once

#include <string>

namespace quax {

// Throws CommandError "cannot write '<path>': <why>" unless a file can be made at `path`: it
// is no directory, and the nearest existing directory on its way (write_atomically makes
// the missing ones) takes a new file, tried with a temporary of the atomic-write name.
void require_writable(const std::string& path);

}  // namespace quax
