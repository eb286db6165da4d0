#include "gui/controller/external_run.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrent>

#include <exception>

#include "gui/controller/json_event_parser.h"
#include "gui/controller/snapshot_loader.h"

namespace apertura::gui {

ExternalRun::ExternalRun(apertura::engine::RunObserver& observer, QObject* parent)
    : QObject(parent), observer_(observer) {
  kill_timer_ = new QTimer(this);
  kill_timer_->setSingleShot(true);
  connect(kill_timer_, &QTimer::timeout, this, [this] {
    if (running()) {
      emit logMessage(tr("The run did not stop after SIGTERM; killing it."));
      process_->kill();
    }
  });
}

ExternalRun::~ExternalRun() {
  // Never leave an orphaned launcher behind when the window closes mid-run.
  if (running()) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(2000);
  }
}

QString ExternalRun::defaultCliPath() {
  // APERTURA_CLI overrides (tests, installs that keep the CLI elsewhere).
  const QString overridden = qEnvironmentVariable("APERTURA_CLI");
  if (!overridden.isEmpty())
    return overridden;
  return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("apertura-cli"));
}

bool ExternalRun::running() const {
  return process_ != nullptr && process_->state() != QProcess::NotRunning;
}

bool ExternalRun::start(const QString& launcher, const QString& cli_path,
                        const QString& project_path, const QString& snapshot_dir) {
  if (running()) {
    emit failed(tr("A launcher run is already in progress."));
    return false;
  }
  QStringList words = QProcess::splitCommand(launcher);
  if (!launcher.trimmed().isEmpty() && words.isEmpty()) {
    emit failed(
        tr("Launcher command \"%1\" could not be parsed (unbalanced quotes?).").arg(launcher));
    return false;
  }
  words << cli_path << QStringLiteral("run") << project_path << QStringLiteral("--json");
  if (!snapshot_dir.isEmpty())
    words << QStringLiteral("--snapshot-dir") << snapshot_dir;
  program_ = words.takeFirst();
  arguments_ = words;

  if (process_ != nullptr)
    process_->deleteLater();
  process_ = new QProcess(this);
  stdout_buffer_.clear();
  stderr_text_.clear();
  summary_.clear();
  written_.clear();
  cancel_requested_ = false;
  saw_cancelled_ = false;
  reported_ = false;
  ++generation_;
  snapshot_queue_.clear();
  snapshot_loading_ = false;
  snapshots_loaded_ = 0;
  pending_report_ = nullptr;
  connect(process_, &QProcess::readyReadStandardOutput, this, &ExternalRun::readStdout);
  connect(process_, &QProcess::readyReadStandardError, this, &ExternalRun::readStderr);
  connect(process_, &QProcess::finished, this, &ExternalRun::onFinished);
  connect(process_, &QProcess::errorOccurred, this, &ExternalRun::onError);
  emit logMessage(tr("Starting: %1 %2").arg(program_, arguments_.join(QLatin1Char(' '))));
  process_->start(program_, arguments_);
  return true;
}

void ExternalRun::cancel(int kill_after_ms) {
  if (!running())
    return;
  cancel_requested_ = true;
  snapshot_queue_.clear();  // a stopped run's remaining snapshots are not worth reading
  process_->terminate();
  kill_timer_->start(kill_after_ms);
}

void ExternalRun::readStdout() {
  stdout_buffer_ += process_->readAllStandardOutput();
  qsizetype newline;
  while ((newline = stdout_buffer_.indexOf('\n')) >= 0) {
    const QByteArray line = stdout_buffer_.left(newline);
    stdout_buffer_.remove(0, newline + 1);
    if (line.trimmed().isEmpty())
      continue;
    const auto result = JsonEventParser::feed(line, observer_);
    switch (result.kind) {
      case JsonEventParser::Kind::Observer:
        break;
      case JsonEventParser::Kind::Finished:
        summary_ = result.message;
        emit logMessage(result.message);
        break;
      case JsonEventParser::Kind::Wrote:
        written_ << result.path;
        emit logMessage(result.message);
        break;
      case JsonEventParser::Kind::Cancelled:
        saw_cancelled_ = true;
        emit logMessage(result.message);
        break;
      case JsonEventParser::Kind::Snapshot:
        queueSnapshot(result.path, result.name, result.iteration);
        break;
      default:
        emit logMessage(result.message);
        break;
    }
  }
}

void ExternalRun::readStderr() {
  const QString text = QString::fromLocal8Bit(process_->readAllStandardError());
  stderr_text_ += text;
  for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
    emit logMessage(line);
}

void ExternalRun::onFinished(int exit_code, QProcess::ExitStatus status) {
  kill_timer_->stop();
  readStdout();
  if (!stdout_buffer_.trimmed().isEmpty()) {
    stdout_buffer_ += '\n';
    readStdout();
  }
  readStderr();
  if (reported_)
    return;
  reported_ = true;
  if (cancel_requested_ || saw_cancelled_) {
    snapshot_queue_.clear();
    reportWhenIdle([this] { emit cancelled(); });
    return;
  }
  if (status == QProcess::NormalExit && exit_code == 0) {
    // Every snapshot announced before the end reaches the views before finished().
    reportWhenIdle([this] { emit finished(summary_, written_); });
    return;
  }
  QString message = status == QProcess::CrashExit
                        ? tr("%1 crashed").arg(program_)
                        : tr("%1 exited with status %2").arg(program_).arg(exit_code);
  const QString err = stderr_text_.trimmed();
  if (!err.isEmpty())
    message += QStringLiteral(": ") + err.section(QLatin1Char('\n'), -3);
  snapshot_queue_.clear();
  reportWhenIdle([this, message] { emit failed(message); });
}

void ExternalRun::onError(QProcess::ProcessError error) {
  if (error != QProcess::FailedToStart || reported_)
    return;
  reported_ = true;
  snapshot_queue_.clear();
  const QString message =
      tr("Could not start launcher \"%1\": %2").arg(program_, process_->errorString());
  reportWhenIdle([this, message] { emit failed(message); });
}

void ExternalRun::queueSnapshot(const QString& path, const QString& name, int iteration) {
  if (cancel_requested_)
    return;
  snapshot_queue_.push_back({path, name, iteration});
  loadNextSnapshot();
}

void ExternalRun::loadNextSnapshot() {
  if (snapshot_loading_)
    return;
  if (snapshot_queue_.empty()) {
    if (pending_report_) {
      auto report = std::move(pending_report_);
      pending_report_ = nullptr;
      report();
    }
    return;
  }
  const PendingSnapshot next = snapshot_queue_.front();
  snapshot_queue_.pop_front();
  snapshot_loading_ = true;
  struct Loaded {
    std::shared_ptr<const apertura::engine::ImageSnapshot> image;
    QString error;
  };
  // One file at a time, in the order announced, so the model views and the iteration stack see the
  // iterations in order. The task holds no pointer to this object.
  auto* watcher = new QFutureWatcher<Loaded>(this);
  const unsigned generation = generation_;
  connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher, generation] {
    const Loaded loaded = watcher->result();
    watcher->deleteLater();
    if (generation != generation_)
      return;  // a new run started meanwhile; it has its own queue
    snapshot_loading_ = false;
    if (loaded.image) {
      ++snapshots_loaded_;
      observer_.snapshot(loaded.image);
    } else {
      emit logMessage(tr("launcher run: snapshot not shown: %1").arg(loaded.error));
    }
    loadNextSnapshot();
  });
  watcher->setFuture(QtConcurrent::run([next]() -> Loaded {
    try {
      return {readSnapshotFile(next.path, next.name, next.iteration), {}};
    } catch (const std::exception& e) {
      return {nullptr, QString::fromUtf8(e.what())};
    }
  }));
}

void ExternalRun::reportWhenIdle(std::function<void()> report) {
  if (!snapshot_loading_ && snapshot_queue_.empty()) {
    report();
    return;
  }
  pending_report_ = std::move(report);
}

}  // namespace apertura::gui
