#pragma once

#include <string>
#include <vector>

namespace apertura::cli {

struct RunOptions {
  std::string project;
  std::vector<std::string> overrides;  // --set key=value
  bool json = false;                   // one JSON object per line instead of text
  std::string snapshot_dir;            // --snapshot-dir: images written there during the run
  // Under an MPI launcher: sum over ranks in rank order, so results do not depend on timing.
  bool deterministic_reduction = false;
};

// Exit codes of `apertura-cli run`, distinct so scripts can tell what happened.
enum RunExit { kRunOk = 0, kRunBadInput = 2, kRunFailed = 3, kRunCancelled = 130 };

int runProject(const RunOptions& options);

}  // namespace apertura::cli

namespace CLI {
class App;
}

namespace apertura::cli {

// Registers `run` (alias `image`) on the command line.
CLI::App* addRunCommand(CLI::App& app, RunOptions& options);

}  // namespace apertura::cli
