#pragma once

// Random visibility chunks, and a chunk sequence that behaves like a stream from disk (each chunk
// copied into one reused buffer, valid only during its visit), for testing held against streamed
// code paths without files.
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "core/data/chunk_sequence.h"
#include "core/imaging/image_geometry.h"
#include "core/imaging/uv_samples.h"

namespace apertura::test {

// `rows` rows of random uvw filling the uv plane the image can represent, random visibilities and
// weights in [0.5, 2.5), about 5% flagged (weight 0).
inline VisibilityChunk randomChunk(std::mt19937& rng, const imaging::ImageGeometry& g,
                                   std::size_t rows, std::vector<double> freq) {
  VisibilityChunk c;
  c.frequencies_hz = std::move(freq);
  double fmax = 0.0;
  for (double f : c.frequencies_hz)
    fmax = std::max(fmax, f);
  const double umax = 0.95 / (2.0 * std::abs(g.cell_l)) * imaging::kSpeedOfLight / fmax;
  const double vmax = 0.95 / (2.0 * std::abs(g.cell_m)) * imaging::kSpeedOfLight / fmax;
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  for (std::size_t r = 0; r < rows; ++r) {
    c.uvw_m.push_back(d(rng) * umax);
    c.uvw_m.push_back(d(rng) * vmax);
    c.uvw_m.push_back(0.0);
    c.source_rows.push_back(r);
    c.time_mjd_s.push_back(0.0);
    c.antenna1.push_back(0);
    c.antenna2.push_back(1);
  }
  for (std::size_t k = 0; k < rows * c.frequencies_hz.size(); ++k) {
    c.visibilities.emplace_back(float(d(rng)), float(d(rng)));
    c.weights.push_back(d(rng) > 0.9 ? 0.0f : float(1.5 + d(rng)));
  }
  return c;
}

class OnePassChunks final : public ChunkSequence {
 public:
  explicit OnePassChunks(const std::vector<VisibilityChunk>& chunks) : chunks_(chunks) {}
  void forEach(const Visitor& visit) override {
    ++passes;
    for (std::size_t i = 0; i < chunks_.size(); ++i) {
      buffer_ = chunks_[i];
      visit(buffer_, i);
      std::fill(buffer_.visibilities.begin(), buffer_.visibilities.end(),
                std::complex<float>(NAN, NAN));  // a stale chunk must not be read later
    }
  }
  bool held() const override { return false; }
  int passes = 0;

 private:
  const std::vector<VisibilityChunk>& chunks_;
  VisibilityChunk buffer_;
};

}  // namespace apertura::test
