#pragma once

#include <string>

#include "core/pipeline/imaging_products.h"
#include "core/project/project_settings.h"

// The observation the spectral-cube pipeline tests image: a 1 Jy (at 230 GHz) point source
// kEastCells east and kNorthCells north of the centre of a kSize x kSize image of kCellArcsec
// cells, observed by ALMA's compact layout in three channels kChannelHz apart from kRefHz.
namespace apertura::testing::cube_point {

constexpr double kCellArcsec = 0.15;
constexpr int kSize = 64;
constexpr int kEastCells = 6;
constexpr int kNorthCells = 4;
constexpr double kRefHz = 230e9;
constexpr double kChannelHz = 8e9;

// Simulates the observation, the source's flux following `spectral_index`, into a new MS at
// `path`; returns `path`.
std::string simulate(const std::string& path, double spectral_index);

// A cube run of `ms` at the geometry above with natural weighting; the regularizers, optimizer
// and outputs are the test's to choose.
project::ProjectSettings cubeSettings(const std::string& ms);

// Model flux within two pixels of the source, in plane k.
double planeFlux(const pipeline::ImagingProducts& p, int k);

}  // namespace apertura::testing::cube_point
