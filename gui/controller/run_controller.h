#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <QVector>
#include <memory>

#include "core/engine/engine.h"
#include "core/engine/run_observer.h"
#include "core/project/project_settings.h"
#include "gui/controller/queued_run_observer.h"

namespace apertura::gui {

class ExternalRun;

// Owns the engine for the GUI. Core callbacks arrive on worker threads; they are buffered
// (metrics), or kept latest-wins (images, resource samples), and handed to widgets from a GUI
// timer every 40 ms, so a fast run can never flood the event loop.
class RunController : public QObject {
  Q_OBJECT

 public:
  explicit RunController(QObject* parent = nullptr);
  ~RunController() override;  // cancels and joins the run

  bool start(const apertura::project::ProjectSettings& settings,
             apertura::engine::Pipeline pipeline);
  // Runs `<launcher> <cli_path> run <project_path> --json` in another process (ExternalRun) and
  // reports it through the same signals as an in-process run; outputsWritten precedes a
  // successful finished(). False (and finished("failed", why)) when it could not be started.
  // With `snapshot_dir`, the run's snapshots arrive through snapshot() during the run.
  bool startExternal(const QString& launcher, const QString& cli_path, const QString& project_path,
                     const QString& snapshot_dir = QString());
  bool isRunning() const { return running_; }
  bool isExternal() const { return external_active_; }
  bool isPaused() const;

 public slots:
  void cancel();
  void pause();
  void resume();

 signals:
  void started();
  void stageStarted(const QString& stage);
  void stageFinished(const QString& stage, double seconds);
  void progress(double fraction, const QString& message);
  void iterations(const QVector<apertura::engine::IterationMetrics>& metrics);
  void snapshot(std::shared_ptr<const apertura::engine::ImageSnapshot> image);
  void resources(const apertura::engine::ResourceSample& sample);
  void warning(const QString& message);
  // state: "finished", "cancelled" or "failed"; message names the failing stage.
  void finished(const QString& state, const QString& message);
  // External runs only: launcher/apertura-cli text for the log panel, and the files it wrote.
  void logMessage(const QString& text);
  void outputsWritten(const QStringList& files);

 private:
  void drain();
  void emitBatch(QueuedRunObserver::Batch batch);
  void endExternal(const QString& state, const QString& message);

  apertura::engine::Engine engine_;
  std::shared_ptr<QueuedRunObserver> observer_;
  QTimer timer_;
  bool running_ = false;
  ExternalRun* external_ = nullptr;
  bool external_active_ = false;
};

}  // namespace apertura::gui
