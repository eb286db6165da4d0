#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

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
  // Runs `prepare` on the worker first (e.g. create the demo or a simulation); it returns the path
  // of the data set to summarise. `label` names the work in progress messages.
  void loadPrepared(const QString& label, std::function<std::string()> prepare);
  bool isBusy() const;

 signals:
  void started(const QString& path);
  void loaded(const apertura::DatasetSummary& summary);
  void failed(const QString& path, const QString& message);

 private:
  struct Result {
    std::shared_ptr<DatasetSummary> summary;
    QString path;
    QString error;
  };

  struct Request {
    QString label;
    std::function<std::string()> prepare;
  };
  void startNow(Request request);
  void onFinished();

  QFutureWatcher<Result> watcher_;
  QString running_label_;
  std::optional<Request> pending_;
};

}  // namespace apertura::gui
