#include "distributed/distributed_training.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "core/host_name.h"
#include "distributed/actor_link.h"
#include "distributed/learner_link.h"
#include "distributed/mpi_channel.h"

namespace quax {

bool distributed_training_available() { return true; }

void run_distributed_training(const std::function<TrainConfig()>& run_config, TrainOptions options,
                              const DistributedOptions& d) {
  MpiSession mpi;
  if (mpi.size() < 2)
    throw std::runtime_error(
        "--distributed needs 2 or more MPI ranks (rank 0 learns, the others play): "
        "mpirun -np K quax train --config FILE --distributed");
  MpiChannel channel;
  if (mpi.rank() == 0) {
    TrainConfig config;
    try {
      config = run_config();
    } catch (const std::exception&) {
      // The actors wait for a configuration: they are told to stop instead.
      for (int rank = 1; rank < mpi.size(); ++rank) channel.send(rank, MessageTag::kStop, "");
      const auto start = std::chrono::steady_clock::now();
      while (channel.pending_sends() > 0 && std::chrono::steady_clock::now() - start < std::chrono::seconds(5))
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      throw;
    }
    LearnerLink link(channel, config, mpi.size() - 1, d.peer_timeout_s);
    options.learn = true;
    options.selfplay = d.learner_plays;
    options.companion = &link;
    if (!options.quiet)
      std::printf("distributed run: learner on rank 0 (host %s, pid %d), %d actors\n", host_name_token().c_str(),
                  static_cast<int>(::getpid()), mpi.size() - 1);
    std::fflush(stdout);
    try {
      run_training(config, options);
    } catch (const std::exception& e) {
      link.finish(e.what());  // actors still waiting for a configuration are told to stop
      mpi.set_exit_code(1);
      if (!link.all_actors_well()) mpi.skip_finalize();
      throw;
    }
    if (!link.all_actors_well()) mpi.skip_finalize();
    return;
  }
  ActorLink link(channel, d.peer_timeout_s);
  const std::string base = d.actor_dir.empty() ? std::filesystem::temp_directory_path().string() : d.actor_dir;
  try {
    const auto actor_config =
        link.receive_config(fmt::format("{}/quax-actor-r{}-{}p{}", base, mpi.rank(), host_name_token(), ::getpid()));
    if (!actor_config) return;  // the learner stopped before the run began
    TrainOptions a;
    a.learn = false;
    a.selfplay = true;
    a.quiet = true;
    a.stop_requested = options.stop_requested;
    a.companion = &link;
    run_training(*actor_config, a);
  } catch (const std::exception& e) {
    link.finish(e.what());
    mpi.set_exit_code(1);
    if (!link.learner_well()) mpi.skip_finalize();
    throw std::runtime_error(fmt::format("rank {}: {}", mpi.rank(), e.what()));
  }
}

}  // namespace quax
