#include "core/io/row_geometry.h"

#include <algorithm>
#include <cmath>

namespace apertura {

double uvwLimitMetres(double max_antenna_separation_m) {
  if (!(max_antenna_separation_m > 0.0) || !std::isfinite(max_antenna_separation_m))
    return 1e10;
  return std::max(1000.0 * max_antenna_separation_m, 2e7);
}

double maxAntennaSeparation(const std::vector<std::array<double, 3>>& positions_m) {
  double longest = 0.0;
  for (std::size_t i = 0; i < positions_m.size(); ++i) {
    for (std::size_t j = i + 1; j < positions_m.size(); ++j) {
      const auto& a = positions_m[i];
      const auto& b = positions_m[j];
      const double d = std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                                 (a[2] - b[2]) * (a[2] - b[2]));
      if (std::isfinite(d))
        longest = std::max(longest, d);
    }
  }
  return longest;
}

void screenRowGeometry(double* uvw_m, const int* antenna1, const int* antenna2,
                       RawVisibilityBlock& raw, double limit_m, ProductCounts& counts) {
  const std::size_t per_row = raw.channels * raw.correlations;
  for (std::size_t r = 0; r < raw.rows; ++r) {
    double* uvw = uvw_m + 3 * r;
    const bool finite = std::isfinite(uvw[0]) && std::isfinite(uvw[1]) && std::isfinite(uvw[2]);
    bool bad = true;
    if (!finite) {
      ++counts.uvw_non_finite_rows;
    } else if (std::sqrt(uvw[0] * uvw[0] + uvw[1] * uvw[1] + uvw[2] * uvw[2]) > limit_m) {
      ++counts.uvw_too_long_rows;
    } else if (uvw[0] == 0.0 && uvw[1] == 0.0 && uvw[2] == 0.0 && antenna1[r] != antenna2[r]) {
      ++counts.uvw_zero_rows;
    } else {
      bad = false;
    }
    if (bad) {
      uvw[0] = uvw[1] = uvw[2] = 0.0;
      std::fill_n(raw.flag.begin() + static_cast<long>(r * per_row), per_row, 1);
    }
  }
}

}  // namespace apertura
