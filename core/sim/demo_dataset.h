#pragma once

#include <string>

#include "core/sim/sky_model.h"

namespace apertura {

// The built-in demo: a small ALMA-like observation of an inclined protoplanetary disk with a gap
// plus three point sources (2 spectral windows x 4 channels, thermal noise, ~1.9e5 visibilities),
// made by the simulator with a fixed seed, so every run produces the same data.
struct DemoDatasetInfo {
  std::string directory;
  std::string ms_path;        // <dir>/demo.ms
  std::string true_sky_path;  // <dir>/demo_true_sky.fits (JY/PIXEL)
  bool created = false;       // false when a complete demo was already there
};

// $XDG_DATA_HOME/apertura/demo, or ~/.local/share/apertura/demo.
std::string defaultDemoDirectory();

// Creates the demo under `dir` unless a complete one is already there. It is built in a
// temporary sibling directory and renamed, so a half-written demo never looks complete.
DemoDatasetInfo ensureDemo(const std::string& dir);

// The demo's sky (232 GHz reference; the disk's spectral index 2.5, the points' -0.7 and 0), for
// scoring images of the demo against the truth at any geometry and frequency.
sim::SkyModel demoSkyModel();

// As ensureDemo; returns the Measurement Set path (what `apertura --demo` opens).
std::string ensureDemoDataset(const std::string& dir);

}  // namespace apertura
