#pragma once

#include "core/sim/like_simulation.h"
#include "core/sim/simulation_request.h"

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace apertura::cli {

// A new observation (the request's array, times and channels), or with `like` the coverage of an
// existing one (sim/like_simulation.h).
// The shared options (--predict, --seed, -o, --overwrite) come from the base.
struct SimulateOptions : sim::SimulationRequest {
  sim::LikeSimulationRequest like;
  bool noise_from_weights = false;  // the default; named only to be explicit
  bool no_noise = false;            // like.noise = false
};

// Registers `simulate` on the app and returns it.
CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& options);

// Runs the simulation; returns the process exit code (errors go to stderr).
int runSimulate(const SimulateOptions& options);

}  // namespace apertura::cli
