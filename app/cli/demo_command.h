#pragma once

#include <string>

namespace CLI {
class App;
}

namespace apertura::cli {

struct DemoOptions {
  std::string output;  // empty: the user's data directory
};

CLI::App* addDemoCommand(CLI::App& app, DemoOptions& options);

// Creates the demo data set when needed and prints its summary; returns the exit code.
int runDemo(const DemoOptions& options);

}  // namespace apertura::cli
