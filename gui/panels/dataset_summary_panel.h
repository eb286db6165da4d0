#pragma once

#include <QWidget>

#include "core/data/dataset_summary.h"

class QLabel;
class QPlainTextEdit;

namespace apertura::gui {

// Shows the same summary text as `apertura-cli info`, so users can compare both front ends.
class DatasetSummaryPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DatasetSummaryPanel(QWidget* parent = nullptr);

  void showSummary(const apertura::DatasetSummary& summary);
  void showError(const QString& path, const QString& message);
  void clear();
  QString text() const;

 private:
  QLabel* title_;
  QPlainTextEdit* body_;
};

}  // namespace apertura::gui
