#include "tests/support/cube_point_source.h"

#include <cmath>

#include "tests/support/simulated_ms.h"

namespace apertura::testing::cube_point {

std::string simulate(const std::string& path, double spectral_index) {
  constexpr double kArcsec = M_PI / (180.0 * 3600.0);
  sim::SkyModel sky;
  sky.reference_frequency_hz = kRefHz;
  sky.points.push_back({1.0, kEastCells * kCellArcsec * kArcsec,
                        kNorthCells * kCellArcsec * kArcsec, spectral_index});
  sim::ObservationSpec spec = almaTestObservation();
  spec.spectral_windows = {sim::SpectralWindowSpec{kRefHz, kChannelHz, 3}};
  return simulateAlmaCompactMs(path, sky, spec);
}

project::ProjectSettings cubeSettings(const std::string& ms) {
  project::ProjectSettings s;
  s.data.path = ms;
  s.imaging.nx = s.imaging.ny = kSize;
  s.imaging.cell_arcsec = kCellArcsec;
  s.imaging.spectral_mode = apertura::project::SpectralMode::Cube;
  s.weighting.scheme = apertura::imaging::WeightingScheme::Natural;
  // The cube tests' lambdas are in the unscaled objective's units (schema 1).
  s.regularization.scaling = apertura::project::ObjectiveScaling::None;
  return s;
}

double planeFlux(const pipeline::ImagingProducts& p, int k) {
  const int ix = kSize / 2 - kEastCells, iy = kSize / 2 + kNorthCells;
  const std::size_t offset = std::size_t(k) * kSize * kSize;
  double flux = 0.0;
  for (int y = iy - 2; y <= iy + 2; ++y) {
    for (int x = ix - 2; x <= ix + 2; ++x)
      flux += p.model[offset + std::size_t(y) * kSize + std::size_t(x)];
  }
  return flux;
}

}  // namespace apertura::testing::cube_point
