#include "app/cli/devices_command.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "core/imaging/gpu_devices.h"

namespace apertura::cli {

CLI::App* addDevicesCommand(CLI::App& app) {
  return app.add_subcommand("devices", "List the CUDA devices the imaging backend can use");
}

int runDevices() {
  const imaging::GpuInventory inventory = imaging::queryGpuDevices();
  std::cout << inventory.describe() << "\n";
  return 0;
}

}  // namespace apertura::cli
