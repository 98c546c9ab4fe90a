#include "train/model_publisher.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "core/atomic_file.h"
#include "nets/net_evaluator.h"

namespace quax {

std::string publish_model_if_sound(const Learner& learner, const std::string& model_file,
                                    const std::string& newest_copy, ModelSlot& slot) {
  auto model = learner.inference_model();
  if (auto err = probe_model_outputs(*model); !err.empty())
    return fmt::format("the model of step {} was not published: it {}", learner.step(), err);
  // Self-play's copy in another precision or on another device must still be the learner's
  // network; the float32 copy on the CPU is the path every test checks.
  if (inference_model_precision(*model) != Precision::kFloat32 || inference_model_device(*model) != kCpuDevice) {
    const auto reference = learner.inference_model(Precision::kFloat32, kCpuDevice);
    if (auto err = compare_model_outputs(*model, *reference); !err.empty()) {
      const std::string copy = fmt::format("its self-play copy ({}, {}) {}", precision_name(inference_model_precision(*model)),
                                           device_name(inference_model_device(*model)), err);
      // int8's rounding is a property of the model, not a fault of the path: self-play plays
      // this model in float32 instead, and the next publication tries int8 again.
      if (inference_model_precision(*model) != Precision::kInt8)
        return fmt::format("the model of step {} was not published: {}", learner.step(), copy);
      std::fprintf(stderr, "warning: the model of step %lld plays in fp32: %s\n", static_cast<long long>(learner.step()),
                   copy.c_str());
      model = reference;
    }
  }
  learner.publish_model(model_file);
  write_atomically(newest_copy, [&](const std::string& tmp) { std::filesystem::copy_file(model_file, tmp); });
  slot.set(std::move(model));
  return {};
}

}  // namespace quax
