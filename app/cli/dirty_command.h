#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace apertura::cli {

struct DirtyOptions {
  std::string data;  // Measurement Set or UVFITS
  // Selection (see core/io/selection.h); field -1: the first field that has data.
  int field = -1;
  std::vector<int> spectral_windows;
  std::string channels;  // "START" or "START:END" (inclusive); empty: all
  std::string product = "I";
  std::string column = "auto";
  bool use_single_hand = false;
  bool per_spw = false;  // also one image pair per spectral window
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

// Writes PREFIX-dirty.fits and PREFIX-psf.fits (all selected windows: multi-frequency
// synthesis) and, with per_spw, PREFIX-spwN-dirty.fits / -psf.fits per spectral window N;
// returns the process exit code.
int runDirty(const DirtyOptions& options);

}  // namespace apertura::cli
