#pragma once

#include <cmath>
#include <cstdint>
#include <functional>

#include "tests/io/read_pass.h"

namespace apertura::testing {

// A pass over a damaged copy of a file set against one over the intact file, chunk by chunk
// (both read with keep = true). Rows for which `flagged(source_row)` holds must have lost every
// sample; rows for which `bad_geometry(source_row)` holds must have UVW 0; every other sample
// and UVW must be as in the intact file. The counters are what the tests assert on.
struct ScreenComparison {
  std::uint64_t lost = 0;             // samples usable in the intact file, flagged now
  std::uint64_t kept_in_flagged = 0;  // samples of a flagged row that still have weight
  std::uint64_t changed = 0;          // samples or UVW of untouched rows that differ
  std::uint64_t bad_uvw = 0;          // non-finite UVW, or a damaged row's UVW that is not 0
};

inline ScreenComparison compareScreenedPass(
    const PassSums& intact, const PassSums& screened,
    const std::function<bool(std::uint64_t)>& flagged,
    const std::function<bool(std::uint64_t)>& bad_geometry) {
  ScreenComparison out;
  for (std::size_t k = 0; k < intact.kept.size() && k < screened.kept.size(); ++k) {
    const VisibilityChunk &a = intact.kept[k], &b = screened.kept[k];
    for (std::size_t r = 0; r < a.num_rows(); ++r) {
      const std::uint64_t row = b.source_rows[r];
      for (int i = 0; i < 3; ++i) {
        const double u = b.uvw_m[3 * r + i];
        if (!std::isfinite(u) || (bad_geometry(row) && u != 0.0))
          ++out.bad_uvw;
        else if (!bad_geometry(row) && u != a.uvw_m[3 * r + i])
          ++out.changed;
      }
      for (std::size_t c = 0; c < a.num_channels(); ++c) {
        const std::size_t i = r * a.num_channels() + c;
        if (flagged(row)) {
          out.kept_in_flagged += b.weights[i] != 0.0f ? 1 : 0;
          out.lost += a.weights[i] > 0.0f ? 1 : 0;
        } else if (b.weights[i] != a.weights[i]) {
          ++out.changed;
        }
      }
    }
  }
  return out;
}

}  // namespace apertura::testing
