#include "gui/controller/run_controller.h"

#include "gui/controller/background_priority.h"
#include "gui/controller/external_run.h"
#include "gui/controller/queued_run_observer.h"

namespace apertura::gui {

using namespace apertura::engine;

namespace {
constexpr int kDrainMs = 40;
}

RunController::RunController(QObject* parent)
    : QObject(parent), observer_(std::make_shared<QueuedRunObserver>()) {
  qRegisterMetaType<apertura::engine::ResourceSample>("apertura::engine::ResourceSample");
  qRegisterMetaType<std::shared_ptr<const apertura::engine::ImageSnapshot>>(
      "std::shared_ptr<const apertura::engine::ImageSnapshot>");
  qRegisterMetaType<QVector<apertura::engine::IterationMetrics>>(
      "QVector<apertura::engine::IterationMetrics>");
  timer_.setInterval(kDrainMs);
  connect(&timer_, &QTimer::timeout, this, &RunController::drain);
  external_ = new ExternalRun(*observer_, this);
  connect(external_, &ExternalRun::logMessage, this, &RunController::logMessage);
  connect(external_, &ExternalRun::finished, this,
          [this](const QString& summary, const QStringList& files) {
            emitBatch(observer_->take());
            emit outputsWritten(files);
            endExternal("finished", summary);
          });
  connect(external_, &ExternalRun::cancelled, this,
          [this] { endExternal("cancelled", tr("Run cancelled")); });
  connect(external_, &ExternalRun::failed, this,
          [this](const QString& message) { endExternal("failed", message); });
}

RunController::~RunController() {
  engine_.cancel();
  engine_.wait();
}

bool RunController::start(const project::ProjectSettings& settings, Pipeline pipeline) {
  if (running_)
    return false;
  observer_->take();  // drop leftovers of a previous run
  // The run computes at a lower priority than the window: on a machine with few cores the
  // engine's threads would otherwise hold the CPU while the event loop waits to repaint.
  Pipeline background = [inner = std::move(pipeline)](RunContext& ctx) {
    lowerCurrentThreadPriority();
    inner(ctx);
  };
  engine_.start(settings, std::move(background), observer_);
  running_ = true;
  timer_.start();
  emit started();
  return true;
}

bool RunController::startExternal(const QString& launcher, const QString& cli_path,
                                  const QString& project_path, const QString& snapshot_dir) {
  if (running_)
    return false;
  observer_->take();
  running_ = true;
  external_active_ = true;
  timer_.start();
  emit started();
  // A synchronous refusal (unparsable launcher) has already ended the run through failed().
  return external_->start(launcher, cli_path, project_path, snapshot_dir);
}

void RunController::endExternal(const QString& state, const QString& message) {
  if (!external_active_)
    return;
  timer_.stop();
  emitBatch(observer_->take());
  external_active_ = false;
  running_ = false;
  emit finished(state, message);
}

bool RunController::isPaused() const {
  return engine_.paused();
}

void RunController::cancel() {
  if (external_active_) {
    external_->cancel();
    return;
  }
  engine_.cancel();
}

void RunController::pause() {
  engine_.pause();
}

void RunController::resume() {
  engine_.resume();
}

void RunController::emitBatch(QueuedRunObserver::Batch batch) {
  for (const auto& s : batch.stages) {
    if (s.finished) {
      emit stageFinished(QString::fromStdString(s.stage), s.seconds);
    } else {
      emit stageStarted(QString::fromStdString(s.stage));
    }
  }
  if (batch.progress) {
    emit progress(batch.progress->first, QString::fromStdString(batch.progress->second));
  }
  if (!batch.metrics.empty()) {
    emit iterations(QVector<IterationMetrics>(batch.metrics.begin(), batch.metrics.end()));
  }
  for (auto& image : batch.images)
    emit snapshot(std::move(image));
  if (batch.resources)
    emit resources(*batch.resources);
  for (const auto& w : batch.warnings)
    emit warning(QString::fromStdString(w));
}

void RunController::drain() {
  if (external_active_) {  // ExternalRun's signals end it; here only the plots are fed
    emitBatch(observer_->take());
    return;
  }
  // Read "running" before taking the batch: once the worker is done, one more take() after
  // joining collects whatever it reported last.
  const bool still_running = engine_.running();
  emitBatch(observer_->take());
  if (still_running || !running_)
    return;

  timer_.stop();
  const RunOutcome outcome = engine_.wait();
  emitBatch(observer_->take());
  running_ = false;
  switch (outcome.state) {
    case RunState::Finished:
      emit finished("finished", QString());
      break;
    case RunState::Cancelled:
      emit finished("cancelled", tr("Run cancelled"));
      break;
    default:
      emit finished("failed", QString::fromStdString(outcome.message));
      break;
  }
}

}  // namespace apertura::gui
