#include "core/io/dataset_format.h"

#include <filesystem>

#include "core/io/replaceable_output.h"
#include "core/util/input_error.h"

namespace apertura {

DatasetFormat detectDatasetFormat(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw InputError(path, "no such file or directory");
  if (fs::is_directory(path, ec)) {
    if (!fs::exists(fs::path(path) / "table.dat", ec)) {
      throw InputError(path,
                       "not a casacore table (a Measurement Set is a directory with table.dat)");
    }
    return DatasetFormat::kMeasurementSet;
  }
  if (!fs::is_regular_file(path, ec)) {  // reading a FIFO or a device would block or never end
    throw InputError(path,
                     "is not a regular file (a FIFO, device or socket); expected a "
                     "Measurement Set directory or a UVFITS file");
  }
  if (isFitsFile(path))
    return DatasetFormat::kUvfits;
  throw InputError(path,
                   "unrecognised format: neither a Measurement Set (a directory with table.dat) "
                   "nor UVFITS (a file starting with \"SIMPLE  =\")");
}

std::optional<DatasetFormat> detectBuiltinFormat(const std::string& path) {
  try {
    return detectDatasetFormat(path);
  } catch (const InputError&) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      throw;
    return std::nullopt;
  }
}

}  // namespace apertura
