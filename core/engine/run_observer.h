#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace apertura::engine {

struct IterationMetrics {
  int iteration = 0;
  double objective = 0.0;
  std::vector<std::pair<std::string, double>> terms;  // name, lambda-weighted value
  double gradient_norm = 0.0;
  double step = 0.0;
  double chi2_per_dof = 0.0;
  double seconds = 0.0;  // wall time of this iteration
};

// Images handed to observers. Shared and immutable: an observer may keep one as long as it likes.
struct ImageSnapshot {
  std::string name;  // "dirty", "psf", "model", "residual", "restored"
  int iteration = -1;
  int nx = 0;
  int ny = 0;
  // nx * ny * planes: plane k at [k * nx * ny, (k + 1) * nx * ny), x fastest, row 0 at the
  // bottom (south).
  std::vector<float> pixels;
  std::string unit;  // "Jy/beam", "Jy/pixel"
  // A cube (imaging.spectral_mode cube) comes as one snapshot holding every plane, so the
  // latest-wins queues of the front ends can never drop or mix planes; an MFS image has 1 plane.
  // Per plane of a cube: its mean frequency and (dirty, PSF, residual, restored) its clean beam;
  // both empty for an MFS image. beam_* below is plane 0's.
  struct PlaneBeam {
    double major_rad = 0.0;
    double minor_rad = 0.0;
    double pa_rad = 0.0;
  };
  int planes = 1;
  std::vector<double> plane_frequencies_hz;
  std::vector<PlaneBeam> plane_beams;
  // Sky coordinates (SIN projection about the phase centre at pixel (nx/2, ny/2)); cells 0 when
  // unknown. The clean beam (FWHM, rad; position angle east of north, rad) when fitted.
  double ref_ra_rad = 0.0;
  double ref_dec_rad = 0.0;
  double cell_x_rad = 0.0;  // negative: RA increases to the left
  double cell_y_rad = 0.0;
  double beam_major_rad = 0.0;
  double beam_minor_rad = 0.0;
  double beam_pa_rad = 0.0;
};

struct ResourceSample {
  double wall_s = 0.0;  // since the run started
  double cpu_s = 0.0;
  std::uint64_t rss_bytes = 0;
  std::uint64_t peak_rss_bytes = 0;
  std::uint64_t tracked_bytes = 0;  // grids, visibility buffers, images held by the engine
  std::uint64_t gpu_bytes = 0;  // device memory of the backend (DeviceMemoryGauge); 0 on the CPU
};

// How a run reports to its front end. Called from worker threads: implementations must be
// thread-safe and quick (queue the data and return). Defaults ignore everything.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void stageStarted(const std::string& /*stage*/) {}
  virtual void stageFinished(const std::string& /*stage*/, double /*seconds*/) {}
  virtual void progress(double /*fraction*/, const std::string& /*message*/) {}
  virtual void iteration(const IterationMetrics& /*metrics*/) {}
  virtual void snapshot(const std::shared_ptr<const ImageSnapshot>& /*image*/) {}
  virtual void resources(const ResourceSample& /*sample*/) {}
  virtual void warning(const std::string& /*message*/) {}
};

}  // namespace apertura::engine
