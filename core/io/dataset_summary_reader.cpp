#include "core/io/dataset_summary_reader.h"

#include "core/io/dataset_format.h"
#include "core/io/ms_summary.h"
#include "core/io/uvfits_summary.h"
#include "core/plugin/plugin_dataset_summary.h"
#include "core/util/input_error.h"

namespace apertura {

DatasetSummary summarizeDataset(const std::string& path) {
  const auto format = detectBuiltinFormat(path);
  if (!format) {
    const auto& registry = plugin::PluginRegistry::global();
    if (auto summary = plugin::summarizeWithPluginReader(registry, path))
      return *summary;
    throw InputError(path, plugin::unknownFormatProblem(registry));
  }
  return *format == DatasetFormat::kMeasurementSet ? summarizeMeasurementSet(path)
                                                   : summarizeUvfits(path);
}

}  // namespace apertura
