#include "app/cli/run_command.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/cli/console_observer.h"
#include "app/cli/snapshot_writer.h"
#include "core/engine/engine.h"
#include "core/engine/interrupt.h"
#ifdef APERTURA_HAVE_MPI
#include "core/engine/mpi_communicator.h"
#include "core/engine/mpi_session.h"
#endif
#include "core/pipeline/imaging_pipeline.h"
#include "core/project/project_file.h"
#include "core/project/project_overrides.h"
#include "core/project/project_reference.h"
#include "core/util/input_error.h"

namespace apertura::cli {
namespace {}  // namespace

CLI::App* addRunCommand(CLI::App& app, RunOptions& options) {
  auto* cmd = app.add_subcommand(
      "run", "Run an imaging project (.apertura): dirty image, RML, restore, FITS outputs");
  cmd->alias("image");
  cmd->add_option("project", options.project, "Project file (.apertura)")->required();
  cmd->add_option("--set", options.overrides,
                  "Override a setting, e.g. --set imaging.nx=1024 --set weighting.robust=0");
  cmd->add_flag("--json", options.json, "Print progress as JSON lines");
  cmd->add_option("--snapshot-dir", options.snapshot_dir,
                  "Write each snapshot (optimizer.snapshot_every) there as FITS during the run and "
                  "announce it (a \"snapshot\" JSON line with --json); rank 0 only under MPI");
  cmd->add_flag("--deterministic-reduction", options.deterministic_reduction,
                "Exact, order-independent sums of per-chunk partials: identical images for any "
                "number of ranks (costs one FFT per chunk per pass)");
  // Every key of the project file, from core's field tables (what --set accepts).
  cmd->footer(
      "Exit status: 0 finished, 2 bad input, 3 failed, 130 cancelled (SIGINT), 143 (SIGTERM), 129 "
      "(SIGHUP).\n\n"
      "Project file keys (KEY = default (accepted), for --set KEY=VALUE):\n" +
      project::projectReferenceText());
  return cmd;
}

int runProject(const RunOptions& options) {
  namespace fs = std::filesystem;
  project::ProjectSettings settings;
  const std::string base = fs::absolute(options.project).parent_path().string();
  try {
    settings = project::loadProject(options.project);
    if (!settings.migration_note.empty())
      std::cerr << "apertura-cli run: note: " << settings.migration_note << "\n";
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

  // Under an MPI launcher every rank runs the same project on its share of the rows; rank 0
  // reports and writes the files. Signals then set the interrupt flag the ranks agree on.
  // With --deterministic-reduction a plain run sums per-chunk partials exactly, so its images
  // equal those of any rank count with the flag bit for bit.
  engine::Communicator* comm = options.deterministic_reduction
                                   ? &engine::deterministicSingleProcessCommunicator()
                                   : &engine::singleProcessCommunicator();
#ifdef APERTURA_HAVE_MPI
  std::unique_ptr<engine::MpiSession> session;
  std::unique_ptr<engine::MpiCommunicator> mpi;
  if (engine::MpiSession::launchedByMpi()) {
    int argc = 0;
    char** argv = nullptr;
    // The pipeline runs on the engine's worker thread while this one waits: MPI calls come
    // from one thread at a time, but not the one that started MPI.
    engine::MpiSessionOptions session_options;
    session_options.serialized = true;
    session = std::make_unique<engine::MpiSession>(argc, argv, session_options);
    mpi = std::make_unique<engine::MpiCommunicator>(options.deterministic_reduction);
    comm = mpi.get();
  }
#endif
  const bool distributed = comm->size() > 1;
  const bool speaks = comm->rank() == 0;

  auto observer = std::make_shared<ConsoleObserver>(options.json);
  // Only the rank that reports writes snapshots (the others' images are the same).
  if (speaks && !options.snapshot_dir.empty()) {
    try {
      observer->setSnapshotWriter(std::make_shared<SnapshotWriter>(options.snapshot_dir));
    } catch (const InputError& e) {
      std::cerr << "apertura-cli run: error: " << e.what() << "\n";
      return kRunBadInput;
    }
  }
  std::shared_ptr<engine::RunObserver> run_observer =
      speaks ? std::static_pointer_cast<engine::RunObserver>(observer)
             : std::make_shared<engine::RunObserver>();
  auto products = std::make_shared<pipeline::ImagingProducts>();
  engine::Engine engine;
  // The handlers (main.cpp, or the MPI session) set a flag; a distributed run polls it at its
  // checkpoints on every rank, a single process cancels the engine from here.
  engine::clearInterrupt();
  engine.start(settings, pipeline::makeImagingPipeline(products, *comm), run_observer);
  while (engine.running()) {
    if (!distributed && engine::interruptRequested())
      engine.cancel();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const engine::RunOutcome outcome = engine.wait();

  switch (outcome.state) {
    case engine::RunState::Finished: {
      if (!speaks)
        return kRunOk;
      char buf[320];
      int n = std::snprintf(buf, sizeof buf,
                            "finished: %d iterations (%s), chi2/dof %.4f, residual RMS %.3g "
                            "Jy/beam, image noise %.3g Jy/beam",
                            products->iterations, products->stop_reason.c_str(),
                            products->chi2_per_dof, products->residual_rms, products->image_noise);
      const auto append = [&](const char* format, double value) {
        if (n > 0 && std::size_t(n) < sizeof buf)
          n += std::snprintf(buf + n, sizeof buf - std::size_t(n), format, value);
      };
      if (products->weight_scale != 1.0)  // the weights were rescaled (read stage's warning)
        append(" (weights x 1/%.3g)", products->weight_scale);
      if (products->auto_lambda > 0.0)
        append(", automatic lambda %.3g", products->auto_lambda);
      observer->lambdaPath(*products);
      observer->event("finished", buf);
      for (const auto& f : products->written_files)
        observer->event("wrote", "wrote " + f);
      return kRunOk;
    }
    case engine::RunState::Cancelled:
      if (speaks)
        observer->event("cancelled", "cancelled");
      // 130 for SIGINT, 143 for SIGTERM: the shell's convention for a command a signal ended.
      {
        const int sig = engine::interruptSignal();
        return sig > 0 ? 128 + sig : kRunCancelled;
      }
    default: {
      // Bad input found while running (unreadable data, bad selection) is still bad input.
      bool input_error = false;
      try {
        if (outcome.error)
          std::rethrow_exception(outcome.error);
      } catch (const ResourceError&) {
        // A full disk or a quota: the input was fine, the run failed.
      } catch (const InputError&) {
        input_error = true;
      } catch (...) {
      }
      if (speaks)
        std::cerr << "apertura-cli run: error: " << outcome.message << "\n";
      return input_error ? kRunBadInput : kRunFailed;
    }
  }
}

}  // namespace apertura::cli
