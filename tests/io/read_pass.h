#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/data/visibility_chunk.h"
#include "core/io/visibility_source.h"

namespace apertura::testing {

// Totals of one full pass over a source, summed in double in chunk order.
struct PassSums {
  std::uint64_t chunks = 0, rows = 0, samples = 0, unflagged = 0;
  double sum_w = 0, sum_wre = 0, sum_wim = 0;  // sum w, sum w Re(V), sum w Im(V)
  double sum_uvw = 0, sum_freq = 0, sum_time = 0;
  std::vector<VisibilityChunk> kept;  // every chunk, when asked for
};

inline PassSums readPass(VisibilitySource& source, bool keep = false) {
  PassSums s;
  VisibilityChunk chunk;
  source.rewind();
  while (source.next(chunk)) {
    ++s.chunks;
    s.rows += chunk.num_rows();
    s.samples += chunk.num_samples();
    for (std::size_t i = 0; i < chunk.num_samples(); ++i) {
      const double w = chunk.weights[i];
      if (w > 0)
        ++s.unflagged;
      s.sum_w += w;
      s.sum_wre += w * chunk.visibilities[i].real();
      s.sum_wim += w * chunk.visibilities[i].imag();
    }
    for (double x : chunk.uvw_m)
      s.sum_uvw += x;
    for (double f : chunk.frequencies_hz)
      s.sum_freq += f * static_cast<double>(chunk.num_rows());
    for (double t : chunk.time_mjd_s)
      s.sum_time += t;
    if (keep)
      s.kept.push_back(chunk);
  }
  return s;
}

// Bitwise equality of two chunks (values, weights, uvw, frequencies, per-row metadata).
inline bool sameChunk(const VisibilityChunk& a, const VisibilityChunk& b) {
  return a.field_id == b.field_id && a.spectral_window_id == b.spectral_window_id &&
         a.first_row == b.first_row && a.frequencies_hz == b.frequencies_hz && a.uvw_m == b.uvw_m &&
         a.time_mjd_s == b.time_mjd_s && a.antenna1 == b.antenna1 && a.antenna2 == b.antenna2 &&
         a.source_rows == b.source_rows && a.weights == b.weights &&
         a.visibilities.size() == b.visibilities.size() &&
         std::equal(a.visibilities.begin(), a.visibilities.end(), b.visibilities.begin(),
                    [](auto x, auto y) { return x.real() == y.real() && x.imag() == y.imag(); });
}

}  // namespace apertura::testing
