#pragma once

#include <complex>
#include <cstddef>
#include <vector>

#include "core/data/visibility_chunk.h"

namespace apertura::imaging {

constexpr double kSpeedOfLight = 299792458.0;

// Where a block of rows x channels samples the uv plane: uvw per row in metres and frequencies per
// channel; sample (r, c) sits at uvw_m[3r..3r+2] * frequencies_hz[c] / c in wavelengths. The
// per-channel scaling is done on the fly, never materialised. Pointers are borrowed: the arrays
// must outlive every operator call that uses the block.
struct UvwBlock {
  const double* uvw_m = nullptr;
  std::size_t num_rows = 0;
  const double* frequencies_hz = nullptr;
  std::size_t num_channels = 0;

  std::size_t numSamples() const { return num_rows * num_channels; }
  static UvwBlock of(const VisibilityChunk& c) {
    return UvwBlock{c.uvw_m.data(), c.num_rows(), c.frequencies_hz.data(), c.num_channels()};
  }
};

}  // namespace apertura::imaging
