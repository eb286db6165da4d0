#pragma once

#include <optional>
#include <string>

namespace apertura {

enum class DatasetFormat { kMeasurementSet, kUvfits };

// A directory with table.dat is a Measurement Set; a file starting with "SIMPLE  =" is UVFITS.
// Throws InputError for a missing path, a directory that is not a casacore table and a file of
// any other kind.
DatasetFormat detectDatasetFormat(const std::string& path);

// As detectDatasetFormat, but a regular file no built-in reader knows gives nullopt: plugin
// readers may know it (core/plugin). Other problems still throw.
std::optional<DatasetFormat> detectBuiltinFormat(const std::string& path);

}  // namespace apertura
