#pragma once

#include <string>

#include "core/data/dataset_summary.h"

namespace apertura {

// Reads a Measurement Set (v2) and summarises it. Throws InputError naming the path and the
// table/column at fault. Opens the tables read-only; the caller must not use casacore on other
// threads at the same time (casacore is not thread-safe).
DatasetSummary summarizeMeasurementSet(const std::string& path);

}  // namespace apertura
