#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace apertura {

// One block of rows x channels of a single imaged product (e.g. Stokes I, or XX), as the readers
// hand it to weighting, gridding and the objective. All rows of a chunk share one spectral window
// (one set of channel frequencies) and one field. Flagged samples have weight 0, so operators need
// no separate flag test. Layout is row-major: sample (r, c) is at index r * num_channels() + c.
struct VisibilityChunk {
  int field_id = 0;
  int spectral_window_id = 0;
  // Index of row 0 of this chunk in the sequence of rows its source yields (autocorrelations and
  // deselected rows are not in that sequence). Resident and streaming reads give the same value;
  // a source limited to ReadOptions::row_range keeps the index of the whole sequence.
  std::size_t first_row = 0;

  std::vector<double> frequencies_hz;  // per channel
  // 3 per row: u, v, w in metres, in the imaging convention
  //   V(u, v, w) = sum I(l, m) exp(-2 pi i (u l + v m + w (n - 1))),  l east, m north,
  // which is the NEGATIVE of the UVW stored in Measurement Sets and UVFITS files: readers negate
  // it. Checked against WSClean on real data (a mirrored image otherwise); see tests/io.
  std::vector<double> uvw_m;
  std::vector<std::complex<float>> visibilities;
  std::vector<float> weights;  // per sample; 0 where flagged

  // Per row, for weighting by time/baseline and for diagnostics. Antennas are 0-based indices
  // (UVFITS antenna numbers minus one).
  std::vector<double> time_mjd_s;
  std::vector<int> antenna1;
  std::vector<int> antenna2;
  // Per row, where it came from in the file: the Measurement Set main-table row number, or the
  // UVFITS group index (0-based). Lets model visibilities be written back to the same rows.
  std::vector<std::uint64_t> source_rows;

  std::size_t num_rows() const { return uvw_m.size() / 3; }
  std::size_t num_channels() const { return frequencies_hz.size(); }
  std::size_t num_samples() const { return visibilities.size(); }
};

}  // namespace apertura
