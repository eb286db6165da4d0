// Simulates and writes 1e7 visibilities (50 antennas, 1 channel, one spectral window, a point
// source and a Gaussian plus noise) and prints the wall time, the rate and the peak RSS.
// Usage: bench_simulate [OUTPUT_DIR] [VISIBILITIES]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "core/sim/simulator.h"

using namespace apertura::sim;

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : std::filesystem::temp_directory_path().string();
  const double target = argc > 2 ? std::stod(argv[2]) : 1e7;
  const std::string path = dir + "/bench_simulate.ms";

  const ArrayLayout layout = randomCompactLayout(3000.0, 50, 12.0, 1);
  const double baselines = 50.0 * 49.0 / 2.0;
  ObservationSpec spec;
  spec.ra_rad = 1.0;
  spec.dec_rad = -0.5;
  spec.integration_s = 2.0;
  spec.duration_h = target / baselines * spec.integration_s / 3600.0;
  spec.spectral_windows = {{230e9, 100e6, 1}};
  spec.sigma_jy = 0.1;
  SkyModel sky;
  sky.reference_frequency_hz = 230e9;
  sky.points.push_back({1.0, 1e-5, -2e-5, 0.0});
  sky.gaussians.push_back({0.5, -1e-5, 1e-5, 5e-6, 2e-6, 0.3, 0.0});

  const auto t0 = std::chrono::steady_clock::now();
  const SimulationSummary s = simulateMeasurementSet(sky, layout, spec, path, true);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "bench_simulate: %llu rows, %llu visibilities (x2 correlations) in %.2f s = %.2f "
      "Mvis/s; peak RSS %.1f MiB; MS size %.1f MiB\n",
      static_cast<unsigned long long>(s.rows), static_cast<unsigned long long>(s.visibilities),
      seconds, static_cast<double>(s.visibilities) / seconds / 1e6, usage.ru_maxrss / 1024.0, [&] {
        std::uintmax_t bytes = 0;
        for (const auto& e : std::filesystem::recursive_directory_iterator(path)) {
          if (e.is_regular_file())
            bytes += e.file_size();
        }
        return static_cast<double>(bytes) / (1024.0 * 1024.0);
      }());
  std::filesystem::remove_all(path);
  return 0;
}
