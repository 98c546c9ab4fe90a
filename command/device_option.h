// The --device option of the commands that run a network (play, gtp, arena, ladder, serve,
// bench net, bench strength): where it runs, read by nets/device.h as the config keys and the
// Python module read theirs.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "nets/device.h"

namespace quax {

// Adds `--device D` to `cmd`, stored as given in *text (left as it is, "auto" by the
// commands, when the option is not given). Returns the option, whose count() says whether
// it was given.
CLI::Option* add_device_option(CLI::App* cmd, std::string* text);

// The device --device names, resolved (nets/device.h, resolve_device). Throws CommandError
// with one line: "--device: expected cpu, cuda, cuda:N or auto, got 'gpu'" for a value of
// another form, "--device cuda: this build of LibTorch sees no CUDA device (use cpu or auto)"
// for a GPU this machine lacks.
Device device_from_option(const std::string& text);

}  // namespace quax
