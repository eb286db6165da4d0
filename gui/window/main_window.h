#pragma once

#include <QMainWindow>
#include <memory>
#include <optional>

#include "core/data/dataset_summary.h"
#include "core/pipeline/imaging_products.h"
#include "core/sim/simulation_request.h"

class QAction;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;

namespace apertura::gui {

class ConvergencePanel;
class DatasetLoader;
class DatasetSummaryPanel;
class ImageTabs;
class RunController;
class RunSettingsPanel;
class UvCoverageView;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Start loading in the background; datasetLoaded or datasetFailed follows.
  void openDataset(const QString& path);
  void openDemo();
  void runSimulation(const apertura::sim::SimulationRequest& request);
  // Starts an imaging run of the opened data set with the panel's settings; false (and the
  // reason in the status bar) when there is no data set or a setting is invalid.
  bool startRun();

  DatasetSummaryPanel* summaryPanel() const { return summary_panel_; }
  UvCoverageView* uvView() const { return uv_view_; }
  ImageTabs* imageTabs() const { return image_tabs_; }
  RunSettingsPanel* runSettings() const { return run_settings_; }
  ConvergencePanel* convergence() const { return convergence_; }
  RunController* runController() const { return run_; }
  QTabWidget* centralTabs() const { return tabs_; }

 signals:
  void datasetLoaded(const QString& path);
  void datasetFailed(const QString& path, const QString& message);
  void runFinished(const QString& state, const QString& message);

 private:
  void buildMenus();
  void buildDocks();
  void chooseDataset();
  void chooseUvfits();
  void newSimulation();
  void showAbout();
  void onLoadStarted(const QString& path);
  void onLoaded(const apertura::DatasetSummary& summary);
  void onFailed(const QString& path, const QString& message);
  void onRunFinished(const QString& state, const QString& message);
  void log(const QString& line);
  void updateRunActions();

  DatasetLoader* loader_;
  RunController* run_;
  QTabWidget* tabs_;
  DatasetSummaryPanel* summary_panel_;
  UvCoverageView* uv_view_;
  ImageTabs* image_tabs_;
  RunSettingsPanel* run_settings_;
  ConvergencePanel* convergence_;
  QPlainTextEdit* log_;
  QLabel* status_label_;
  QLabel* stage_label_;
  QProgressBar* busy_bar_;
  QAction* run_action_ = nullptr;
  QAction* pause_action_ = nullptr;
  QAction* stop_action_ = nullptr;
  std::optional<apertura::DatasetSummary> dataset_;
  std::shared_ptr<apertura::pipeline::ImagingProducts> products_;
};

}  // namespace apertura::gui
