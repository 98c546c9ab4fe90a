#include "command/device_option.h"

#include <stdexcept>

#include "command/command.h"

namespace quax {

CLI::Option* add_device_option(CLI::App* cmd, std::string* text) {
  return cmd->add_option("--device", *text,
                         std::string("Where the network runs: ") + kDeviceSyntax +
                             " (auto: the first GPU when LibTorch sees one, else the CPU)");
}

Device device_from_option(const std::string& text) {
  Device device;
  std::string error;
  if (!parse_device(text, &device, &error)) throw CommandError("--device: " + error);
  try {
    return resolve_device(device, "--device");
  } catch (const std::runtime_error& e) {
    throw CommandError(e.what());
  }
}

}  // namespace quax
