#pragma once

#include "core/sim/simulation_request.h"

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace apertura::cli {

using SimulateOptions = sim::SimulationRequest;

// Registers `simulate` on the app and returns it.
CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& options);

// Runs the simulation; returns the process exit code (errors go to stderr).
int runSimulate(const SimulateOptions& options);

}  // namespace apertura::cli
