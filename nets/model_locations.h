// Where the shipped models are found: one rule for every door (the commands' default models,
// `--model NAME`, player strings, `quax serve`'s model list, the Python module, the examples).
// Torch-free.
#pragma once

#include <string>
#include <vector>

namespace quax {

// The folders of shipped models, in order, each listed once (by its canonical path) and only
// when it is a directory:
//   - the folders of $QUAX_MODELS (separated by ':') when it is set and not empty: it
//     replaces the rest;
//   - else, for the program or library that holds this code (/proc/self/exe, and the Python
//     module's shared object): <its folder>/../share/quax/checkpoints (an install made with
//     `cmake --install build --prefix P`: P/bin/quax) and <its folder>/../checkpoints (the
//     build tree of a clone: build/quax);
//   - then the checkpoints/ of the source tree the program was built from.
// The current directory plays no part: a user's folder named checkpoints may hold anything.
std::vector<std::string> shipped_model_dirs();

// The model file a user means by `path`: `path` itself when it names an existing file or
// cannot name a shipped one; else, when it is a bare file name ("quax-7.pt") or
// "checkpoints/<name>" (as the docs write it, from the repository root), the first
// shipped_model_dirs() folder's file of that name. Unchanged when none has it.
std::string find_model_file(const std::string& path);

// For an error about `path` that could not be opened: " (nor in the shipped models'
// folders: A, B)" when find_model_file looked for it there, else "".
std::string shipped_search_note(const std::string& path);

}  // namespace quax
