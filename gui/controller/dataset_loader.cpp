#include "gui/controller/dataset_loader.h"

#include <QtConcurrent/QtConcurrentRun>
#include <exception>

#include "core/io/dataset_summary_reader.h"

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
  const std::string p = path.toStdString();
  loadPrepared(path, [p] { return p; });
}

void DatasetLoader::loadPrepared(const QString& label, std::function<std::string()> prepare) {
  Request request{label, std::move(prepare)};
  if (isBusy()) {
    pending_ = std::move(request);
    return;
  }
  startNow(std::move(request));
}

void DatasetLoader::startNow(Request request) {
  running_label_ = request.label;
  emit started(request.label);
  watcher_.setFuture(QtConcurrent::run([prepare = std::move(request.prepare)]() -> Result {
    Result r;
    try {
      const std::string path = prepare();
      r.path = QString::fromStdString(path);
      r.summary = std::make_shared<DatasetSummary>(summarizeDataset(path));
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
    emit failed(r.path.isEmpty() ? running_label_ : r.path, r.error);
  }
  if (pending_) {
    Request next = std::move(*pending_);
    pending_.reset();
    startNow(std::move(next));
  }
}

}  // namespace apertura::gui
