// The run side of the main window: start, pause/stop, and the end of a run.
#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <cmath>

#include "core/engine/memory_estimate.h"
#include "core/engine/process_resources.h"
#include "core/io/fits_image_io.h"
#include "core/pipeline/image_header.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/pipeline/model_file.h"
#include "gui/controller/app_preferences.h"
#include "gui/controller/run_controller.h"
#include "gui/panels/mask_panel.h"
#include "gui/panels/memory_estimate_text.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/lambda_path_chart.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/memory_confirmation.h"
#include "gui/window/path_models_tab.h"
#include "gui/window/project_actions.h"
#include "gui/window/run_status_widget.h"

namespace apertura::gui {

bool MainWindow::startRun() {
  return launchRun(std::string());
}

bool MainWindow::continueRun() {
  if (run_->isRunning())
    return false;
  if (!products_ || products_->model.empty()) {
    status_label_->setText(tr("No finished run to continue from"));
    return false;
  }
  const std::string path = writeLastModel();
  return !path.empty() && launchRun(path);
}

std::string MainWindow::writeLastModel() {
  // The model goes through a FITS file so the engine checks it against the run's grid like any
  // initial model (a changed size or cell is refused with the reason).
  if (!resume_dir_)
    resume_dir_ = std::make_unique<QTemporaryDir>();
  std::string path = (resume_dir_->path() + "/last-model.fits").toStdString();
  try {
    pipeline::writeModelFits(*products_, path);  // a cube for a cube run
  } catch (const std::exception& e) {
    status_label_->setText(QString::fromStdString(e.what()));
    return std::string();
  }
  return path;
}

bool MainWindow::reimageWithLambda(double lambda) {
  if (run_->isRunning())
    return false;
  if (!dataset_) {
    status_label_->setText(tr("Open a data set before running"));
    return false;
  }
  if (!std::isfinite(lambda) || lambda <= 0.0)
    return false;
  // The path's λ is normalised: with the scaling switched since, the same number would weigh the
  // terms differently.
  const auto current = project_->currentProject();
  if (current && current->regularization.scaling != project::ObjectiveScaling::Normalised) {
    status_label_->setText(tr("The λ path's λ needs the normalised λ scale"));
    return false;
  }
  const int fixed = project_->fixAutomaticLambdas(lambda);
  if (fixed < 0) {
    status_label_->setText(run_settings_->validationMessage());
    return false;
  }
  if (fixed == 0) {
    status_label_->setText(tr("No regularizer has an automatic λ to set"));
    return false;
  }
  log(tr("λ of %n automatic regularizer(s) set to %1", nullptr, fixed).arg(lambda));
  // Warm start: the last model is the fit at a λ of the same path, so the optimizer starts near
  // the new optimum. A model of another size would be refused by the engine: start empty then.
  const auto settings = project_->currentProject();
  const bool fits = products_ && !products_->model.empty() && settings &&
                    settings->imaging.nx == products_->geometry.nx &&
                    settings->imaging.ny == products_->geometry.ny;
  const std::string model = fits ? writeLastModel() : std::string();
  if (model.empty())
    log(tr("re-imaging from an empty image: the last model is missing or of another size"));
  return launchRun(model);
}

void MainWindow::showLambdaPath() {
  path_models_->setProducts(products_);  // clears the tab for a run without a path
  if (!products_ || products_->lambda_path.empty())
    return;  // the chart keeps its empty state (cleared when the run started)
  LambdaPathChart* chart = convergence_->lambdaPathChart();
  chart->setPath(products_->lambda_path, products_->auto_lambda, run_regularization_.target_chi2);
  // The path's λ is the normalised one: a fixed λ means the same only with normalised scaling.
  const bool normalised = run_regularization_.scaling == project::ObjectiveScaling::Normalised;
  chart->setReimageAvailable(
      normalised,
      tr("The path's λ is normalised; with regularization scaling \"%1\" a fixed λ means "
         "something else. Set the scaling to \"%2\" to re-image at a λ of the path.")
          .arg(QString::fromStdString(project::choiceName(run_regularization_.scaling)),
               QString::fromStdString(project::choiceName(project::ObjectiveScaling::Normalised))));
}

bool MainWindow::withinMemoryBudget(project::ProjectSettings& settings) {
  const engine::DataVolume volume = run_settings_->dataVolume(settings);
  const std::uint64_t machine = engine::physicalMemoryBytes();
  const engine::MemoryEstimate e = engine::estimateMemory(settings, volume, machine);
  if (e.fitsBudget())
    return true;
  const engine::BudgetFit fit = engine::fitWithinBudget(settings, volume, machine);
  switch (confirmMemory(this, e, fit, settings.imaging.nx)) {
    case MemoryChoice::SmallerImage:
      settings.imaging.nx = settings.imaging.ny = fit.image_size;
      run_settings_->setImageSize(fit.image_size);  // the project keeps the size it ran with
      log(tr("image size lowered to %1 px to fit the memory budget").arg(fit.image_size));
      return true;
    case MemoryChoice::Stream:
      settings.data.mode = ReadMode::kStreaming;
      run_settings_->setDataMode(ReadMode::kStreaming);
      log(tr("visibilities streamed from disk to fit the memory budget"));
      return true;
    case MemoryChoice::RunAnyway:
      log(tr("run started over its memory budget (%1 estimated, budget %2)")
              .arg(formatBytes(e.totalBytes()), formatBytes(e.budget_bytes)));
      return true;
    case MemoryChoice::Cancel:
      break;
  }
  status_label_->setText(tr("Run not started: over the memory budget"));
  return false;
}

bool MainWindow::launchRun(const std::string& initial_model) {
  if (run_->isRunning())
    return false;
  if (!dataset_) {
    status_label_->setText(tr("Open a data set before running"));
    return false;
  }
  // The whole project (fields the panel does not show included), as it would be saved.
  auto settings = project_->settingsForRun(QString::fromStdString(dataset_->path));
  if (!settings) {
    status_label_->setText(run_settings_->validationMessage());
    return false;
  }
  mask_panel_->applyTo(*settings);  // the drawn mask, when "use mask" is on
  if (!initial_model.empty())
    settings->optimizer.initial_model = initial_model;
  if (!withinMemoryBudget(*settings))
    return false;
  products_ = std::make_shared<pipeline::ImagingProducts>();
  run_regularization_ = settings->regularization;
  run_history_ = pipeline::provenanceHistory(*settings);  // for the menu's FITS exports
  convergence_->clear();
  path_models_->clear();
  image_tabs_->clearCounts();
  // What is on screen until this run replaces it is the last run's.
  image_tabs_->markShownAs(tr("Previous run: replaced when this run publishes this image"));
  run_->start(*settings, pipeline::makeImagingPipeline(products_));
  run_status_->start(project::iterationsKnownInAdvance(*settings));
  log(tr("run started%6: %1 x %2 px, %3, %4 iterations of %5")
          .arg(settings->imaging.nx)
          .arg(settings->imaging.ny)
          .arg(QString::fromStdString(project::choiceName(settings->weighting.scheme)))
          .arg(settings->optimizer.max_iterations)
          .arg(QString::fromStdString(settings->optimizer.methodName()))
          .arg(initial_model.empty() ? QString() : tr(" from the last model")));
  tabs_->setCurrentIndex(1);  // the dirty image appears first
  updateRunActions();
  return true;
}

void MainWindow::onRunFinished(const QString& state, const QString& message) {
  // A launcher run's project file and snapshots (all read by now; its outputs are elsewhere).
  launcher_dir_.reset();
  busy_bar_->hide();
  stage_label_->clear();
  pause_action_->setText(tr("&Pause"));
  showLambdaPath();  // a stopped run's path too: the steps it walked
  // A transient message (e.g. "Opened project", 5 s) would hide the outcome below.
  statusBar()->clearMessage();
  if (state == "finished" && products_ && !products_->diagnoses.empty()) {
    // What went wrong, and what to try, where the user looks first (all of them are in the log).
    status_label_->setText(
        tr("Finished, but %1").arg(QString::fromStdString(products_->diagnoses.front())));
    status_label_->setToolTip(status_label_->text());  // the bar may cut it short
    tabs_->setCurrentIndex(5);                         // restored
  } else if (state == "finished" && products_) {
    status_label_->setToolTip(QString());
    status_label_->setText(tr("Finished: %1 iterations (%2), χ²/dof %3, residual RMS %4 Jy/beam")
                               .arg(products_->iterations)
                               .arg(QString::fromStdString(products_->stop_reason))
                               .arg(products_->chi2_per_dof, 0, 'f', 3)
                               .arg(products_->residual_rms, 0, 'g', 3));
    tabs_->setCurrentIndex(5);  // restored
  } else {
    status_label_->setText(message);
  }
  log(tr("run %1%2").arg(state, message.isEmpty() ? QString() : ": " + message));
  announceWrittenFiles();
  updateRunActions();
  emit runFinished(state, message);
}

void MainWindow::announceWrittenFiles() {
  const std::vector<std::string> none;
  const std::vector<std::string>& files = products_ ? products_->written_files : none;
  for (const std::string& f : files)
    log(tr("wrote %1").arg(QString::fromStdString(f)));
  open_folder_->setVisible(!files.empty());
  if (files.empty())
    return;
  const QString folder = QFileInfo(QString::fromStdString(files.front())).absolutePath();
  open_folder_->setProperty("folder", folder);
  open_folder_->setToolTip(
      tr("Open %1, where the run wrote %n file(s)", "", int(files.size())).arg(folder));
}

void MainWindow::updateRunActions() {
  if (!run_action_)
    return;
  const bool running = run_->isRunning();
  run_action_->setEnabled(!running && dataset_.has_value());
  pause_action_->setEnabled(running && !run_->isExternal());  // a process cannot be paused
  launcher_action_->setEnabled(!running && dataset_.has_value() &&
                               !AppPreferences::load().launcher_command.isEmpty());
  stop_action_->setEnabled(running);
  if (continue_action_)
    continue_action_->setEnabled(!running && products_ && !products_->model.empty());
}

}  // namespace apertura::gui
