// Removing a directory and everything under it.
#pragma once

#include <string>

namespace quax {

// Removes `path` and, when it is a directory, everything under it (links themselves, never what
// they point to). A missing path is not an error. Throws std::runtime_error naming the entry that
// could not be removed and why.
//
// Why not std::filesystem::remove_all: PyTorch's wheels (2.5 and later) export std::filesystem
// functions from a libstdc++ of their own (pytorch#133437), and a program linked with such a
// LibTorch may call the wheel's remove_all with the rest of std::filesystem from its own
// libstdc++: on a GPU machine that removal of a full directory faulted (docs/GPU.md). This uses
// the C library alone.
void remove_tree(const std::string& path);

}  // namespace quax
