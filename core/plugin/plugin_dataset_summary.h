#pragma once

#include <optional>
#include <string>

#include "core/data/dataset_summary.h"
#include "core/plugin/plugin_registry.h"

namespace apertura::plugin {

// The summary of a file a loaded plugin reader accepts (nullopt when none does): rows, the phase
// centre, frequencies, baselines, a uv sample and the imaging suggestions, from one full read.
// Throws InputError for a file the reader accepts but cannot read.
std::optional<DatasetSummary> summarizeWithPluginReader(const PluginRegistry& registry,
                                                        const std::string& path);

// The error for a regular file that is neither a built-in format nor one of a loaded plugin.
std::string unknownFormatProblem(const PluginRegistry& registry);

}  // namespace apertura::plugin
