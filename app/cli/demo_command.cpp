#include "app/cli/demo_command.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "core/data/dataset_summary_text.h"
#include "core/io/ms_summary.h"
#include "core/sim/demo_dataset.h"
#include "core/util/input_error.h"

namespace apertura::cli {

CLI::App* addDemoCommand(CLI::App& app, DemoOptions& o) {
  auto* cmd =
      app.add_subcommand("demo", "Create (once) the built-in demo data set and print its summary");
  cmd->add_option("--output", o.output,
                  "Directory (default: $XDG_DATA_HOME/apertura/demo or "
                  "~/.local/share/apertura/demo)");
  return cmd;
}

int runDemo(const DemoOptions& o) {
  try {
    const std::string dir = o.output.empty() ? defaultDemoDirectory() : o.output;
    const DemoDatasetInfo info = ensureDemo(dir);
    std::cout << (info.created ? "Created" : "Found") << " the demo data set in " << dir << "\n"
              << "True sky image: " << info.true_sky_path << "\n\n"
              << formatSummaryText(summarizeMeasurementSet(info.ms_path));
    return 0;
  } catch (const InputError& e) {
    std::cerr << "apertura-cli demo: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace apertura::cli
