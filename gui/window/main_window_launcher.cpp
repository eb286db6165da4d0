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

  // The run reads a project file: a hidden one beside the user's project (relative paths and the
  // output prefix mean the same there), or one in a temporary folder while the project is unsaved.
  const QString user_project = project_->document()->path();
  QString project_path;
  if (!user_project.isEmpty()) {
    const QFileInfo info(user_project);
    project_path = info.absoluteDir().filePath(QStringLiteral(".") + info.completeBaseName() +
                                               QStringLiteral(".launcher.apertura"));
    launcher_prefix_ = resultsPrefix(*settings, user_project);
  } else {
    launcher_dir_ = std::make_unique<QTemporaryDir>();
    if (!launcher_dir_->isValid()) {
      log(tr("launcher run: cannot create a temporary folder: %1")
              .arg(launcher_dir_->errorString()));
      return false;
    }
    project_path = launcher_dir_->filePath(QStringLiteral("launcher.apertura"));
    launcher_prefix_ = resultsPrefix(*settings, project_path);
  }
  settings->output.prefix = launcher_prefix_.toStdString();
  try {
    project::saveProject(*settings, project_path.toStdString());  // atomic, a few kilobytes
  } catch (const std::exception& e) {
    log(tr("launcher run: could not write %1: %2").arg(project_path, QString::fromUtf8(e.what())));
    return false;
  }

  products_.reset();  // the finished message comes from apertura-cli, not from in-process products
  convergence_->clear();
  image_tabs_->clearCounts();
  run_status_->start(settings->optimizer.max_iterations);
  log(tr("launcher run started: %1 (outputs %2-*.fits)").arg(launcher, launcher_prefix_));
  const bool started = run_->startExternal(launcher, ExternalRun::defaultCliPath(), project_path);
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
