#pragma once

#include <string>

#include "core/data/dataset_summary.h"

namespace apertura {

// Summarises a Measurement Set or a UVFITS file, whichever `path` is (detectDatasetFormat).
// Throws InputError naming the file and the problem.
DatasetSummary summarizeDataset(const std::string& path);

}  // namespace apertura
