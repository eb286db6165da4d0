#pragma once

#include <array>
#include <cstddef>
#include <type_traits>

#include "core/rml/detail/parallel_sum.h"

namespace apertura::rml::detail {

// An L-BFGS correction pair's sums: s.y, s.s and y.y of the double differences, and s.y of the
// pair as stored (float pairs take rho from it, so the stored curvature information is
// self-consistent; equal to sy for double pairs and when nothing is stored).
struct PairDifferenceSums {
  double sy = 0.0;
  double ss = 0.0;
  double yy = 0.0;
  double stored_sy = 0.0;
};

// s = x_new - x and y = g_new - g over n elements, formed in double, their sums accumulated
// blockwise in index order (parallel_sum.h) and, when kStore, s and y rounded to T into (s, y).
// The host history (LbfgsHistory) and the host space (HostVectorSpace::differences) both form
// pairs here: the resident L-BFGS on the host space gives the host solver's bits.
template <typename T, bool kStore>
PairDifferenceSums pairDifferences(std::size_t n, const double* x_new, const double* x,
                                   const double* g_new, const double* g, T* s, T* y) {
  const auto sums =
      blockedSums<4>(n, [&](std::size_t begin, std::size_t end, std::array<double, 4>& acc) {
        double sy = 0.0, ss = 0.0, yy = 0.0, stored_sy = 0.0;
        for (std::size_t i = begin; i < end; ++i) {
          const double si = x_new[i] - x[i];
          const double yi = g_new[i] - g[i];
          sy += si * yi;
          ss += si * si;
          yy += yi * yi;
          if constexpr (kStore) {
            s[i] = T(si);
            y[i] = T(yi);
            if constexpr (std::is_same_v<T, float>)
              stored_sy += double(s[i]) * double(y[i]);
          }
        }
        acc = {sy, ss, yy, stored_sy};
      });
  const bool stored_float = kStore && std::is_same_v<T, float>;
  return {sums[0], sums[1], sums[2], stored_float ? sums[3] : sums[0]};
}

}  // namespace apertura::rml::detail
