#include "tests/support/simulated_ms.h"

#include <cmath>

#include "core/sim/array_layout.h"

namespace apertura::testing {

namespace {
constexpr double kArcsec = M_PI / (180.0 * 3600.0);
}  // namespace

sim::ObservationSpec almaTestObservation() {
  sim::ObservationSpec spec;
  spec.dec_rad = -0.5;
  spec.duration_h = 1.0;
  spec.integration_s = 120.0;
  spec.spectral_windows = {sim::SpectralWindowSpec{230e9, 100e6, 1}};
  spec.sigma_jy = 0.05;
  return spec;
}

sim::SkyModel pointAndGaussianSky() {
  sim::SkyModel sky;
  sky.reference_frequency_hz = 230e9;
  sky.points.push_back({1.0, 0.6 * kArcsec, 0.3 * kArcsec, 0.0});
  sky.gaussians.push_back(
      {0.5, -0.4 * kArcsec, 0.2 * kArcsec, 0.5 * kArcsec, 0.3 * kArcsec, 0.5, 0.0});
  return sky;
}

std::string simulateAlmaCompactMs(const std::string& path, const sim::SkyModel& sky,
                                  const sim::ObservationSpec& spec) {
  sim::simulateMeasurementSet(sky, sim::almaCompactLayout(), spec, path, false);
  return path;
}

}  // namespace apertura::testing
