#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <deque>
#include <functional>

#include "core/engine/run_observer.h"

class QTimer;

namespace apertura::gui {

// Runs `<launcher words> apertura-cli run PROJECT --json [--snapshot-dir DIR]` in another process
// (mpirun, a batch wrapper) and feeds its JSON lines to a RunObserver, so the window shows it like
// an in-process run. Snapshot files announced during the run are read on a worker thread, one at a
// time and in order, and handed to the observer as snapshots. Everything is asynchronous (QProcess
// signals on the GUI thread); nothing here blocks.
class ExternalRun : public QObject {
  Q_OBJECT

 public:
  // `observer` must outlive this object; it is called on the thread this object lives in.
  explicit ExternalRun(apertura::engine::RunObserver& observer, QObject* parent = nullptr);
  ~ExternalRun() override;

  // apertura-cli beside the running executable, or $APERTURA_CLI when set.
  static QString defaultCliPath();

  // Starts the run; false (and failed() emitted) when one is already running or the launcher is
  // unparsable. A launcher that cannot be started is reported through failed() asynchronously.
  // With `snapshot_dir`, apertura-cli writes its snapshots there (--snapshot-dir) and they reach
  // the observer during the run; the end of the run is reported once all of them were read.
  bool start(const QString& launcher, const QString& cli_path, const QString& project_path,
             const QString& snapshot_dir = QString());
  bool running() const;
  // Asks the run to stop (SIGTERM: apertura-cli's ranks cancel); kills it after `kill_after_ms`.
  void cancel(int kill_after_ms = 5000);

  QStringList writtenFiles() const { return written_; }
  // Snapshot files read and handed to the observer during the current (or last) run.
  int snapshotsLoaded() const { return snapshots_loaded_; }
  QString program() const { return program_; }
  QStringList arguments() const { return arguments_; }

 signals:
  void logMessage(const QString& text);
  // The run ended normally; `files` are the outputs apertura-cli reported writing.
  void finished(const QString& summary, const QStringList& files);
  void cancelled();
  // Launcher missing, non-zero exit, crash: `message` says what and includes stderr text.
  void failed(const QString& message);

 private:
  void readStdout();
  void readStderr();
  void onFinished(int exit_code, QProcess::ExitStatus status);
  void onError(QProcess::ProcessError error);
  void queueSnapshot(const QString& path, const QString& name, int iteration);
  void loadNextSnapshot();
  // Runs `report` (one of the end signals) once no snapshot is being read any more.
  void reportWhenIdle(std::function<void()> report);

  struct PendingSnapshot {
    QString path;
    QString name;
    int iteration = -1;
  };

  apertura::engine::RunObserver& observer_;
  QProcess* process_ = nullptr;
  QTimer* kill_timer_ = nullptr;
  QByteArray stdout_buffer_;
  QString stderr_text_;
  QString summary_;
  QStringList written_;
  QString program_;
  QStringList arguments_;
  bool cancel_requested_ = false;
  bool saw_cancelled_ = false;
  bool reported_ = false;
  std::deque<PendingSnapshot> snapshot_queue_;
  bool snapshot_loading_ = false;
  int snapshots_loaded_ = 0;
  unsigned generation_ = 0;  // a load finishing after a new start() belongs to the old run
  std::function<void()> pending_report_;
};

}  // namespace apertura::gui
