#pragma once

#include <string>

namespace apertura::testing {

// A tiny, fully known Measurement Set for tests that must not depend on ../shared/data:
// 4 antennas (one unused), 2 fields, 2 spectral windows (8 and 4 channels), XX YY correlations,
// 12 rows including 2 autocorrelations, a known number of flagged cells (see constants below).
struct TestMsFacts {
  static constexpr int kRows = 12;
  static constexpr int kAutocorrelations = 2;
  static constexpr int kAntennasListed = 4;
  static constexpr int kAntennasUsed = 3;
  static constexpr int kCells = 6 * 8 * 2 + 6 * 4 * 2;  // rows on spw 0 and spw 1
  static constexpr int kFlaggedCells = 8 * 2 + 3;       // one FLAG_ROW row on spw 0 + 3 cells
  static constexpr double kMaxBaselineM = 500.0;        // |uvw| of the longest baseline
  static constexpr double kMinBaselineM = 30.0;
};

// Writes the MS at `path` (which must not exist) and returns path.
std::string writeTestMs(const std::string& path);

}  // namespace apertura::testing
