#pragma once

namespace CLI {
class App;
}

namespace apertura::cli {

// `apertura-cli plugins`: the plugin search path, the loaded plugins with their regularizers
// (parameters, defaults, ranges), optimizers and readers, and the libraries that were refused and
// why.
CLI::App* addPluginsCommand(CLI::App& app);
int runPlugins();

}  // namespace apertura::cli
