// The convergence charts' x axis: whole-number tick steps, so a run of a few iterations is labelled
// "1 2 3 4", never "1 2 2 3 3 4" (issue #8).
#include <QApplication>
#include <QLineSeries>
#include <QValueAxis>
#include <QtTest>

#include <cmath>
#include <set>

#include "core/engine/run_observer.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/metrics_chart.h"

using apertura::gui::ConvergencePanel;
using apertura::gui::MetricsChart;

namespace {

// The labels the axis draws: ticks from the anchor every interval within the range, printed with
// the axis' label format.
QStringList tickLabels(const QValueAxis& axis) {
  QStringList labels;
  const double step = axis.tickInterval();
  const double anchor = axis.tickAnchor();
  double t = anchor + std::ceil((axis.min() - anchor) / step - 1e-9) * step;
  for (; t <= axis.max() + 1e-9 && labels.size() < 1000; t += step)
    labels << QString::asprintf(axis.labelFormat().toLatin1().constData(), t);
  return labels;
}

}  // namespace

class TestMetricsChart : public QObject {
  Q_OBJECT
 private slots:
  void tickIntervalIsWholeAndAboutSixTicks() {
    QCOMPARE(MetricsChart::xTickInterval(1.0), 1.0);
    QCOMPARE(MetricsChart::xTickInterval(3.0), 1.0);
    QCOMPARE(MetricsChart::xTickInterval(5.0), 1.0);
    QCOMPARE(MetricsChart::xTickInterval(19.0), 2.0);
    QCOMPARE(MetricsChart::xTickInterval(30.0), 5.0);
    QCOMPARE(MetricsChart::xTickInterval(100.0), 10.0);
    QCOMPARE(MetricsChart::xTickInterval(1000.0), 100.0);
    QCOMPARE(MetricsChart::xTickInterval(0.0), 1.0);
  }

  // A run of four iterations: ticks 1, 2, 3, 4, each label once.
  void fewIterationsGiveDistinctIntegerLabels() {
    ConvergencePanel panel;
    QVector<apertura::engine::IterationMetrics> metrics;
    for (int i = 1; i <= 4; ++i) {
      apertura::engine::IterationMetrics m;
      m.iteration = i;
      m.objective = 100.0 / i;
      m.terms = {{"chi2", 90.0 / i}};
      m.chi2_per_dof = 1.0 + 1.0 / i;
      m.gradient_norm = 1.0 / i;
      m.step = 0.1;
      m.seconds = 0.01;
      metrics << m;
    }
    panel.addIterations(metrics);
    const QValueAxis* x = panel.objectiveChart()->xAxis();
    QVERIFY(x);
    QCOMPARE(x->tickType(), QValueAxis::TicksDynamic);
    QCOMPARE(x->tickInterval(), 1.0);
    QCOMPARE(x->labelFormat(), QString("%.0f"));
    const QStringList labels = tickLabels(*x);
    QCOMPARE(labels, QStringList({"1", "2", "3", "4"}));
  }

  // Whatever the span, the labels never repeat.
  void labelsNeverRepeat() {
    for (int n : {2, 3, 5, 7, 9, 13, 40, 101, 999}) {
      MetricsChart chart("t", "iteration", "y", false);
      QList<QPointF> points;
      for (int i = 0; i < n; ++i)
        points << QPointF(i + 1, 1.0 + i);
      chart.append("s", points);
      const QStringList labels = tickLabels(*chart.xAxis());
      const std::set<QString> unique(labels.begin(), labels.end());
      QVERIFY2(unique.size() == std::size_t(labels.size()),
               qPrintable(QString("%1 iterations: %2").arg(n).arg(labels.join(' '))));
      QVERIFY2(labels.size() >= 2 && labels.size() <= 13,
               qPrintable(QString("%1 iterations: %2").arg(n).arg(labels.join(' '))));
    }
  }
};

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  TestMetricsChart test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_metrics_chart.moc"
