#pragma once

#include <string>

#include "core/plugin/plugin_api.h"

namespace apertura::plugin {

// A plugin library that passed every check. The library stays loaded for the life of the process:
// regularizer instances and readers may outlive any registry that listed them.
struct LoadedPlugin {
  std::string path;
  const AperturaPluginV2* api = nullptr;
};

// Either a loaded plugin or why it was refused.
struct PluginLoadResult {
  LoadedPlugin plugin;
  std::string error;  // empty on success; otherwise "<path>: <reason>"
  bool ok() const { return error.empty(); }
};

// dlopen()s `path` (RTLD_NOW | RTLD_LOCAL), finds apertura_plugin_entry, checks the interface
// version first and then the description (names, functions, parameter ranges). Never throws: a
// library that fails to load, is not a plugin, has another interface version or an incomplete
// description is unloaded again and refused with a message naming the file and the reason.
PluginLoadResult loadPlugin(const std::string& path);

// The checks on a description alone (also used for plugins linked into tests); "" when valid.
std::string validatePluginDescription(const AperturaPluginV2& api);

// How regularizer `index` of a valid description is normalised: its regularizer_scales entry, or
// flux_power 1 and beam_power 0 when the description has none (NULL, or a description of the
// earlier size without the member).
AperturaTermScaleV1 regularizerScale(const AperturaPluginV2& api, std::size_t index);

}  // namespace apertura::plugin
