#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "core/io/stokes_product.h"

namespace apertura {

// Rows whose baseline cannot be real are flagged before any operator sees them, the same way by
// every reader: a NaN or Inf in UVW would crash the tile planner, a 1e30 m baseline would set the
// automatic cell, and a cross-correlation at UVW (0, 0, 0) measures no baseline at all.

// |UVW| is the baseline's length, so no row can be longer than the longest separation of two
// antennas. The limit allows a factor 1000 (orbiting stations listed at a ground position) and
// never goes below 2e7 m (more than the Earth's diameter) so a wrong ANTENNA table cannot flag a
// ground array; without antenna positions it is 1e10 m (beyond any space-VLBI orbit).
double uvwLimitMetres(double max_antenna_separation_m);

// The longest distance between two of `positions_m` (any common origin); 0 for fewer than two
// finite positions.
double maxAntennaSeparation(const std::vector<std::array<double, 3>>& positions_m);

// Flags every sample of the rows of `raw` whose UVW (3 per row, in metres) is non-finite, longer
// than `limit_m`, or exactly zero on a cross-correlation (antenna1 != antenna2), sets that UVW to
// 0 so no later stage computes with it, and counts the rows in `counts`.
void screenRowGeometry(double* uvw_m, const int* antenna1, const int* antenna2,
                       RawVisibilityBlock& raw, double limit_m, ProductCounts& counts);

}  // namespace apertura
