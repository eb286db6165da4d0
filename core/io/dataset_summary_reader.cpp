#include "core/io/dataset_summary_reader.h"

#include <filesystem>

#include "core/io/dataset_format.h"
#include "core/io/ms_summary.h"
#include "core/io/uvfits_summary.h"
#include "core/plugin/plugin_dataset_summary.h"
#include "core/util/input_error.h"

namespace apertura {

DatasetSummary summarizeDataset(const std::string& path) {
  DatasetFormat format = DatasetFormat::kUvfits;
  try {
    format = detectDatasetFormat(path);
  } catch (const InputError&) {
    // Not a built-in format: a plugin reader may know it (plugin_api.h).
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      throw;
    const auto& registry = plugin::PluginRegistry::global();
    if (auto summary = plugin::summarizeWithPluginReader(registry, path))
      return *summary;
    throw InputError(path, plugin::unknownFormatProblem(registry));
  }
  return format == DatasetFormat::kMeasurementSet ? summarizeMeasurementSet(path)
                                                  : summarizeUvfits(path);
}

}  // namespace apertura
