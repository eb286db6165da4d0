#include "app/cli/run_command.h"

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/cli/console_observer.h"
#include "core/engine/engine.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/project/project_file.h"
#include "core/project/project_overrides.h"
#include "core/util/input_error.h"

namespace apertura::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int /*signal*/) {
  g_interrupted.store(true);
}

}  // namespace

CLI::App* addRunCommand(CLI::App& app, RunOptions& options) {
  auto* cmd = app.add_subcommand(
      "run", "Run an imaging project (.apertura): dirty image, RML, restore, FITS outputs");
  cmd->alias("image");
  cmd->add_option("project", options.project, "Project file (.apertura)")->required();
  cmd->add_option("--set", options.overrides,
                  "Override a setting, e.g. --set imaging.nx=1024 --set weighting.robust=0");
  cmd->add_flag("--json", options.json, "Print progress as JSON lines");
  cmd->footer("Exit status: 0 finished, 2 bad input, 3 failed, 130 cancelled (SIGINT).");
  return cmd;
}

int runProject(const RunOptions& options) {
  namespace fs = std::filesystem;
  project::ProjectSettings settings;
  const std::string base = fs::absolute(options.project).parent_path().string();
  try {
    settings = project::loadProject(options.project);
    if (!options.overrides.empty()) {
      settings = project::applyOverrides(settings, options.overrides, base);
    }
  } catch (const InputError& e) {
    std::cerr << "apertura-cli run: error: " << e.what() << "\n";
    return kRunBadInput;
  }
  if (settings.output.prefix.empty()) {
    settings.output.prefix = (fs::path(base) / fs::path(options.project).stem()).string();
  } else if (fs::path(settings.output.prefix).is_relative()) {
    settings.output.prefix = (fs::path(base) / settings.output.prefix).string();
  }

  auto observer = std::make_shared<ConsoleObserver>(options.json);
  auto products = std::make_shared<pipeline::ImagingProducts>();
  engine::Engine engine;
  g_interrupted = false;
  auto* previous = std::signal(SIGINT, onInterrupt);
  engine.start(settings, pipeline::makeImagingPipeline(products), observer);
  while (engine.running()) {
    if (g_interrupted.load())
      engine.cancel();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const engine::RunOutcome outcome = engine.wait();
  std::signal(SIGINT, previous);

  switch (outcome.state) {
    case engine::RunState::Finished: {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "finished: %d iterations (%s), chi2/dof %.4f, residual RMS %.3g Jy/beam",
                    products->iterations, products->stop_reason.c_str(), products->chi2_per_dof,
                    products->residual_rms);
      observer->event("finished", buf);
      for (const auto& f : products->written_files)
        observer->event("wrote", "wrote " + f);
      return kRunOk;
    }
    case engine::RunState::Cancelled:
      observer->event("cancelled", "cancelled");
      return kRunCancelled;
    default: {
      // Bad input found while running (unreadable data, bad selection) is still bad input.
      bool input_error = false;
      try {
        if (outcome.error)
          std::rethrow_exception(outcome.error);
      } catch (const InputError&) {
        input_error = true;
      } catch (...) {
      }
      std::cerr << "apertura-cli run: error: " << outcome.message << "\n";
      return input_error ? kRunBadInput : kRunFailed;
    }
  }
}

}  // namespace apertura::cli
