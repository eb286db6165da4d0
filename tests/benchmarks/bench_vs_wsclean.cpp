// Dirty imaging wall time against WSClean on the same simulated Measurement Set, and the
// difference of the two dirty images. Not a test: prints figures.
// Usage: bench_vs_wsclean [VISIBILITIES=1e7] [SIZE=2048] [CELL_ARCSEC=0.02] [REPS=3] [WORKDIR]
//                         [THREADS=0 (all)] [EXTRA_WSCLEAN_OPTIONS, e.g. "-use-wgridder"]
// The Measurement Set (50 antennas within 3 km at 230 GHz, 1 channel, sources within 2 arcsec of
// the phase centre, where the w-term is negligible) is simulated by Apertura's simulator once per
// visibility count and kept in WORKDIR for later runs. Settings that match (see
// tests/imaging/test_wsclean_agreement.cpp): `wsclean -niter 0 -padding 2 -weight natural
// -make-psf` against `apertura-cli dirty --oversampling 2 --super-uniform 0.5 --weight natural`
// (both write a dirty image and a PSF). Each program runs REPS times; medians are printed.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/io/fits_image_io.h"
#include "core/sim/array_layout.h"
#include "core/sim/simulator.h"

using namespace apertura;
namespace fs = std::filesystem;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs a shell command (output into `log`), returns its wall time; exits with the command and the
// log's location when it fails.
double timed(const std::string& command, const std::string& log) {
  const auto t0 = std::chrono::steady_clock::now();
  const int status = std::system((command + " > '" + log + "' 2>&1").c_str());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (status != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_vs_wsclean: command failed (status %d): %s\n  see %s\n", status,
                 command.c_str(), log.c_str());
    std::exit(1);
  }
  return s;
}

std::string simulate(const fs::path& dir, double visibilities) {
  char name[64];
  std::snprintf(name, sizeof name, "bench_vs_wsclean_%.3g.ms", visibilities);
  const fs::path ms = dir / name;
  if (fs::exists(ms / "table.dat")) {
    std::printf("reusing %s\n", ms.c_str());
    return ms.string();
  }
  const int antennas = 50;
  const sim::ArrayLayout layout = sim::randomCompactLayout(3000.0, antennas, 12.0, 1);
  sim::ObservationSpec spec;
  spec.ra_rad = 1.0;
  spec.dec_rad = -0.5;
  spec.integration_s = 2.0;
  spec.duration_h = visibilities / (antennas * (antennas - 1) / 2.0) * spec.integration_s / 3600.0;
  spec.spectral_windows = {{230e9, 100e6, 1}};
  spec.sigma_jy = 0.1;
  sim::SkyModel sky;
  sky.reference_frequency_hz = 230e9;
  sky.points.push_back({1.0, 1e-5, -2e-5, 0.0});
  sky.points.push_back({0.3, -4e-6, 3e-6, 0.0});
  sky.gaussians.push_back({0.5, -1e-5, 1e-5, 5e-6, 2e-6, 0.3, 0.0});
  const auto t0 = std::chrono::steady_clock::now();
  const sim::SimulationSummary s =
      sim::simulateMeasurementSet(sky, layout, spec, ms.string(), true);
  std::printf("simulated %s: %llu rows, %llu visibilities in %.1f s\n", ms.c_str(),
              static_cast<unsigned long long>(s.rows),
              static_cast<unsigned long long>(s.visibilities),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return ms.string();
}

}  // namespace

int main(int argc, char** argv) {
  const double visibilities = argc > 1 ? std::atof(argv[1]) : 1e7;
  const int size = argc > 2 ? std::atoi(argv[2]) : 2048;
  const double cell = argc > 3 ? std::atof(argv[3]) : 0.02;
  const int reps = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
  const fs::path dir =
      argc > 5 ? fs::path(argv[5]) : fs::temp_directory_path() / "bench_vs_wsclean";
  int threads = argc > 6 ? std::atoi(argv[6]) : 0;
  const std::string extra = argc > 7 ? std::string(argv[7]) + " " : std::string();
  if (threads <= 0)
    threads = int(std::max(1u, std::thread::hardware_concurrency()));
  if (visibilities < 1e3 || size < 16 || size % 2 || !(cell > 0)) {
    std::fprintf(stderr,
                 "usage: bench_vs_wsclean [VISIBILITIES>=1e3] [SIZE even>=16] [CELL_ARCSEC>0] "
                 "[REPS] [WORKDIR] [THREADS] [EXTRA_WSCLEAN_OPTIONS]\n");
    return 2;
  }
  if (std::system("wsclean -version > /dev/null 2>&1") != 0) {
    std::fprintf(stderr, "bench_vs_wsclean: wsclean is not installed (or not on PATH)\n");
    return 1;
  }
  fs::create_directories(dir);
  const std::string ms = simulate(dir, visibilities);
  const std::string n = std::to_string(size);
  char cell_text[32];
  std::snprintf(cell_text, sizeof cell_text, "%g", cell);
  const std::string t = std::to_string(threads);
  const std::string ours = std::string(APERTURA_CLI) + " dirty '" + ms + "' --size " + n +
                           " --cell " + cell_text +
                           " --weight natural --oversampling 2 --super-uniform 0.5 --threads " + t +
                           " -o '" + (dir / "ap").string() + "'";
  const std::string theirs = "wsclean -size " + n + " " + n + " -scale " + cell_text +
                             "asec -weight natural -padding 2 -niter 0 -make-psf -j " + t + " " +
                             extra + " -name '" + (dir / "ws").string() + "' '" + ms + "'";
  std::printf("image %dx%d, cell %s arcsec, natural weighting, %d threads, %d runs each\n", size,
              size, cell_text, threads, reps);
  std::printf("  ours:   %s\n  theirs: %s\n", ours.c_str(), theirs.c_str());
  std::vector<double> ta, tw;
  for (int r = 0; r < reps; ++r) {
    ta.push_back(timed(ours, (dir / "ap.log").string()));
    tw.push_back(timed(theirs, (dir / "ws.log").string()));
    std::printf("  run %d: apertura %.2f s, wsclean %.2f s\n", r + 1, ta.back(), tw.back());
    std::fflush(stdout);
  }

  const FitsImage a = readFitsImage((dir / "ap-dirty.fits").string());
  const FitsImage b = readFitsImage((dir / "ws-dirty.fits").string());
  if (a.nx != b.nx || a.ny != b.ny) {
    std::fprintf(stderr, "bench_vs_wsclean: image sizes differ (%dx%d vs %dx%d)\n", a.nx, a.ny,
                 b.nx, b.ny);
    return 1;
  }
  double peak = 0.0, all = 0.0, inner = 0.0;
  for (double v : b.pixels)
    peak = std::max(peak, std::fabs(v));
  const int border = size / 8;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const std::size_t p = std::size_t(y) * size + x;
      const double d = std::fabs(a.pixels[p] - b.pixels[p]) / peak;
      all = std::max(all, d);
      if (x >= border && x < size - border && y >= border && y < size - border)
        inner = std::max(inner, d);
    }
  }
  const double ma = median(ta), mw = median(tw);
  std::printf(
      "median wall time: apertura-cli dirty %.2f s, wsclean %.2f s; ratio %.2f "
      "(apertura / wsclean)\n",
      ma, mw, ma / mw);
  std::printf(
      "max |apertura - wsclean| / peak: %.2e (inner 3/4), %.2e (whole image); peak %.4g "
      "Jy/beam\n",
      inner, all, peak);
  return 0;
}
