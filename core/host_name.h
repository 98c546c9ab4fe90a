// This machine's name as a token for file names: processes on several machines may write
// into one shared directory (a run's shards, their temporaries), and pids alone collide.
#pragma once

#include <string>

namespace quax {

// gethostname() keeping letters and digits only, at most 16 of them; "" when it fails.
const std::string& host_name_token();

}  // namespace quax
