#pragma once

#include <string>
#include <vector>

#include "core/plugin/plugin_loader.h"

namespace apertura::plugin {

// A library found in a plugin directory that was not loaded, and why.
struct RefusedPlugin {
  std::string path;
  std::string reason;  // "<path>: <reason>", ready to show
};

// A regularizer or reader together with the plugin that provides it.
struct RegularizerEntry {
  const LoadedPlugin* plugin = nullptr;
  const AperturaRegularizerV1* api = nullptr;
};
struct OptimizerEntry {
  const LoadedPlugin* plugin = nullptr;
  const AperturaOptimizerV1* api = nullptr;
};
struct ReaderEntry {
  const LoadedPlugin* plugin = nullptr;
  const AperturaReaderV1* api = nullptr;
};

// The plugins of one search path. Every shared library (*.so) directly inside each directory is
// tried in directory order and then by file name; entries of the path may also name a library
// file. A plugin whose name, regularizer name or reader name is already taken (by a built-in term
// or an earlier plugin) is refused, so the first directory of the path wins.
class PluginRegistry {
 public:
  explicit PluginRegistry(std::vector<std::string> search_path);

  // The registry of defaultSearchPath(), discovered once, on first use (thread-safe).
  static const PluginRegistry& global();

  // In order: $APERTURA_PLUGIN_PATH (colon-separated), the user directory
  // ($XDG_DATA_HOME or ~/.local/share, then apertura/plugins) and the installed directory
  // <prefix>/lib/apertura/plugins, with <prefix> the parent of the executable's directory, and
  // last <prefix>/plugins (where a build tree puts the plugins it builds).
  static std::vector<std::string> defaultSearchPath();

  const std::vector<LoadedPlugin>& plugins() const { return plugins_; }
  const std::vector<RefusedPlugin>& refused() const { return refused_; }
  const std::vector<std::string>& searchPath() const { return search_path_; }
  // The search path as one line ("a:b:c"), for messages.
  std::string searchPathText() const;

  // nullptr entries when no loaded plugin provides it.
  RegularizerEntry findRegularizer(const std::string& name) const;
  OptimizerEntry findOptimizer(const std::string& name) const;
  // The first reader whose probe() accepts `path`.
  ReaderEntry findReader(const std::string& path) const;

 private:
  void tryLoad(const std::string& file);
  std::vector<std::string> search_path_;
  std::vector<LoadedPlugin> plugins_;
  std::vector<RefusedPlugin> refused_;
};

// Names of the built-in regularizers, which plugins may not reuse.
const std::vector<std::string>& builtinRegularizerNames();
bool isBuiltinRegularizer(const std::string& type);
// The built-in regularizers that proximal solvers (FISTA, SDMM) take through their prox
// (rml::TermKind::NonSmooth). The other built-in ones are differentiable and join the smooth part.
bool isBuiltinNonSmoothRegularizer(const std::string& type);
// The built-in optimizer methods (project::OptimizerMethod's names), which plugins may not reuse.
const std::vector<std::string>& builtinOptimizerNames();

// "" when `type` is a built-in regularizer or one a loaded plugin of `registry` provides; else the
// problem to report ("unknown regularizer 'x': ... plugin is not loaded (searched: ...)").
std::string regularizerTypeProblem(const PluginRegistry& registry, const std::string& type);

}  // namespace apertura::plugin
