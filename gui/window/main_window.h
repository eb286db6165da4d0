#pragma once

#include <QMainWindow>

#include "core/data/dataset_summary.h"

class QLabel;
class QProgressBar;

namespace apertura::gui {

class DatasetLoader;
class DatasetSummaryPanel;
class UvCoverageView;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Starts loading in the background; datasetLoaded or datasetFailed follows.
  void openDataset(const QString& path);

  DatasetSummaryPanel* summaryPanel() const { return summary_panel_; }
  UvCoverageView* uvView() const { return uv_view_; }

 signals:
  void datasetLoaded(const QString& path);
  void datasetFailed(const QString& path, const QString& message);

 private:
  void buildMenus();
  void chooseDataset();
  void showAbout();
  void onLoadStarted(const QString& path);
  void onLoaded(const apertura::DatasetSummary& summary);
  void onFailed(const QString& path, const QString& message);

  DatasetLoader* loader_;
  DatasetSummaryPanel* summary_panel_;
  UvCoverageView* uv_view_;
  QLabel* status_label_;
  QProgressBar* busy_bar_;
};

}  // namespace apertura::gui
