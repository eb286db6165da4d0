#pragma once

#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace apertura::cli {

struct DirtyOptions {
  std::string data;  // Measurement Set or UVFITS
  int size = 1024;
  double cell_arcsec = 1.0;
  std::string weighting = "natural";
  std::optional<double> taper_arcsec;
  double super_uniform = 1.0;
  double epsilon = 1e-4;
  double oversampling = 2.0;
  bool w_stacking = false;
  int threads = 0;
  std::string output_prefix;
};

// Registers `dirty` on the app and returns it.
CLI::App* addDirtyCommand(CLI::App& app, DirtyOptions& options);

// Writes PREFIX-dirty.fits and PREFIX-psf.fits; returns the process exit code.
int runDirty(const DirtyOptions& options);

}  // namespace apertura::cli
