// Run > Run with launcher: the current settings run in another process (mpirun, a batch wrapper)
// through apertura-cli --json; RunController feeds its events to the same plots and log.
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrent>

#include "core/project/project_file.h"
#include "gui/controller/app_preferences.h"
#include "gui/controller/external_run.h"
#include "gui/controller/project_document.h"
#include "gui/controller/results_reader.h"
#include "gui/controller/run_controller.h"
#include "gui/panels/mask_panel.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/lambda_path_chart.h"
#include "gui/view/image_panel.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/project_actions.h"
#include "gui/window/run_status_widget.h"

namespace apertura::gui {

bool MainWindow::startLauncherRun() {
  if (run_->isRunning())
    return false;
  const QString launcher = AppPreferences::load().launcher_command;
  if (launcher.isEmpty()) {
    log(tr("launcher run: no launcher command is set (Edit > Preferences)"));
    return false;
  }
  if (!dataset_) {
    log(tr("launcher run: open a data set first"));
    return false;
  }
  auto settings = project_->settingsForRun(QString::fromStdString(dataset_->path));
  if (!settings) {
    log(tr("launcher run: invalid settings: %1").arg(run_settings_->validationMessage()));
    return false;
  }
  mask_panel_->applyTo(*settings);

  // The run reads a project file in a temporary folder (nothing is left beside the user's
  // project); its snapshots go to a folder inside it. Both go when the run ends (onRunFinished).
  // Paths that the file would resolve against its own folder are written absolute.
  launcher_dir_ = std::make_unique<QTemporaryDir>();
  if (!launcher_dir_->isValid()) {
    log(tr("launcher run: cannot create a temporary folder: %1").arg(launcher_dir_->errorString()));
    launcher_dir_.reset();
    return false;
  }
  const QString project_path = launcher_dir_->filePath(QStringLiteral("launcher.apertura"));
  const QString snapshot_dir = launcher_dir_->filePath(QStringLiteral("snapshots"));
  const QString user_project = project_->document()->path();
  const QDir base =
      user_project.isEmpty() ? QDir::current() : QFileInfo(user_project).absoluteDir();
  const auto absolute = [&base](std::string& path) {
    if (!path.empty())
      path = QDir::cleanPath(base.absoluteFilePath(QString::fromStdString(path))).toStdString();
  };
  absolute(settings->data.path);
  absolute(settings->optimizer.initial_model);
  absolute(settings->output.model_ms);
  if (!user_project.isEmpty()) {
    launcher_prefix_ = resultsPrefix(*settings, user_project);
  } else if (QDir::isAbsolutePath(QString::fromStdString(settings->output.prefix))) {
    launcher_prefix_ = QString::fromStdString(settings->output.prefix);
  } else {
    // Unsaved: the outputs stay in a folder of their own until the next launcher run.
    launcher_results_dir_ = std::make_unique<QTemporaryDir>();
    if (!launcher_results_dir_->isValid()) {
      log(tr("launcher run: cannot create a temporary folder: %1")
              .arg(launcher_results_dir_->errorString()));
      launcher_dir_.reset();
      return false;
    }
    launcher_prefix_ = launcher_results_dir_->filePath(QStringLiteral("launcher"));
  }
  settings->output.prefix = launcher_prefix_.toStdString();
  try {
    project::saveProject(*settings, project_path.toStdString());  // atomic, a few kilobytes
  } catch (const std::exception& e) {
    log(tr("launcher run: could not write %1: %2").arg(project_path, QString::fromUtf8(e.what())));
    launcher_dir_.reset();
    return false;
  }

  products_.reset();  // the finished message comes from apertura-cli, not from in-process products
  convergence_->clear();
  // The process reports no λ path to the window; it writes one beside the metrics.
  if (project::hasAutomaticLambda(*settings) && settings->output.metrics_csv)
    convergence_->lambdaPathChart()->clear(
        tr("A launcher run writes its λ path to %1-lambda-path.csv").arg(launcher_prefix_));
  image_tabs_->clearCounts();
  run_status_->start(project::iterationsKnownInAdvance(*settings));
  log(tr("launcher run started: %1 (outputs %2-*.fits)").arg(launcher, launcher_prefix_));
  const bool started =
      run_->startExternal(launcher, ExternalRun::defaultCliPath(), project_path, snapshot_dir);
  updateRunActions();
  return started;
}

void MainWindow::loadLauncherOutputs(const QString& prefix) {
  // FITS reads off the GUI thread, as when a project's last results are restored.
  auto* watcher = new QFutureWatcher<RestoredResults>(this);
  connect(watcher, &QFutureWatcher<RestoredResults>::finished, this, [this, watcher, prefix] {
    RestoredResults r = watcher->result();
    watcher->deleteLater();
    for (RestoredImage& image : r.images) {
      if (ImagePanel* p = image_tabs_->panel(image.name))
        p->setImage(std::move(image.image));
    }
    for (const QString& error : r.errors)
      log(tr("launcher run: %1").arg(error));
    log(tr("launcher run: loaded %1 images from %2-*.fits").arg(r.images.size()).arg(prefix));
    if (!r.images.empty())
      tabs_->setCurrentIndex(5);  // restored, as after an in-process run
    updateExportActions();
  });
  watcher->setFuture(QtConcurrent::run(readResults, prefix, image_tabs_->names()));
}

}  // namespace apertura::gui
