#include "gui/window/run_status_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

#include <algorithm>
#include <cmath>

namespace apertura::gui {

namespace {
constexpr int kBarSteps = 1000;  // the bar counts per mille so long runs still move smoothly
}

RunStatusWidget::RunStatusWidget(QWidget* parent)
    : QWidget(parent),
      bar_(new QProgressBar),
      iteration_(new QLabel),
      elapsed_(new QLabel),
      memory_(new QLabel),
      backend_(new QLabel) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(10);
  layout->addWidget(iteration_);
  layout->addWidget(bar_);
  layout->addWidget(elapsed_);
  layout->addWidget(memory_);
  layout->addWidget(backend_);
  backend_->setObjectName("run-backend");
  bar_->setMinimumWidth(160);
  bar_->setMaximumWidth(260);
  bar_->setTextVisible(true);
  bar_->setAlignment(Qt::AlignCenter);
  iteration_->setToolTip(tr("Optimizer iterations done / maximum"));
  elapsed_->setToolTip(tr("Wall time since the run started"));
  memory_->setToolTip(tr("Resident memory of the process (peak in brackets)"));
  clock_.setInterval(1000);  // the label shows whole seconds
  connect(&clock_, &QTimer::timeout, this, &RunStatusWidget::refreshClock);
  setIndeterminate();
  hide();
}

std::optional<double> RunStatusWidget::estimateRemaining(const std::vector<double>& recent,
                                                         int remaining) {
  if (recent.empty())
    return std::nullopt;
  if (remaining <= 0)
    return 0.0;
  std::vector<double> sorted = recent;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  return median * remaining;
}

QString RunStatusWidget::formatDuration(double seconds) {
  const long long total = std::llround(std::max(0.0, seconds));
  const long long h = total / 3600;
  const long long m = (total / 60) % 60;
  const long long s = total % 60;
  if (h > 0)
    return QString("%1:%2:%3").arg(h).arg(m, 2, 10, QChar('0')).arg(s, 2, 10, QChar('0'));
  return QString("%1:%2").arg(m).arg(s, 2, 10, QChar('0'));
}

int RunStatusWidget::percent() const {
  if (indeterminate_)
    return -1;
  return static_cast<int>(std::lround(100.0 * bar_->value() / bar_->maximum()));
}

std::optional<double> RunStatusWidget::etaSeconds() const {
  if (stage_name_ != "optimize" || max_iterations_ <= 0)
    return std::nullopt;
  return estimateRemaining(std::vector<double>(recent_seconds_.begin(), recent_seconds_.end()),
                           max_iterations_ - done_);
}

QString RunStatusWidget::text() const {
  return QStringList{iteration_->text(), bar_->text(), elapsed_->text(), memory_->text(),
                     backend_->text()}
      .join("  ");
}

QString RunStatusWidget::backendText() const {
  return backend_->text().section(": ", 1);  // without the "Backend: " prefix
}

void RunStatusWidget::showIteration() {
  // Unknown in advance (an automatic lambda's path runs first): the count alone.
  iteration_->setText(max_iterations_ > 0 ? tr("Iteration %1/%2").arg(done_).arg(max_iterations_)
                                          : tr("Iteration %1").arg(done_));
}

void RunStatusWidget::start(int max_iterations) {
  max_iterations_ = std::max(0, max_iterations);
  done_ = 0;
  recent_seconds_.clear();
  stage_name_.clear();
  running_ = true;
  paused_ = false;
  paused_ms_ = 0;
  memory_->clear();
  backend_->clear();
  backend_->setToolTip(QString());
  showIteration();
  setIndeterminate();
  since_start_.start();
  clock_.start();
  refreshClock();
  show();
}

void RunStatusWidget::stageStarted(const QString& stage) {
  stage_name_ = stage;
  if (stage == "optimize" && max_iterations_ > 0) {
    setDeterminate(static_cast<double>(done_) / max_iterations_);
  } else {
    setIndeterminate();
  }
}

void RunStatusWidget::progress(double fraction, const QString& message) {
  // The operator factory's line: "cpu (auto: no CUDA device: ...); kernel=..." or
  // "cuda device 0: NVIDIA H200, 139.8 GiB (...), compute 9.0, 132 SMs (auto); backend=cuda ...".
  for (const QString& prefix :
       {QStringLiteral("operator: "), QStringLiteral("dirty image operator: ")}) {
    if (!message.startsWith(prefix))
      continue;
    const QString line = message.mid(prefix.size());
    const QString choice = line.section(';', 0, 0);
    QString label = tr("CPU");
    if (choice.startsWith("cuda device ")) {
      // "cuda device 0: NVIDIA H200, 139.8 GiB ..." -> "GPU 0: NVIDIA H200"
      const QString device = choice.mid(12).section(',', 0, 0);
      label = tr("GPU %1").arg(device);
    }
    backend_->setText(tr("Backend: %1").arg(label));
    backend_->setToolTip(tr("Imaging backend: %1").arg(line));
    break;
  }
  // The optimizer's own fraction is iterations / maximum; a stage-reported one applies elsewhere.
  if (!running_ || stage_name_ == "optimize" || !std::isfinite(fraction))
    return;
  setDeterminate(fraction);
}

void RunStatusWidget::addIterations(const QVector<engine::IterationMetrics>& metrics) {
  if (metrics.isEmpty())
    return;
  for (const auto& m : metrics) {
    done_ = std::max(done_, m.iteration);
    recent_seconds_.push_back(m.seconds);
    if (recent_seconds_.size() > kRecentIterations)
      recent_seconds_.pop_front();
  }
  showIteration();
  if (stage_name_ == "optimize" && max_iterations_ > 0)
    setDeterminate(static_cast<double>(done_) / max_iterations_);
}

void RunStatusWidget::addResources(const engine::ResourceSample& sample) {
  constexpr double kMiB = 1024.0 * 1024.0;
  QString text = tr("RSS %1 MiB (peak %2)")
                     .arg(sample.rss_bytes / kMiB, 0, 'f', 0)
                     .arg(sample.peak_rss_bytes / kMiB, 0, 'f', 0);
  if (sample.gpu_bytes > 0)
    text += tr(", GPU %1 MiB").arg(sample.gpu_bytes / kMiB, 0, 'f', 0);
  memory_->setText(text);
}

void RunStatusWidget::setPaused(bool paused) {
  if (!running_ || paused == paused_)
    return;
  paused_ = paused;
  if (paused) {
    pause_started_.start();
    clock_.stop();
    bar_->setFormat(indeterminate_ ? tr("Paused") : tr("Paused · %p%"));
    return;
  }
  paused_ms_ += pause_started_.elapsed();
  clock_.start();
  refreshClock();
  if (indeterminate_)
    setIndeterminate();
  else
    setDeterminate(double(bar_->value()) / kBarSteps);
}

void RunStatusWidget::finish(const QString& state) {
  if (paused_)
    paused_ms_ += pause_started_.elapsed();
  paused_ = false;
  running_ = false;
  clock_.stop();
  refreshClock();
  if (state == "finished") {
    stage_name_.clear();
    indeterminate_ = false;
    bar_->setRange(0, kBarSteps);
    bar_->setValue(kBarSteps);
    bar_->setFormat(tr("Done"));
  } else {
    indeterminate_ = false;
    bar_->setFormat(state == "cancelled" ? tr("Cancelled") : tr("Failed"));
  }
}

void RunStatusWidget::setDeterminate(double fraction) {
  indeterminate_ = false;
  bar_->setRange(0, kBarSteps);
  bar_->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * kBarSteps)));
  if (paused_) {  // the iteration that was under way when Pause was pressed
    bar_->setFormat(tr("Paused · %p%"));
    return;
  }
  const auto eta = etaSeconds();
  bar_->setFormat(eta ? tr("%p% · ETA %1").arg(formatDuration(*eta)) : QStringLiteral("%p%"));
}

void RunStatusWidget::setIndeterminate() {
  // Not QProgressBar's busy mode (range 0..0): styles animate it at full frame rate, and in a
  // window holding OpenGL views every frame recomposes the whole window, which on a software
  // renderer costs the event loop tens of milliseconds each time. The stage name and the elapsed
  // clock show that the run is alive.
  indeterminate_ = true;
  bar_->setRange(0, kBarSteps);
  bar_->setValue(0);
  if (paused_)
    bar_->setFormat(tr("Paused"));
  else
    bar_->setFormat(stage_name_.isEmpty() ? tr("Starting…") : tr("%1…").arg(stage_name_));
}

void RunStatusWidget::refreshClock() {
  if (since_start_.isValid())
    elapsed_->setText(
        tr("Elapsed %1").arg(formatDuration((since_start_.elapsed() - paused_ms_) / 1000.0)));
}

}  // namespace apertura::gui
