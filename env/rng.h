// A small, fast, seedable generator (xoshiro256**), so that games and searches are
// reproducible from a seed on every platform, unlike std::uniform_int_distribution.
#pragma once

#include <cstdint>

namespace quax {

// splitmix64's step: adds the golden-ratio increment, then mixes (a bijection of 64-bit words
// whose outputs look independent for consecutive inputs). The one mixer of the project: Zobrist
// keys, position keys and per-game seeds are made with it.
inline constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;  // 2^64 / golden ratio, odd
inline uint64_t mix64(uint64_t x) {
  x += kGoldenGamma;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// The seed of stream `index` of something seeded `seed` (a thread, a game, a gating match):
// distinct and unrelated for distinct indices, so streams never replay each other.
inline uint64_t derive_seed(uint64_t seed, uint64_t index) { return mix64(mix64(seed) + index); }

class Rng {
 public:
  explicit Rng(uint64_t seed = kGoldenGamma) { seed_with(seed); }

  void seed_with(uint64_t seed) {
    uint64_t z = seed;
    for (auto& s : s_) s = splitmix(z);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32 for our n).
  uint32_t below(uint32_t n) {
    return static_cast<uint32_t>(((next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // For saving and restoring a run exactly.
  void get_state(uint64_t out[4]) const { for (int i = 0; i < 4; ++i) out[i] = s_[i]; }
  void set_state(const uint64_t in[4]) { for (int i = 0; i < 4; ++i) s_[i] = in[i]; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& z) {
    const uint64_t r = mix64(z);
    z += kGoldenGamma;
    return r;
  }
  uint64_t s_[4];
};

}  // namespace quax
