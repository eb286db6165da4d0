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
  std::string output;
  bool overwrite = false;
};

struct SimulationOutcome {
  SimulationSummary summary;
  std::size_t antennas = 0;
  std::string telescope;
};

// Parses the request (InputError names the option at fault), simulates and writes the MS.
SimulationOutcome runSimulation(const SimulationRequest& request,
                                const std::function<void(double)>& progress = {});

// The equivalent command line, recorded in the MS HISTORY.
std::string simulationCommandLine(const SimulationRequest& request);

}  // namespace apertura::sim
