// The files of web/ compiled into the binary (a C++ source generated at build time by
// cmake/embed_files.cmake), so that `quax serve` needs nothing beside it.
#pragma once

#include <cstddef>
#include <vector>

namespace quax {

struct WebAsset {
  const char* name;  // the file name in web/, e.g. "app.js"
  const unsigned char* data;
  size_t size;
};

const std::vector<WebAsset>& web_assets();

}  // namespace quax
