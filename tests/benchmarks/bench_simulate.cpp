// Simulates and writes 1e7 visibilities (50 antennas, 1 channel, one spectral window, a point
// source and a Gaussian plus noise) and prints the wall time, the rate and the peak RSS.
// Usage: bench_simulate [OUTPUT_DIR] [VISIBILITIES] [ms|uvfits] [image:N[:PIXELS]]
//   uvfits: write a UVFITS file instead of a Measurement Set;
//   image:N: the sky is an N x N JY/PIXEL image with PIXELS (default 1000) non-zero pixels,
//            predicted through the gridding operator (the fast path for image sky models);
//   exact-image:N[:PIXELS]: the same image by the exact DFT (each pixel a point source).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "core/sim/image_predictor.h"
#include "core/sim/image_sky.h"
#include "core/sim/simulator.h"

using namespace apertura;
using namespace apertura::sim;

namespace {

std::uintmax_t bytesOf(const std::string& path) {
  if (std::filesystem::is_regular_file(path))
    return std::filesystem::file_size(path);
  std::uintmax_t bytes = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(path)) {
    if (e.is_regular_file())
      bytes += e.file_size();
  }
  return bytes;
}

// A random N x N image around the phase centre, 0.01 arcsec pixels.
FitsImage benchImage(int n, int pixels, double ra, double dec) {
  FitsImage img;
  img.nx = img.ny = n;
  img.pixels.assign(std::size_t(n) * n, 0.0);
  img.cell_x_rad = -0.01 / 206264.806;
  img.cell_y_rad = 0.01 / 206264.806;
  img.ref_pixel_x = img.ref_pixel_y = n / 2;
  img.ref_ra_rad = ra;
  img.ref_dec_rad = dec;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> p(0, n - 1);
  for (int k = 0; k < pixels; ++k)
    img.pixels[std::size_t(p(rng)) * n + std::size_t(p(rng))] += 1e-3;
  return img;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : std::filesystem::temp_directory_path().string();
  const double target = argc > 2 ? std::stod(argv[2]) : 1e7;
  const bool uvfits = argc > 3 && std::string(argv[3]) == "uvfits";
  const std::string image_arg = argc > 4 ? argv[4] : "";
  const std::string path = dir + (uvfits ? "/bench_simulate.uvfits" : "/bench_simulate.ms");

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
  std::string what = "a point source and a Gaussian";
  const bool exact_image = image_arg.rfind("exact-image:", 0) == 0;
  if (image_arg.rfind("image:", 0) == 0 || exact_image) {
    const std::string rest = image_arg.substr(image_arg.find(':') + 1);
    const auto colon = rest.find(':');
    const int n = std::stoi(rest.substr(0, colon));
    const int pixels = colon == std::string::npos ? 1000 : std::stoi(rest.substr(colon + 1));
    const FitsImage img = benchImage(n, pixels, spec.ra_rad, spec.dec_rad);
    if (exact_image) {
      sky.points = imageToPointSources(img, spec.ra_rad, spec.dec_rad);
      what = "a " + std::to_string(n) + "^2 image (" + std::to_string(sky.points.size()) +
             " pixels) by exact DFT";
    } else {
      sky.fast_image = std::make_shared<FastImageModel>(img, spec.ra_rad, spec.dec_rad);
      what = "a " + std::to_string(n) + "^2 image (" +
             std::to_string(sky.fast_image->nonZeroPixels()) + " pixels) by the gridding operator";
    }
  } else {
    sky.points.push_back({1.0, 1e-5, -2e-5, 0.0});
    sky.gaussians.push_back({0.5, -1e-5, 1e-5, 5e-6, 2e-6, 0.3, 0.0});
  }

  const auto t0 = std::chrono::steady_clock::now();
  const SimulationSummary s = simulateObservation(
      sky, layout, spec, path, uvfits ? OutputFormat::Uvfits : OutputFormat::MeasurementSet, true);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "bench_simulate (%s, %s): %llu rows, %llu visibilities (x2 correlations) in %.2f s = "
      "%.2f Mvis/s; peak RSS %.1f MiB; output size %.1f MiB\n",
      uvfits ? "UVFITS" : "MS", what.c_str(), static_cast<unsigned long long>(s.rows),
      static_cast<unsigned long long>(s.visibilities), seconds,
      static_cast<double>(s.visibilities) / seconds / 1e6, usage.ru_maxrss / 1024.0,
      static_cast<double>(bytesOf(path)) / (1024.0 * 1024.0));
  std::filesystem::remove_all(path);
  return 0;
}
