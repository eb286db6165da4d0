#pragma once

#include "core/data/visibility_chunk.h"

namespace apertura {

// The longest projected baseline sqrt(u^2 + v^2) of a chunk's rows, metres (flagged rows
// included: an upper bound of what the grid must hold).
double longestBaselineMetres(const VisibilityChunk& chunk);

// The same in wavelengths at the chunk's highest channel frequency.
double longestBaselineWavelengths(const VisibilityChunk& chunk);

}  // namespace apertura
