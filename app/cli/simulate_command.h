#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace apertura::cli {

struct SimulateOptions {
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

// Registers `simulate` on the app and returns it.
CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& options);

// Runs the simulation; returns the process exit code (errors go to stderr).
int runSimulate(const SimulateOptions& options);

}  // namespace apertura::cli
