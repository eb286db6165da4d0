#include "gui/plots/convergence_panel.h"

#include <QMap>

#include "gui/plots/lambda_path_chart.h"
#include "gui/plots/metrics_chart.h"

namespace apertura::gui {

ConvergencePanel::ConvergencePanel(QWidget* parent)
    : QTabWidget(parent),
      objective_(new MetricsChart(tr("Objective and terms"), tr("iteration"), tr("value"), true)),
      chi2_(new MetricsChart(tr("χ² per degree of freedom"), tr("iteration"), tr("χ²/dof"), true)),
      gradient_(new MetricsChart(tr("Gradient norm and step"), tr("iteration"), "", true)),
      timing_(new MetricsChart(tr("Time per iteration"), tr("iteration"), tr("seconds"), false)),
      memory_(new MetricsChart(tr("Memory"), tr("elapsed (s)"), tr("MiB"), false)),
      lambda_path_(new LambdaPathChart) {
  addTab(objective_, tr("Objective"));
  addTab(chi2_, tr("χ²/dof"));
  addTab(gradient_, tr("Gradient"));
  addTab(timing_, tr("Timing"));
  addTab(memory_, tr("Memory"));
  addTab(lambda_path_, tr("λ path"));
}

void ConvergencePanel::clear() {
  for (MetricsChart* c : {objective_, chi2_, gradient_, timing_, memory_})
    c->clear();
  lambda_path_->clear();
  metrics_.clear();
}

void ConvergencePanel::addIterations(const QVector<engine::IterationMetrics>& metrics) {
  metrics_ += metrics;
  QList<QPointF> objective, chi2, grad, step, seconds;
  QMap<QString, QList<QPointF>> terms;
  for (const auto& m : metrics) {
    const double x = m.iteration;
    objective.append({x, m.objective});
    chi2.append({x, m.chi2_per_dof});
    grad.append({x, m.gradient_norm});
    step.append({x, m.step});
    seconds.append({x, m.seconds});
    for (const auto& [name, value] : m.terms)
      terms[QString::fromStdString(name)].append({x, value});
  }
  objective_->append(tr("objective"), objective);
  for (auto it = terms.begin(); it != terms.end(); ++it)
    objective_->append(it.key(), it.value());
  chi2_->append(tr("χ²/dof"), chi2);
  gradient_->append(tr("|gradient|"), grad);
  gradient_->append(tr("step"), step);
  timing_->append(tr("seconds"), seconds);
}

void ConvergencePanel::addResources(const engine::ResourceSample& s) {
  constexpr double kMiB = 1024.0 * 1024.0;
  memory_->append(tr("RSS"), {{s.wall_s, s.rss_bytes / kMiB}});
  memory_->append(tr("peak RSS"), {{s.wall_s, s.peak_rss_bytes / kMiB}});
  memory_->append(tr("engine buffers"), {{s.wall_s, s.tracked_bytes / kMiB}});
  if (s.gpu_bytes > 0)
    memory_->append(tr("GPU"), {{s.wall_s, s.gpu_bytes / kMiB}});
}

}  // namespace apertura::gui
