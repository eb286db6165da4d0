#pragma once

#include <cmath>
#include <cstdint>

namespace apertura {

// Counter-based random numbers: the value for index k depends only on (seed, k), so noise is
// identical whatever the number of threads or the order of evaluation, and identical on every
// platform (std::normal_distribution is implementation-defined, so it is not used).
inline std::uint64_t splitMix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Uniform in (0, 1), never 0 (safe for log), from the top 53 bits.
inline double counterUniform(std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t bits = splitMix64(splitMix64(seed) ^ splitMix64(index * 2 + 1));
  return (static_cast<double>(bits >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

// A pair of independent standard normal deviates for index k (Box-Muller).
struct NormalPair {
  double a = 0.0;
  double b = 0.0;
};

inline NormalPair counterNormalPair(std::uint64_t seed, std::uint64_t index) {
  const double u1 = counterUniform(seed, 2 * index);
  const double u2 = counterUniform(seed, 2 * index + 1);
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double phi = 2.0 * M_PI * u2;
  return {r * std::cos(phi), r * std::sin(phi)};
}

}  // namespace apertura
