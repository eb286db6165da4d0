#pragma once

#include <string>

#include "core/data/dataset_summary.h"

namespace apertura {

// The human-readable summary shared by `apertura-cli info` and the GUI's data panel.
std::string formatSummaryText(const DatasetSummary& s);

}  // namespace apertura
