#include "train/model_publisher.h"

#include <fmt/format.h>

#include <filesystem>

#include "core/atomic_file.h"
#include "nets/net_evaluator.h"

namespace quax {

std::string publish_model_if_finite(const Learner& learner, const std::string& model_file,
                                    const std::string& newest_copy, ModelSlot& slot) {
  auto model = learner.inference_model();
  if (auto err = probe_model_outputs(*model); !err.empty())
    return fmt::format("the model of step {} was not published: it {}", learner.step(), err);
  learner.publish_model(model_file);
  write_atomically(newest_copy, [&](const std::string& tmp) { std::filesystem::copy_file(model_file, tmp); });
  slot.set(std::move(model));
  return {};
}

}  // namespace quax
