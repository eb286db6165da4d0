#pragma once

#include <QTabWidget>
#include <QVector>

#include "core/engine/run_observer.h"

namespace apertura::gui {

class LambdaPathChart;
class MetricsChart;

// The live plots of a run: objective and terms (log), chi2 per degree of freedom, gradient norm
// and step length (log), time per iteration, and memory over time; after a run with an automatic
// λ, the path that chose it.
class ConvergencePanel : public QTabWidget {
  Q_OBJECT

 public:
  explicit ConvergencePanel(QWidget* parent = nullptr);

  void clear();
  MetricsChart* objectiveChart() const { return objective_; }
  MetricsChart* memoryChart() const { return memory_; }
  LambdaPathChart* lambdaPathChart() const { return lambda_path_; }
  // Every iteration received since clear(), in order (for the metrics CSV export).
  const QVector<apertura::engine::IterationMetrics>& metrics() const { return metrics_; }

 public slots:
  void addIterations(const QVector<apertura::engine::IterationMetrics>& metrics);
  void addResources(const apertura::engine::ResourceSample& sample);

 private:
  MetricsChart* objective_;
  MetricsChart* chi2_;
  MetricsChart* gradient_;
  MetricsChart* timing_;
  MetricsChart* memory_;
  LambdaPathChart* lambda_path_;
  QVector<apertura::engine::IterationMetrics> metrics_;
};

}  // namespace apertura::gui
