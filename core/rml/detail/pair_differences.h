#pragma once

#include <array>
#include <cmath>
#include <cstddef>

#include "core/compute/vector_space.h"
#include "core/rml/detail/parallel_sum.h"

namespace apertura::rml::detail {

using PairSums = compute::VectorSpace::PairSums;

// s = x_new - x and y = g_new - g over n elements, formed in double, their sums accumulated
// blockwise in index order (parallel_sum.h) and, when kStore, s and y stored in T (float: the
// rounded values float_sy is summed from) into (s, y). The host history (LbfgsHistory) and the
// host space (HostVectorSpace::differences) both form pairs here: the resident L-BFGS on the host
// space gives the host solver's bits.
template <typename T, bool kStore>
PairSums pairDifferences(std::size_t n, const double* x_new, const double* x, const double* g_new,
                         const double* g, T* s, T* y) {
  const auto sums =
      blockedSums<4>(n, [&](std::size_t begin, std::size_t end, std::array<double, 4>& acc) {
        double sy = 0.0, ss = 0.0, yy = 0.0, float_sy = 0.0;
        for (std::size_t i = begin; i < end; ++i) {
          const double si = x_new[i] - x[i];
          const double yi = g_new[i] - g[i];
          const float sf = float(si), yf = float(yi);
          sy += si * yi;
          ss += si * si;
          yy += yi * yi;
          float_sy += double(sf) * double(yf);
          if constexpr (kStore) {  // T(si) is sf for float pairs
            s[i] = T(si);
            y[i] = T(yi);
          }
        }
        acc = {sy, ss, yy, float_sy};
      });
  return {sums[0], sums[1], sums[2], sums[3]};
}

// Whether L-BFGS keeps a pair with these sums: the curvature condition s.y > 1e-12 |s| |y| on the
// double differences and, for float pairs, a positive s.y of the rounded pair (else its rho would
// be infinite or negative).
inline bool keepsPair(const PairSums& p, bool float_pairs) {
  return p.sy > 1e-12 * std::sqrt(p.ss) * std::sqrt(p.yy) && (!float_pairs || p.float_sy > 0.0);
}

// A kept pair's rho = 1 / s.y, of the pair as stored: float pairs take the rounded pair's s.y, so
// the stored curvature information is self-consistent.
inline double pairRho(const PairSums& p, bool float_pairs) {
  return 1.0 / (float_pairs ? p.float_sy : p.sy);
}

}  // namespace apertura::rml::detail
