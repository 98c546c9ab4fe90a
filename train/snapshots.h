// Models kept at fixed marks of training time (run.snapshot_minutes), the points of the
// time-to-strength curve of `quax bench strength`:
//   <run>/snapshots/model-<seconds of training, 7 digits>s.pt
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace quax {

struct Snapshot {
  int64_t seconds = 0;  // training time at which it was kept
  std::string path;
};

std::string snapshot_path(const std::string& run_dir, int64_t seconds);
// The snapshots of a run, oldest first; files of other names are ignored; no directory: none.
std::vector<Snapshot> list_snapshots(const std::string& run_dir);

}  // namespace quax
