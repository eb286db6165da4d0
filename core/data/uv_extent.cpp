#include "core/data/uv_extent.h"

#include <algorithm>
#include <cmath>

namespace apertura {

double longestBaselineMetres(const VisibilityChunk& chunk) {
  double longest = 0.0;
  for (std::size_t r = 0; r < chunk.num_rows(); ++r)
    longest = std::max(longest, std::hypot(chunk.uvw_m[3 * r], chunk.uvw_m[3 * r + 1]));
  return longest;
}

double longestBaselineWavelengths(const VisibilityChunk& chunk) {
  constexpr double kSpeedOfLight = 299792458.0;
  double fmax = 0.0;
  for (double f : chunk.frequencies_hz)
    fmax = std::max(fmax, f);
  return longestBaselineMetres(chunk) * fmax / kSpeedOfLight;
}

}  // namespace apertura
