// The shape of a policy-value network, as the `net:` section of a training config sets it.
// Torch-free so that configs and commands can use it without the LibTorch headers.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "env/types.h"

namespace quax {

struct NetConfig {
  int blocks = 4;            // residual blocks in the tower
  int filters = 32;          // channels of the tower
  bool global_pooling = true;  // KataGo-style pooled channel biases in some blocks and the heads
  int pool_every = 3;        // block i has a pooling branch when (i + 1) % pool_every == 0
  int policy_channels = 16;  // 1x1 conv channels of the policy head
  int value_channels = 16;   // 1x1 conv channels of the value head
  int value_hidden = 64;     // width of the value head's hidden layer
  // Auxiliary heads (KataGo), trained by the learner: the forward pass has neither; model files
  // keep the ownership head for `quax analysis` (nets/model.h).
  bool ownership_head = false;    // final owner and winning chain of each cell
  bool soft_policy_head = false;  // a second policy output for the flattened search policy

  bool has_aux_heads() const { return ownership_head || soft_policy_head; }
  // The same network without the auxiliary heads: what inference holds.
  NetConfig without_aux_heads() const {
    NetConfig plain = *this;
    plain.ownership_head = plain.soft_policy_head = false;
    return plain;
  }

  bool operator==(const NetConfig& o) const {
    return blocks == o.blocks && filters == o.filters && global_pooling == o.global_pooling &&
           pool_every == o.pool_every && policy_channels == o.policy_channels &&
           value_channels == o.value_channels && value_hidden == o.value_hidden &&
           ownership_head == o.ownership_head && soft_policy_head == o.soft_policy_head;
  }
  bool operator!=(const NetConfig& o) const { return !(*this == o); }
};

// The ranges of a network's shape: a training config's `net:` section (train/config.cpp) and a
// model file's description (nets/model_file.h) are held to them, so that neither can ask for a
// network no machine could build.
inline constexpr int kMaxBlocks = 64;             // blocks: 0 (heads only) to this
inline constexpr int kMaxFilters = 1024;          // filters, policy and value channels: 1 to this
inline constexpr int kMaxPoolEvery = 64;          // pool_every: 1 to this
inline constexpr int kMaxValueHidden = 4096;      // value_hidden: 1 to this
// The schema of NetConfig: one entry per key of a config's `net:` section, in the order configs
// and dumps write them, with its range and a line of description. A training config reads the
// section through it (train/config.cpp), and check_net_config holds a model file's description
// to the same ranges.
struct NetField {
  const char* key;                     // as in a config's net section: "blocks"
  int lo = 0, hi = 0;                  // an integer field's accepted values, bounds included
  const char* doc;                     // one line, for configs/README.md's key table and --print-config
  int NetConfig::*integer = nullptr;   // the member: an integer...
  bool NetConfig::*boolean = nullptr;  // ...or a boolean
};
const std::vector<NetField>& net_fields();

// "" when every field of `net` is within those ranges, else one line naming the first that is not.
std::string check_net_config(const NetConfig& net);

// What a model's input and output look like for one (variant, size): read off the env.
struct ModelShape {
  GameSpec spec;
  int planes = 0;          // GameState::num_planes()
  int size = 0;            // board side N
  int spatial_planes = 0;  // GameState::spatial_planes()
  int extra_actions = 0;   // GameState::extra_actions()
  int num_actions() const { return spatial_planes * size * size + extra_actions; }
};

// Precondition: check_spec(spec) is empty.
ModelShape model_shape_for(const GameSpec& spec);
// Whether a network made for `a` takes the input and gives the action layout of `b`: the
// same planes, spatial planes and extra actions (whatever the sizes: the network is fully
// convolutional, so one network plays every size of a variant).
bool same_layout(const ModelShape& a, const ModelShape& b);
// Board sizes of `v` as messages name them: "7x7", "7x7, 9x9, 11x11", "side 15, side 9"
// (size_text for each).
std::string sizes_text(Variant v, const std::vector<int>& sizes);

// The number format of inference. bfloat16 halves the network's cost on CPUs that multiply
// it fast in hardware (AMX: 2x the positions/s of float32 measured here on a 4x64 net, 5x5; AVX-512
// BF16 on an AMD EPYC: 1.3x in self-play), but not on every CPU that has the instructions (an
// Intel Xeon with AVX-512 BF16 and no AMX: 0.54x), and is emulated, slower still, elsewhere. Its
// 8-bit mantissa moves logits and values by about 1%, which the search does not notice. Training
// has its own key (learn.precision). int8 (inference on the CPU alone, never chosen by auto):
// the residual tower in 8-bit integers (nets/int8_network.h).
enum class Precision { kAuto, kFloat32, kBFloat16, kInt8 };

// kAuto becomes kBFloat16 on a CPU with AMX-BF16 or AVX-512 BF16 where a probe of a small network
// (nets/cpu_precision.cpp; once a process, about 0.8 s on the Xeon here) runs at least
// kBfloat16NeededSpeedup times float32's positions per second, else kFloat32; others are returned
// as is.
Precision resolve_precision(Precision p);
// The rule of resolve_precision with the probe as a parameter: kFloat32 without bfloat16 in
// hardware (the probe is not run), else whichever format `positions_per_second(bfloat16)` rates
// faster, float32 unless bf16 is faster by the margin (its rounding is worth it only for speed).
Precision choose_cpu_precision(bool bfloat16_in_hardware, const std::function<double(bool bfloat16)>& positions_per_second);
constexpr double kBfloat16NeededSpeedup = 1.1;
// Whether LibTorch's oneDNN can run bfloat16 convolutions here at all (AVX-512 BW/VL/DQ).
bool cpu_runs_bfloat16();
// "auto", "fp32", "bf16", "int8"; parse returns false on anything else.
const char* precision_name(Precision p);
bool parse_precision(const std::string& name, Precision* out);

// e.g. "6 blocks x 64 filters, global pooling".
std::string describe(const NetConfig& net);

}  // namespace quax
