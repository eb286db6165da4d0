#pragma once

// Inputs shared by the VectorSpace tests (test_space_penalties, test_space_proxes).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/rml/host_vector_space.h"
#include "tests/rml/rml_test_support.h"

namespace apertura::rml::test {

constexpr double kTolerance = 1e-12;

// a and b within kTolerance of the largest of |a|, |b| and `reference` (infinities equal).
inline bool close(double a, double b, double reference) {
  if (std::isinf(a) || std::isinf(b))
    return a == b;
  return std::abs(a - b) <= kTolerance * std::max({std::abs(a), std::abs(b), reference});
}

enum class PriorKind { None, PerPixel, Flat };

// A prior or default image of the kind: none, one value per pixel, or one flat value.
inline std::vector<double> priorImage(PriorKind kind, std::size_t n, Random& rng) {
  if (kind == PriorKind::PerPixel)
    return rng.vector(n, 0.1, 1.5);
  if (kind == PriorKind::Flat)
    return {0.3};
  return {};
}

// Weights in [0.2, 1.5), a quarter of them zero.
inline std::vector<double> randomMask(std::size_t n, Random& rng) {
  std::vector<double> mask(n);
  for (double& m : mask)
    m = rng.uniform() < 0.25 ? 0.0 : rng.uniform(0.2, 1.5);
  return mask;
}

inline compute::SpaceVectorPtr uploaded(HostVectorSpace& space, const std::vector<double>& host) {
  auto v = space.create(host.size());
  HostVectorSpace::of(*v) = host;
  return v;
}

// Odd and degenerate image shapes.
struct Shape {
  int nx;
  int ny;
};
const Shape kShapes[] = {{13, 9}, {1, 11}, {11, 1}, {2, 3}, {1, 1}};

}  // namespace apertura::rml::test
