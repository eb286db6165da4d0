#pragma once

#include <string>

namespace apertura {

enum class DatasetFormat { kMeasurementSet, kUvfits };

// A directory with table.dat is a Measurement Set; a file starting with "SIMPLE  =" is UVFITS.
// Throws InputError for a missing path, a directory that is not a casacore table and a file of
// any other kind.
DatasetFormat detectDatasetFormat(const std::string& path);

}  // namespace apertura
