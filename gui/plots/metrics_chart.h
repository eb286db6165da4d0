#pragma once

#include <QChartView>
#include <QMap>
#include <QString>

class QLineSeries;
class QAbstractAxis;
class QValueAxis;

namespace apertura::gui {

// A live line chart: named series appended in batches, axes that follow the data, optional log
// y axis (non-positive values are skipped there, as a log plot cannot show them).
class MetricsChart : public QChartView {
  Q_OBJECT

 public:
  MetricsChart(const QString& title, const QString& x_label, const QString& y_label, bool log_y,
               QWidget* parent = nullptr);

  void append(const QString& series, const QList<QPointF>& points);
  void clear();
  int pointCount(const QString& series) const;
  QStringList seriesNames() const { return series_.keys(); }
  // The x axis (iterations or seconds), labelled with whole numbers.
  QValueAxis* xAxis() const;
  // Tick step for an x span: 1, 2 or 5 times a power of ten giving about six ticks, at least 1
  // and whole, so integer labels never repeat.
  static double xTickInterval(double span);

 private:
  QLineSeries* seriesFor(const QString& name);
  void rescale();

  bool log_y_;
  QAbstractAxis* x_axis_;
  QAbstractAxis* y_axis_;
  QMap<QString, QLineSeries*> series_;
  double x_min_ = 0, x_max_ = 1, y_min_ = 0, y_max_ = 1;
  bool empty_ = true;
};

}  // namespace apertura::gui
