#pragma once

#include "core/data/visibility_chunk.h"

namespace apertura {

// The longest projected baseline sqrt(u^2 + v^2) of a chunk's rows, metres (flagged rows
// included: an upper bound of what the grid must hold).
double longestBaselineMetres(const VisibilityChunk& chunk);

// The same in wavelengths at the chunk's highest channel frequency.
double longestBaselineWavelengths(const VisibilityChunk& chunk);

// The pixel size (radians) for data whose longest baseline is this many wavelengths: five pixels
// across the finest fringe, so an RML model can resolve structure below the synthesized beam.
// The data set summary suggests it and imaging.cell_arcsec "auto" uses it (docs/fidelity.md was
// measured at it).
inline double suggestedCellRad(double longest_baseline_wavelengths) {
  return 1.0 / (5.0 * longest_baseline_wavelengths);
}

}  // namespace apertura
