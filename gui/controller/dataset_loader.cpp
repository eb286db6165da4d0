#include "gui/controller/dataset_loader.h"

#include <QtConcurrent/QtConcurrentRun>
#include <exception>

#include "core/io/ms_summary.h"

namespace apertura::gui {

DatasetLoader::DatasetLoader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<apertura::DatasetSummary>("apertura::DatasetSummary");
  connect(&watcher_, &QFutureWatcher<Result>::finished, this, &DatasetLoader::onFinished);
}

// The worker holds only copies of its inputs, but waiting keeps casacore from outliving main().
DatasetLoader::~DatasetLoader() {
  watcher_.waitForFinished();
}

bool DatasetLoader::isBusy() const {
  return watcher_.isRunning();
}

void DatasetLoader::load(const QString& path) {
  if (isBusy()) {
    pending_path_ = path;
    return;
  }
  startNow(path);
}

void DatasetLoader::startNow(const QString& path) {
  running_path_ = path;
  emit started(path);
  const std::string p = path.toStdString();
  watcher_.setFuture(QtConcurrent::run([p]() -> Result {
    Result r;
    try {
      r.summary = std::make_shared<DatasetSummary>(summarizeMeasurementSet(p));
    } catch (const std::exception& e) {
      r.error = QString::fromStdString(e.what());
    }
    return r;
  }));
}

void DatasetLoader::onFinished() {
  const Result r = watcher_.result();
  if (r.summary) {
    emit loaded(*r.summary);
  } else {
    emit failed(running_path_, r.error);
  }
  if (!pending_path_.isEmpty()) {
    const QString next = pending_path_;
    pending_path_.clear();
    startNow(next);
  }
}

}  // namespace apertura::gui
