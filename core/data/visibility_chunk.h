#pragma once

#include <complex>
#include <cstddef>
#include <vector>

namespace apertura {

// One block of rows x channels of a single imaged product (e.g. Stokes I, or XX), as the readers
// hand it to weighting, gridding and the objective. All rows of a chunk share one spectral window
// (one set of channel frequencies) and one field. Flagged samples have weight 0, so operators need
// no separate flag test. Layout is row-major: sample (r, c) is at index r * num_channels() + c.
struct VisibilityChunk {
  int field_id = 0;
  int spectral_window_id = 0;
  std::size_t first_row = 0;  // row index in the data set of row 0 of this chunk

  std::vector<double> frequencies_hz;  // per channel
  std::vector<double> uvw_m;           // 3 per row: u, v, w in metres
  std::vector<std::complex<float>> visibilities;
  std::vector<float> weights;  // per sample; 0 where flagged

  std::size_t num_rows() const { return uvw_m.size() / 3; }
  std::size_t num_channels() const { return frequencies_hz.size(); }
  std::size_t num_samples() const { return visibilities.size(); }
};

}  // namespace apertura
