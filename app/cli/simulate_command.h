#pragma once

#include "core/sim/simulation_request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace apertura::cli {

// A new observation (the request's array, times and channels), or with `like` the coverage of an
// existing one (sim/like_simulation.h).
struct SimulateOptions : sim::SimulationRequest {
  std::string like;
  std::string image;
  std::optional<double> snr;
  bool noise_from_weights = false;
  bool no_noise = false;
  bool at_phase_centre = false;
};

// Registers `simulate` on the app and returns it.
CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& options);

// Runs the simulation; returns the process exit code (errors go to stderr).
int runSimulate(const SimulateOptions& options);

}  // namespace apertura::cli
