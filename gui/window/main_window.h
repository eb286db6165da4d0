#pragma once

#include <QMainWindow>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset_summary.h"
#include "core/pipeline/imaging_products.h"
#include "core/project/project_settings.h"
#include "core/sim/simulation_request.h"

class QAction;
class QLabel;
class QPlainTextEdit;
class QToolButton;
class QProgressBar;
class QTabWidget;
class QTemporaryDir;

namespace apertura {
struct FitsImage;
}

namespace apertura::gui {

class ConvergencePanel;
class DatasetLoader;
class DatasetSummaryPanel;
class ImageTabs;
class MaskPanel;
class ProjectActions;
class RunController;
class RunSettingsPanel;
class RunStatusWidget;
class PathModelsTab;
class SurfaceTab;
struct ImageData;
class UvCoverageView;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  // Saves the window's layout when it closes (the application's window; tests leave it off).
  void setRemembersLayout(bool remember) { remembers_layout_ = remember; }
  ~MainWindow() override;

  // Start loading in the background; datasetLoaded or datasetFailed follows.
  void openDataset(const QString& path);
  void openDemo();
  void runSimulation(const apertura::sim::SimulationRequest& request);
  // Starts an imaging run of the opened data set with the panel's settings; false (and the
  // reason in the status bar) when there is no data set or a setting is invalid.
  bool startRun();
  // Starts a run whose optimizer begins at the last finished run's model (the same settings
  // otherwise); false when there is none or the settings are invalid.
  bool continueRun();
  // The λ path's "Re-image with λ = X": every regularizer whose λ is auto gets `lambda` (the run
  // settings show it) and a run starts from the last finished run's model when it fits the image
  // (from an empty one otherwise). False (and the reason in the status bar) when a run is going,
  // no λ is automatic or the settings are invalid.
  bool reimageWithLambda(double lambda);
  // Run > Run with launcher (main_window_launcher.cpp): saves the settings to a project file and
  // runs `<launcher> apertura-cli run PROJECT --json` in another process (the Preferences'
  // launcher command); the outputs it writes are loaded into the views. False (and the reason in
  // the log panel) when no launcher is set, no data set is open or the settings are invalid.
  bool startLauncherRun();
  QAction* launcherRunAction() const { return launcher_action_; }

  DatasetSummaryPanel* summaryPanel() const { return summary_panel_; }
  UvCoverageView* uvView() const { return uv_view_; }
  ImageTabs* imageTabs() const { return image_tabs_; }
  RunSettingsPanel* runSettings() const { return run_settings_; }
  MaskPanel* maskPanel() const { return mask_panel_; }
  ConvergencePanel* convergence() const { return convergence_; }
  RunController* runController() const { return run_; }
  QTabWidget* centralTabs() const { return tabs_; }
  // New/Open/Save project, the unsaved-changes prompt and Preferences (project_actions.h).
  ProjectActions* projectActions() const { return project_; }
  RunStatusWidget* runStatus() const { return run_status_; }
  SurfaceTab* surfaceTab() const { return surface_tab_; }
  PathModelsTab* pathModelsTab() const { return path_models_; }

  // Exports (main_window_export.cpp). Each writes atomically on a worker thread and ends with
  // exportFinished; false (and the reason in *error) when there is nothing to export.
  QAction* exportFitsAction() const { return export_fits_action_; }
  QAction* exportViewPngAction() const { return export_png_action_; }
  QAction* exportCsvAction() const { return export_csv_action_; }
  // The image of the current tab (an image panel, or the one the 3D tab shows) and its name.
  std::shared_ptr<const ImageData> currentImage(QString* name = nullptr) const;
  bool exportImageFits(const QString& path, QString* error = nullptr);
  bool exportViewPng(const QString& path, bool whole_window = false, QString* error = nullptr);
  bool exportMetricsCsv(const QString& path, QString* error = nullptr);

 signals:
  void datasetLoaded(const QString& path);
  void datasetFailed(const QString& path, const QString& message);
  void runFinished(const QString& state, const QString& message);
  // error is empty when `path` was written.
  void exportFinished(const QString& path, const QString& error);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void buildExportMenu();
  void updateExportActions();
  void chooseExportPath(const QString& kind);
  void buildDocks();
  void chooseDataset();
  // A file dialog with filters for UVFITS and every loaded reader plugin (non-modal: opened
  // with open(), so tests can drive it).
  void chooseDataFile();
  void newSimulation();
  void showAbout();
  void onLoadStarted(const QString& path);
  void onLoaded(const apertura::DatasetSummary& summary);
  void onFailed(const QString& path, const QString& message);
  void onRunFinished(const QString& state, const QString& message);
  void log(const QString& line);
  void updateRunActions();
  bool launchRun(const std::string& initial_model);
  // A run over its memory budget asks first (confirmMemory) and may change `settings` (a smaller
  // image, streaming) and the panel with it; false when the user cancels.
  bool withinMemoryBudget(apertura::project::ProjectSettings& settings);
  // The last run's written files into the log, and the status bar's "Open folder" for them.
  void announceWrittenFiles();
  // The last finished run's model as a FITS file for optimizer.initial_model; empty (and the
  // reason in the status bar) when it cannot be written.
  std::string writeLastModel();
  // Fills the λ path chart from products_ (the run's regularization settings give the target).
  void showLambdaPath();
  void loadLauncherOutputs(const QString& prefix);

  DatasetLoader* loader_;
  RunController* run_;
  QTabWidget* tabs_;
  DatasetSummaryPanel* summary_panel_;
  UvCoverageView* uv_view_;
  ImageTabs* image_tabs_;
  RunSettingsPanel* run_settings_;
  MaskPanel* mask_panel_ = nullptr;  // created in buildDocks
  ConvergencePanel* convergence_;
  QPlainTextEdit* log_;
  QLabel* status_label_;
  QLabel* stage_label_;
  QProgressBar* busy_bar_;
  QAction* run_action_ = nullptr;
  QAction* pause_action_ = nullptr;
  QAction* stop_action_ = nullptr;
  QAction* continue_action_ = nullptr;
  QAction* launcher_action_ = nullptr;
  // A launcher run's project file and snapshots; removed when the run ends, however it ends.
  std::unique_ptr<QTemporaryDir> launcher_dir_;
  std::unique_ptr<QTemporaryDir> launcher_results_dir_;  // its outputs while the project is unsaved
  QString launcher_prefix_;                              // where that run writes its images
  std::unique_ptr<QTemporaryDir> resume_dir_;  // the last model, written for continueRun()
  ProjectActions* project_ = nullptr;
  std::optional<apertura::DatasetSummary> dataset_;
  std::shared_ptr<apertura::pipeline::ImagingProducts> products_;
  // The regularization settings of the last in-process run (the λ path's target and scaling).
  apertura::project::RegularizationSettings run_regularization_;
  RunStatusWidget* run_status_ = nullptr;
  SurfaceTab* surface_tab_ = nullptr;
  PathModelsTab* path_models_ = nullptr;  // the models along the last run's λ path
  QAction* export_fits_action_ = nullptr;
  QAction* export_png_action_ = nullptr;
  QAction* export_window_png_action_ = nullptr;
  QAction* export_csv_action_ = nullptr;
  // Frequency, object, telescope and date of the run's data for FITS exports, copied once the
  // read stage has finished (the worker no longer writes them then).
  std::shared_ptr<const apertura::FitsImage> export_template_;
  bool remembers_layout_ = false;       // setRemembersLayout
  QToolButton* open_folder_ = nullptr;  // the last run's output folder (property "folder")
  // The last run's provenance (its project as HISTORY cards), as its own outputs carry it.
  std::vector<std::string> run_history_;
};

}  // namespace apertura::gui
