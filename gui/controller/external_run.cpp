#include "gui/controller/external_run.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include "gui/controller/json_event_parser.h"

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
                        const QString& project_path) {
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
    emit cancelled();
    return;
  }
  if (status == QProcess::NormalExit && exit_code == 0) {
    emit finished(summary_, written_);
    return;
  }
  QString message = status == QProcess::CrashExit
                        ? tr("%1 crashed").arg(program_)
                        : tr("%1 exited with status %2").arg(program_).arg(exit_code);
  const QString err = stderr_text_.trimmed();
  if (!err.isEmpty())
    message += QStringLiteral(": ") + err.section(QLatin1Char('\n'), -3);
  emit failed(message);
}

void ExternalRun::onError(QProcess::ProcessError error) {
  if (error != QProcess::FailedToStart || reported_)
    return;
  reported_ = true;
  emit failed(tr("Could not start launcher \"%1\": %2").arg(program_, process_->errorString()));
}

}  // namespace apertura::gui
