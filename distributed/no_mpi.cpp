// run_distributed_training of a quax built without MPI (CMake found no Open MPI).
#include "distributed/distributed_training.h"

#include <stdexcept>

namespace quax {

void run_distributed_training(const std::function<TrainConfig()>&, TrainOptions, const DistributedOptions&) {
  throw std::runtime_error(
      "this quax was built without MPI, so --distributed is not available: install libopenmpi-dev and openmpi-bin "
      "(scripts/install_deps.sh does) and build again");
}

bool distributed_training_available() { return false; }

}  // namespace quax
