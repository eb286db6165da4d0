#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/sim/simulator.h"

namespace apertura::sim {

// A simulation as a user describes it (the `apertura-cli simulate` options and the GUI's
// "New simulated data set" dialog): text specs for the sky and the array, numbers for the rest.
struct SimulationRequest {
  std::vector<std::string> points, gaussians, disks;
  std::string sky_fits;
  double ref_freq_hz = 0.0;  // 0: the first channel of the first spectral window
  std::string array = "alma-compact";
  std::string ra = "0";
  std::string dec = "-30";
  double date_mjd = 60390.0;
  double hours = 2.0;
  double start_ha_h = -1.0;
  double integration_s = 60.0;
  double freq_hz = 230e9;
  int nchan = 1;
  double chan_width_hz = 100e6;
  std::vector<std::string> spws;
  double sigma_jy = 0.0;
  double sefd_jy = 0.0;
  std::string feeds = "linear";
  std::uint64_t seed = 1;
  // How a --sky-fits image is predicted: "exact" (direct DFT, every pixel a point source),
  // "fast" (the gridding operator; InputError when the image's grid does not allow it, see
  // image_predictor.h) or "auto" (fast when pixels x visibilities exceed kExactPredictLimit and
  // the image allows it, else exact).
  std::string predict = "auto";
  std::string output;  // .uvfits/.uvf/.fits/.fit: UVFITS; anything else: a Measurement Set
  bool overwrite = false;
};

// "auto" predicts an image through the gridding operator when it has at least kFastMinPixels
// non-zero pixels and there are more than kExactPredictLimit (pixel, visibility) pairs. Measured
// on 2 cores: the direct DFT costs ~30-70 ns per pair, the operator (epsilon 1e-7, with
// w-stacking) ~10 us per visibility whatever the pixel count, so it wins above ~200 pixels.
constexpr double kExactPredictLimit = 1e8;
constexpr std::size_t kFastMinPixels = 256;

struct SimulationOutcome {
  SimulationSummary summary;
  std::size_t antennas = 0;
  std::string telescope;
  OutputFormat format = OutputFormat::MeasurementSet;
  std::string image_prediction;  // how the sky image was predicted (empty without one)
};

// Parses the request (InputError names the option at fault), simulates and writes the MS or the
// UVFITS file (chosen by the output's extension, see visibility_sink.h).
SimulationOutcome runSimulation(const SimulationRequest& request,
                                const std::function<void(double)>& progress = {});

// The equivalent command line, recorded in the MS HISTORY.
std::string simulationCommandLine(const SimulationRequest& request);

}  // namespace apertura::sim
