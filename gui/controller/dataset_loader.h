#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>

#include "core/data/dataset_summary.h"

namespace apertura::gui {

// Reads data set summaries on a worker thread. casacore is not thread-safe, so at most one read
// runs at a time; a request made while one runs replaces any earlier pending one (latest wins).
class DatasetLoader : public QObject {
  Q_OBJECT

 public:
  explicit DatasetLoader(QObject* parent = nullptr);
  ~DatasetLoader() override;

  void load(const QString& path);
  bool isBusy() const;

 signals:
  void started(const QString& path);
  void loaded(const apertura::DatasetSummary& summary);
  void failed(const QString& path, const QString& message);

 private:
  struct Result {
    std::shared_ptr<DatasetSummary> summary;
    QString error;
  };

  void startNow(const QString& path);
  void onFinished();

  QFutureWatcher<Result> watcher_;
  QString running_path_;
  QString pending_path_;
};

}  // namespace apertura::gui
