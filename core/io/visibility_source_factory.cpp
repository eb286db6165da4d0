#include "core/io/visibility_source_factory.h"

#include "core/io/dataset_format.h"
#include "core/io/ms_reader.h"
#include "core/io/prefetch_source.h"
#include "core/io/resident_source.h"
#include "core/io/uvfits_reader.h"
#include "core/plugin/plugin_dataset_summary.h"
#include "core/plugin/plugin_visibility_source.h"
#include "core/util/input_error.h"

namespace apertura {

std::size_t residentBytes(const SourceInfo& info) {
  return static_cast<std::size_t>(info.samples) * 12 + static_cast<std::size_t>(info.rows) * 48;
}

std::unique_ptr<VisibilitySource> openVisibilitySource(const std::string& path,
                                                       const ReadOptions& options) {
  const auto detected = detectBuiltinFormat(path);
  if (!detected) {
    const auto& registry = plugin::PluginRegistry::global();
    if (auto source = plugin::openWithPluginReader(registry, path, options))
      return source;
    throw InputError(path, plugin::unknownFormatProblem(registry));
  }
  const DatasetFormat format = *detected;
  PrefetchSource::Opener opener = [path, options, format]() {
    return format == DatasetFormat::kMeasurementSet ? openMeasurementSetReader(path, options)
                                                    : openUvfitsReader(path, options);
  };
  auto streaming =
      std::make_unique<PrefetchSource>(std::move(opener), options.prefetch_depth, options.cancel);
  const bool resident = options.mode == ReadMode::kResident ||
                        (options.mode == ReadMode::kAuto &&
                         residentBytes(streaming->info()) <= options.memory_budget_bytes);
  if (!resident)
    return streaming;
  return std::make_unique<ResidentSource>(std::move(streaming));
}

}  // namespace apertura
