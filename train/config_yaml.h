// Reading the YAML of a config without trusting it. yaml-cpp follows anchors and aliases into
// a graph: `game: &g {x: *g}` is a node that contains itself (any walk over it recurses until
// the stack runs out) and ten lines of aliases of aliases stand for a billion nodes. No config
// needs either (configs repeat nothing but share through `extends:`), so both are refused
// before a node is built, as is nesting deeper than any config goes.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

namespace quax {

// Configs nest two levels (section, key) and a list value one more; well above that is an
// error, not a config.
inline constexpr int kConfigYamlDepth = 8;

// The first document of `text` as a node tree. Throws ConfigError with one line
// "<source>:<line>: ..." for a syntax error, an anchor (&name) or alias (*name), or
// collections nested deeper than kConfigYamlDepth.
YAML::Node load_config_yaml(const std::string& text, const std::string& source);

// The text of the config file at `path`: a regular file of at most kConfigFileLimit bytes
// (core/bounded_file.h). Throws ConfigError with one line naming the path otherwise (missing,
// unreadable, a directory, a FIFO or device, too large), without blocking on a FIFO.
std::string read_config_file(const std::string& path);

}  // namespace quax
