#include "gui/window/main_window.h"

#include <QApplication>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include "core/plugin/plugin_registry.h"
#include "core/sim/demo_dataset.h"
#include "core/version.h"
#include "gui/controller/dataset_file_filters.h"
#include "gui/controller/dataset_loader.h"
#include "gui/controller/open_error_hint.h"
#include "gui/controller/run_controller.h"
#include "gui/controller/window_layout.h"
#include "gui/dialogs/plugins_dialog.h"
#include "gui/dialogs/simulation_dialog.h"
#include "gui/panels/dataset_summary_panel.h"
#include "gui/panels/mask_panel.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/lambda_path_chart.h"
#include "gui/view/image_panel.h"
#include "gui/view/uv_coverage_view.h"
#include "gui/window/image_tabs.h"
#include "gui/window/path_models_tab.h"
#include "gui/window/project_actions.h"
#include "gui/window/run_status_widget.h"
#include "gui/window/settings_scroll_area.h"
#include "gui/window/surface_tab.h"
#include "gui/window/wheel_scrolls_panel.h"

namespace apertura::gui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      loader_(new DatasetLoader(this)),
      run_(new RunController(this)),
      tabs_(new QTabWidget),
      summary_panel_(new DatasetSummaryPanel),
      uv_view_(new UvCoverageView),
      image_tabs_(new ImageTabs(this)),
      run_settings_(new RunSettingsPanel),
      convergence_(new ConvergencePanel),
      log_(new QPlainTextEdit),
      status_label_(new QLabel(tr("Ready"))),
      stage_label_(new QLabel),
      busy_bar_(new QProgressBar) {
  setWindowTitle(tr("Apertura"));
  resize(1400, 900);

  auto* uv_box = new QWidget;
  auto* uv_layout = new QVBoxLayout(uv_box);
  uv_layout->setContentsMargins(4, 4, 4, 4);
  auto* uv_title = new QLabel(tr("uv coverage (metres; conjugates included)"));
  QFont bold = uv_title->font();
  bold.setBold(true);
  uv_title->setFont(bold);
  uv_layout->addWidget(uv_title);
  uv_layout->addWidget(uv_view_, 1);
  uv_view_->setMinimumSize(280, 280);
  uv_view_->setToolTip(tr("uv coverage (metres): drag to rotate, wheel to zoom"));

  auto* data_split = new QSplitter(Qt::Horizontal);
  data_split->addWidget(summary_panel_);
  data_split->addWidget(uv_box);
  data_split->setSizes({560, 480});
  tabs_->addTab(data_split, tr("Data"));
  for (const QString& name : image_tabs_->names()) {
    tabs_->addTab(image_tabs_->panel(name), image_tabs_->title(name));
  }
  surface_tab_ = new SurfaceTab(image_tabs_);
  surface_tab_->attachRun(run_);  // the iteration stack of the 3D tab's volume mode
  tabs_->addTab(surface_tab_, tr("3D"));
  path_models_ = new PathModelsTab;
  tabs_->addTab(path_models_, tr("λ models"));
  setCentralWidget(tabs_);

  busy_bar_->setRange(0, 0);
  busy_bar_->setMaximumWidth(160);
  busy_bar_->hide();
  // The message takes what the run's figures leave (clipped, never pushing them over each other
  // in a 1024 px window); the Log tab keeps every message whole.
  status_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  statusBar()->addWidget(status_label_, 1);
  statusBar()->addPermanentWidget(stage_label_);
  statusBar()->addPermanentWidget(busy_bar_);
  run_status_ = new RunStatusWidget;
  statusBar()->addPermanentWidget(run_status_);
  // The folder the last run wrote its files into (hidden until a run writes some).
  open_folder_ = new QToolButton;
  open_folder_->setObjectName("open-output-folder");
  open_folder_->setText(tr("Open folder"));
  open_folder_->hide();
  connect(open_folder_, &QToolButton::clicked, this, [this] {
    QDesktopServices::openUrl(QUrl::fromLocalFile(open_folder_->property("folder").toString()));
  });
  statusBar()->addPermanentWidget(open_folder_);

  buildMenus();
  buildDocks();
  connect(loader_, &DatasetLoader::started, this, &MainWindow::onLoadStarted);
  connect(loader_, &DatasetLoader::loaded, this, &MainWindow::onLoaded);
  connect(loader_, &DatasetLoader::failed, this, &MainWindow::onFailed);
  connect(run_, &RunController::snapshot, image_tabs_, &ImageTabs::showSnapshot);
  connect(run_, &RunController::iterations, convergence_, &ConvergencePanel::addIterations);
  connect(run_, &RunController::resources, convergence_, &ConvergencePanel::addResources);
  connect(run_, &RunController::warning, this, &MainWindow::log);
  connect(run_, &RunController::logMessage, this, &MainWindow::log);
  connect(run_, &RunController::outputsWritten, this,
          [this] { loadLauncherOutputs(launcher_prefix_); });
  connect(run_, &RunController::stageStarted, this, [this](const QString& stage) {
    stage_label_->setText(tr("Stage: %1").arg(stage));
    log(tr("stage %1 started").arg(stage));
  });
  connect(run_, &RunController::stageFinished, this, [this](const QString& stage, double s) {
    log(tr("stage %1 finished in %2 s").arg(stage).arg(s, 0, 'f', 2));
  });
  connect(run_, &RunController::iterations, this,
          [this](const QVector<engine::IterationMetrics>& m) {
            if (m.isEmpty())
              return;
            status_label_->setText(tr("Iteration %1: objective %2, χ²/dof %3")
                                       .arg(m.last().iteration)
                                       .arg(m.last().objective, 0, 'g', 6)
                                       .arg(m.last().chi2_per_dof, 0, 'f', 3));
          });
  // Before onRunFinished, so the status bar is final when runFinished is emitted.
  connect(run_, &RunController::stageStarted, run_status_, &RunStatusWidget::stageStarted);
  connect(run_, &RunController::progress, run_status_, &RunStatusWidget::progress);
  connect(run_, &RunController::iterations, run_status_, &RunStatusWidget::addIterations);
  connect(run_, &RunController::resources, run_status_, &RunStatusWidget::addResources);
  connect(run_, &RunController::finished, run_status_, &RunStatusWidget::finish);
  connect(run_, &RunController::finished, this, &MainWindow::onRunFinished);
  connect(run_settings_, &RunSettingsPanel::changed, this, &MainWindow::updateRunActions);
  connect(convergence_->lambdaPathChart(), &LambdaPathChart::reimageRequested, this,
          &MainWindow::reimageWithLambda);
  connect(convergence_->lambdaPathChart(), &LambdaPathChart::modelRequested, this, [this](int i) {
    path_models_->showStep(i);
    tabs_->setCurrentWidget(path_models_);
  });
  updateRunActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  project_ = new ProjectActions(this);
  project_->addFileActions(file);
  project_->addEditActions(menuBar()->addMenu(tr("&Edit")));
  QAction* open = file->addAction(tr("&Open data set…"), this, &MainWindow::chooseDataset);
  open->setShortcut(QKeySequence::Open);
  file->addAction(tr("Open data &file (UVFITS, plugin formats)…"), this,
                  &MainWindow::chooseDataFile);
  file->addAction(tr("&New simulated data set…"), this, &MainWindow::newSimulation);
  file->addAction(tr("Open &demo data set"), this, &MainWindow::openDemo);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
  quit->setShortcut(QKeySequence::Quit);
  buildExportMenu();

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run_action_ = run->addAction(tr("&Run"), this, &MainWindow::startRun);
  run_action_->setShortcut(Qt::Key_F5);
  pause_action_ = run->addAction(tr("&Pause"), this, [this] {
    if (run_->isPaused()) {
      run_->resume();
      pause_action_->setText(tr("&Pause"));
      run_status_->setPaused(false);
    } else {
      run_->pause();
      pause_action_->setText(tr("Res&ume"));
      run_status_->setPaused(true);
    }
  });
  continue_action_ =
      run->addAction(tr("&Continue from last model"), this, &MainWindow::continueRun);
  continue_action_->setShortcut(Qt::SHIFT | Qt::Key_F5);
  continue_action_->setToolTip(
      tr("Run again with the current settings, starting from the model "
         "of the last finished run"));
  launcher_action_ = run->addAction(tr("Run with &launcher"), this, &MainWindow::startLauncherRun);
  // The launcher command lives in the Preferences: re-check it whenever the menu opens.
  connect(run, &QMenu::aboutToShow, this, &MainWindow::updateRunActions);
  launcher_action_->setToolTip(
      tr("Run apertura-cli in another process through the launcher command of the Preferences "
         "(e.g. mpirun)"));
  stop_action_ = run->addAction(tr("&Stop"), run_, &RunController::cancel);
  stop_action_->setShortcut(Qt::Key_Escape);
  QToolBar* bar = addToolBar(tr("Run"));
  bar->setObjectName("run-toolbar");
  bar->addAction(run_action_);
  bar->addAction(pause_action_);
  bar->addAction(stop_action_);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Plugins…"), this, [this] {
    auto* dialog = new PluginsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
  });
  help->addAction(tr("&About Apertura"), this, &MainWindow::showAbout);
}

void MainWindow::buildDocks() {
  // The settings column runs the window's full height; the plots sit under the images only
  // (at 1024 x 700 the settings showed three rows above plots that spanned the whole width).
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  auto* settings_dock = new QDockWidget(tr("Run settings"), this);
  settings_dock->setObjectName("settings-dock");
  auto* scroll = new SettingsScrollArea;  // up and down, never sideways
  scroll->setWidget(run_settings_);
  new WheelScrollsPanel(scroll);
  settings_dock->setWidget(scroll);
  addDockWidget(Qt::LeftDockWidgetArea, settings_dock);

  // The mask: drawn on every image view, listed here, used by the next run (startRun).
  mask_panel_ = new MaskPanel;
  for (const QString& name : image_tabs_->names())
    mask_panel_->addView(image_tabs_->panel(name)->view());
  auto* mask_dock = new QDockWidget(tr("Mask"), this);
  mask_dock->setObjectName("mask-dock");
  mask_dock->setWidget(mask_panel_);
  addDockWidget(Qt::LeftDockWidgetArea, mask_dock);
  resizeDocks({settings_dock, mask_dock}, {600, 220}, Qt::Vertical);

  auto* plots_dock = new QDockWidget(tr("Convergence"), this);
  plots_dock->setObjectName("plots-dock");
  plots_dock->setWidget(convergence_);
  addDockWidget(Qt::BottomDockWidgetArea, plots_dock);

  auto* log_dock = new QDockWidget(tr("Log"), this);
  log_dock->setObjectName("log-dock");
  log_->setObjectName("log");
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(5000);
  log_dock->setWidget(log_);
  addDockWidget(Qt::BottomDockWidgetArea, log_dock);
  tabifyDockWidget(plots_dock, log_dock);
  plots_dock->raise();
  resizeDocks({plots_dock}, {260}, Qt::Vertical);
}

void MainWindow::chooseDataset() {
  const QString path = QFileDialog::getExistingDirectory(this, tr("Open Measurement Set"));
  if (!path.isEmpty())
    openDataset(path);
}

void MainWindow::chooseDataFile() {
  auto* dialog = new QFileDialog(this, tr("Open data file"));
  dialog->setObjectName("open-data-file-dialog");
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setFileMode(QFileDialog::ExistingFile);
  // Files of a reader plugin: summarizeDataset offers any file no built-in reader knows to the
  // loaded readers' probe(), so every filter (and "All files") goes through the same loader.
  dialog->setNameFilters(datasetFileFilters(plugin::PluginRegistry::global()));
  connect(dialog, &QFileDialog::fileSelected, this, &MainWindow::openDataset);
  dialog->open();
}

void MainWindow::openDataset(const QString& path) {
  if (!project_->prepareForDataset(path))
    return;
  loader_->load(path);
}

void MainWindow::openDemo() {
  const std::string dir = defaultDemoDirectory();
  if (!project_->prepareForDataset(QString::fromStdString(dir + "/demo.ms")))
    return;
  loader_->loadPrepared(tr("demo data set"), [dir] { return ensureDemoDataset(dir); });
}

void MainWindow::newSimulation() {
  SimulationDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted)
    return;
  try {
    runSimulation(dialog.request());
  } catch (const std::exception& e) {
    onFailed(tr("simulation"), QString::fromStdString(e.what()));
  }
}

void MainWindow::runSimulation(const sim::SimulationRequest& request) {
  if (!project_->prepareForDataset(QString::fromStdString(request.output)))
    return;
  loader_->loadPrepared(QString::fromStdString(request.output), [request] {
    sim::runSimulation(request);
    return request.output;
  });
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About Apertura"),
                     tr("<b>Apertura %1</b><p>Interactive regularized maximum likelihood imaging "
                        "for radio interferometry.</p>")
                         .arg(QString::fromLatin1(apertura::kVersion)));
}

void MainWindow::onLoadStarted(const QString& path) {
  status_label_->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
  busy_bar_->show();
}

void MainWindow::onLoaded(const apertura::DatasetSummary& summary) {
  busy_bar_->hide();
  // Another data set's last run is nothing to continue or re-image from.
  if (dataset_ && QFileInfo(QString::fromStdString(dataset_->path)).canonicalFilePath() !=
                      QFileInfo(QString::fromStdString(summary.path)).canonicalFilePath())
    products_.reset();
  dataset_ = summary;
  convergence_->lambdaPathChart()->clear();  // the path was another data set's
  path_models_->clear();
  const QString path = QString::fromStdString(summary.path);
  summary_panel_->showSummary(summary);
  run_settings_->setDataset(summary);
  std::vector<double> u, v;
  u.reserve(summary.uv_sample_m.size() / 2);
  v.reserve(summary.uv_sample_m.size() / 2);
  for (std::size_t i = 0; i + 1 < summary.uv_sample_m.size(); i += 2) {
    u.push_back(summary.uv_sample_m[i]);
    v.push_back(summary.uv_sample_m[i + 1]);
  }
  uv_view_->setUvw(u, v);
  setWindowTitle(tr("Apertura — %1").arg(QFileInfo(path).fileName()));
  status_label_->setText(tr("%1: %2 rows, %3 antennas, %4 field(s), %5 spectral window(s)")
                             .arg(QFileInfo(path).fileName())
                             .arg(summary.rows)
                             .arg(summary.antennas_used)
                             .arg(summary.fields.size())
                             .arg(summary.spectral_windows.size()));
  log(tr("opened %1").arg(path));
  updateRunActions();
  emit datasetLoaded(path);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // Unsaved changes were asked about first (ProjectActions' event filter): this close goes on.
  if (remembers_layout_)
    saveWindowLayout(*this);
  QMainWindow::closeEvent(event);
}

void MainWindow::onFailed(const QString& path, const QString& message) {
  busy_bar_->hide();
  summary_panel_->showError(path, message);
  status_label_->setText(tr("Could not open %1").arg(QFileInfo(path).fileName()));
  log(tr("error: %1").arg(message));
  // The reason where the user looks, with what to try; window-modal but not blocking, so a
  // scripted session (and a test) keeps running.
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open data set"),
                              tr("Could not open %1").arg(path), QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("open-error"));
  box->setInformativeText(message + "\n\n" + openErrorHint(message));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  emit datasetFailed(path, message);
}

void MainWindow::log(const QString& line) {
  log_->appendPlainText(line);
}

}  // namespace apertura::gui
