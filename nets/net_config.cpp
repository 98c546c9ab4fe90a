#include "nets/net_config.h"

#include <fmt/format.h>

#include "env/game_state.h"

namespace quax {

ModelShape model_shape_for(const GameSpec& spec) {
  const auto state = new_game(spec);
  ModelShape shape;
  shape.spec = spec;
  shape.planes = state->num_planes();
  shape.size = spec.size;
  shape.spatial_planes = state->spatial_planes();
  shape.extra_actions = state->extra_actions();
  return shape;
}

const std::vector<NetField>& net_fields() {
  auto integer = [](const char* key, int NetConfig::*member, int lo, int hi, const char* doc) {
    NetField f{key, lo, hi, doc};
    f.integer = member;
    return f;
  };
  auto boolean = [](const char* key, bool NetConfig::*member, const char* doc) {
    NetField f{key, 0, 0, doc};
    f.boolean = member;
    return f;
  };
  static const std::vector<NetField> fields = {
      integer("blocks", &NetConfig::blocks, 0, kMaxBlocks, "residual blocks of the tower"),
      integer("filters", &NetConfig::filters, 1, kMaxFilters, "channels of the tower"),
      boolean("global_pooling", &NetConfig::global_pooling,
              "KataGo-style pooled channel biases in some blocks and the heads"),
      integer("pool_every", &NetConfig::pool_every, 1, kMaxPoolEvery, "block i pools when (i + 1) is a multiple of this"),
      integer("policy_channels", &NetConfig::policy_channels, 1, kMaxFilters, "1x1 conv channels of the policy head"),
      integer("value_channels", &NetConfig::value_channels, 1, kMaxFilters, "1x1 conv channels of the value head"),
      integer("value_hidden", &NetConfig::value_hidden, 1, kMaxValueHidden, "hidden units of the value head"),
      boolean("ownership_head", &NetConfig::ownership_head,
              "head predicting each cell's final owner and winning chain; model files keep it for `quax analysis` (configs/README.md)"),
      boolean("soft_policy_head", &NetConfig::soft_policy_head,
              "learner-only head predicting the flattened search policy (configs/README.md)"),
  };
  return fields;
}

std::string check_net_config(const NetConfig& net) {
  for (const NetField& f : net_fields()) {
    if (!f.integer) continue;
    const int value = net.*f.integer;
    if (value < f.lo || value > f.hi) return fmt::format("net {} {} is not in [{}, {}]", f.key, value, f.lo, f.hi);
  }
  return "";
}

bool same_layout(const ModelShape& a, const ModelShape& b) {
  return a.planes == b.planes && a.spatial_planes == b.spatial_planes && a.extra_actions == b.extra_actions;
}

std::string sizes_text(Variant v, const std::vector<int>& sizes) {
  std::vector<std::string> parts;
  for (int n : sizes) parts.push_back(size_text(v, n));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string describe(const NetConfig& net) {
  return fmt::format("{} blocks x {} filters{}{}{}", net.blocks, net.filters,
                     net.global_pooling ? ", global pooling" : "", net.ownership_head ? ", ownership head" : "",
                     net.soft_policy_head ? ", soft policy head" : "");
}

bool cpu_runs_bfloat16() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512dq");
#else
  return false;
#endif
}

const char* precision_name(Precision p) {
  switch (p) {
    case Precision::kAuto: return "auto";
    case Precision::kFloat32: return "fp32";
    case Precision::kBFloat16: return "bf16";
    case Precision::kInt8: return "int8";
  }
  return "?";
}

bool parse_precision(const std::string& name, Precision* out) {
  for (auto p : {Precision::kAuto, Precision::kFloat32, Precision::kBFloat16, Precision::kInt8}) {
    if (name == precision_name(p)) {
      *out = p;
      return true;
    }
  }
  return false;
}

}  // namespace quax
