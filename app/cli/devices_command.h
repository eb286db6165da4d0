#pragma once

namespace CLI {
class App;
}

namespace apertura::cli {

// `apertura-cli devices`: the CUDA devices the imaging backend can use (imaging.backend cuda,
// imaging.gpu_device), or why there are none ("built without CUDA", "no CUDA device").
CLI::App* addDevicesCommand(CLI::App& app);
int runDevices();

}  // namespace apertura::cli
