#include "core/sim/demo_dataset.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/sim/image_sky.h"
#include "core/sim/simulator.h"
#include "core/util/input_error.h"
#include "core/util/temporary_names.h"

namespace apertura {
namespace {

namespace fs = std::filesystem;

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kDeg = M_PI / 180.0;
constexpr const char* kMarker = "COMPLETE";
// Bump when the demo's content changes so old copies are rebuilt.
constexpr const char* kDemoVersion = "apertura-demo 1";

sim::SkyModel demoSky() {
  sim::SkyModel sky;
  sky.reference_frequency_hz = 232e9;
  sim::RingDiskSource disk;
  disk.flux_jy = 0.5;
  disk.inner_radius = 0.1 * kArcsec;
  disk.gap_inner = 0.8 * kArcsec;
  disk.gap_outer = 1.1 * kArcsec;
  disk.outer_radius = 2.0 * kArcsec;
  disk.gap_depth = 0.05;
  disk.power_index = 0.8;
  disk.inclination = 40.0 * kDeg;
  disk.position_angle = 120.0 * kDeg;
  disk.spectral_index = 2.5;
  disk.annuli = 40;
  sky.disks.push_back(disk);
  // Background sources on pixel centres of the 0.05" true-sky grid.
  sky.points.push_back({0.020, 4.0 * kArcsec, 3.0 * kArcsec, -0.7});
  sky.points.push_back({0.010, -5.0 * kArcsec, -2.0 * kArcsec, -0.7});
  sky.points.push_back({0.015, -2.0 * kArcsec, 6.0 * kArcsec, 0.0});
  return sky;
}

sim::ObservationSpec demoObservation() {
  sim::ObservationSpec spec;
  spec.source_name = "DEMO_DISK";
  spec.ra_rad = (16.0 + 26.0 / 60.0 + 10.3 / 3600.0) * 15.0 * kDeg;
  spec.dec_rad = -(24.0 + 23.0 / 60.0 + 2.0 / 3600.0) * kDeg;
  spec.date_mjd = 60390.0;
  spec.start_hour_angle_h = -1.0;
  spec.duration_h = 2.0;
  spec.integration_s = 150.0;
  spec.spectral_windows = {{224.0e9, 250.0e6, 4}, {240.0e9, 250.0e6, 4}};
  spec.basis = CorrelationBasis::Linear;
  spec.sefd_jy = 6000.0;
  spec.seed = 20240321;
  spec.history = {"Apertura demo data set (" + std::string(kDemoVersion) +
                  "): inclined disk with a gap plus 3 point sources, ALMA-like compact array"};
  return spec;
}

bool isComplete(const std::string& dir) {
  std::ifstream in(dir + "/" + kMarker);
  std::string line;
  return in && std::getline(in, line) && line == kDemoVersion &&
         fs::exists(dir + "/demo.ms/table.dat") && fs::exists(dir + "/demo_true_sky.fits");
}

void build(const std::string& dir) {
  const sim::SkyModel sky = demoSky();
  const sim::ObservationSpec spec = demoObservation();
  sim::simulateMeasurementSet(sky, sim::almaCompactLayout(), spec, dir + "/demo.ms", false);
  FitsImage truth = sim::renderSkyImage(sky, 320, 0.05 * kArcsec, spec.ra_rad, spec.dec_rad,
                                        sky.reference_frequency_hz);
  truth.object = spec.source_name;
  truth.telescope = "ALMA";
  truth.history = {"Apertura demo true sky (model visibilities are exact; this image is the",
                   "model integrated over each pixel). " + std::string(kDemoVersion)};
  writeFitsImage(dir + "/demo_true_sky.fits", truth, FitsPixelType::Float64);
  std::ofstream(dir + "/" + kMarker) << kDemoVersion << "\n";
}

}  // namespace

sim::SkyModel demoSkyModel() {
  return demoSky();
}

std::string defaultDemoDirectory() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg && *xdg)
    return std::string(xdg) + "/apertura/demo";
  const char* home = std::getenv("HOME");
  if (!home || !*home)
    throw InputError("demo", "neither XDG_DATA_HOME nor HOME is set");
  return std::string(home) + "/.local/share/apertura/demo";
}

DemoDatasetInfo ensureDemo(const std::string& dir) {
  DemoDatasetInfo info;
  info.directory = dir;
  info.ms_path = dir + "/demo.ms";
  info.true_sky_path = dir + "/demo_true_sky.fits";
  if (isComplete(dir))
    return info;
  std::error_code ec;
  const bool existed = fs::exists(fs::symlink_status(dir, ec));
  if (existed) {
    // The folder may be the user's: only an empty one, or one holding an (outdated or partial)
    // demo of ours, receives the demo, and only the demo's own entries are replaced in it.
    if (!fs::is_directory(dir, ec))
      throw InputError(dir, "exists and is not a folder; give a folder for the demo");
    if (!fs::exists(dir + "/" + kMarker, ec) && !fs::is_empty(dir, ec)) {
      throw InputError(dir,
                       "is a folder with other files and no Apertura demo in it; refusing "
                       "to write the demo there (give an empty or a new folder)");
    }
  }
  const fs::path parent = fs::absolute(fs::path(dir)).parent_path();
  fs::create_directories(parent, ec);
  if (ec)
    throw InputError(parent.string(), "cannot create the directory: " + ec.message());
  removeStaleTemporariesBeside(dir);
  const std::string tmp = temporarySiblingPath(dir);
  try {
    fs::create_directory(tmp);
    build(tmp);
    if (!existed) {
      fs::rename(tmp, dir);
    } else {
      // The marker goes last: an interrupted update leaves no folder that claims to be complete.
      fs::remove(dir + "/" + kMarker);
      for (const char* entry : {"demo.ms", "demo_true_sky.fits", kMarker}) {
        fs::remove_all(dir + "/" + entry);
        fs::rename(tmp + "/" + entry, dir + "/" + entry);
      }
      fs::remove(tmp);
    }
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(tmp, ec);
    throw InputError(dir, std::string("cannot create the demo: ") + e.what());
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
  info.created = true;
  return info;
}

std::string ensureDemoDataset(const std::string& dir) {
  return ensureDemo(dir).ms_path;
}

}  // namespace apertura
