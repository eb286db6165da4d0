#include "app/cli/plugins_command.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "core/plugin/plugin_registry.h"

namespace apertura::cli {

CLI::App* addPluginsCommand(CLI::App& app) {
  return app.add_subcommand("plugins",
                            "List the plugins found (regularizers, readers) and those refused");
}

int runPlugins() {
  const plugin::PluginRegistry& registry = plugin::PluginRegistry::global();
  std::cout << "Plugin search path:\n";
  for (const auto& dir : registry.searchPath())
    std::cout << "  " << dir << "\n";
  std::cout << "Loaded plugins (" << registry.plugins().size() << "):\n";
  for (const auto& p : registry.plugins()) {
    const AperturaPluginV2& api = *p.api;
    std::cout << "  " << api.name << " " << (api.version ? api.version : "") << "  (" << p.path
              << ")\n";
    if (api.description)
      std::cout << "    " << api.description << "\n";
    for (std::size_t i = 0; i < api.num_regularizers; ++i) {
      const AperturaRegularizerV1& r = api.regularizers[i];
      std::cout << "    regularizer " << r.name << (r.prox ? " (with prox)" : "") << ": "
                << (r.description ? r.description : "") << "\n";
      for (std::size_t k = 0; k < r.num_parameters; ++k) {
        const AperturaParameterV1& q = r.parameters[k];
        std::cout << "      " << q.name << "  default " << q.default_value << ", range ["
                  << q.min_value << ", " << q.max_value << "]  "
                  << (q.description ? q.description : "") << "\n";
      }
    }
    for (std::size_t i = 0; i < api.num_optimizers; ++i) {
      const AperturaOptimizerV1& o = api.optimizers[i];
      std::cout << "    optimizer " << o.name << ": " << (o.description ? o.description : "")
                << "\n";
    }
    for (std::size_t i = 0; i < api.num_readers; ++i) {
      const AperturaReaderV1& r = api.readers[i];
      std::cout << "    reader " << r.name << " [" << (r.file_patterns ? r.file_patterns : "")
                << "]: " << (r.description ? r.description : "") << "\n";
    }
  }
  std::cout << "Refused (" << registry.refused().size() << "):\n";
  for (const auto& r : registry.refused())
    std::cout << "  " << r.reason << "\n";
  return 0;
}

}  // namespace apertura::cli
