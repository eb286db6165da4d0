#pragma once

#include <string>

#include "core/data/dataset_summary.h"

namespace apertura {

// Summarises a UVFITS (random groups) file: one field (OBJECT at the RA/DEC axes' reference
// values), one spectral window per IF, the STOKES axis as the correlations, random parameters as
// columns. A sample is flagged when its weight is <= 0 or not finite. Throws InputError.
DatasetSummary summarizeUvfits(const std::string& path);

}  // namespace apertura
