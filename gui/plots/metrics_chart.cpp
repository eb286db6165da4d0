#include "gui/plots/metrics_chart.h"

#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace apertura::gui {

MetricsChart::MetricsChart(const QString& title, const QString& x_label, const QString& y_label,
                           bool log_y, QWidget* parent)
    : QChartView(parent), log_y_(log_y) {
  auto* c = new QChart;
  // The dock is short: the title goes to the tooltip (the tab names the chart) and the legend to
  // the right, or Qt Charts elides the axis labels to fit the plot's height.
  setToolTip(title);
  c->legend()->setAlignment(Qt::AlignRight);
  c->setMargins(QMargins(4, 4, 4, 4));
  auto* x = new QValueAxis;
  x->setTitleText(x_label);
  x->setLabelFormat("%.0f");
  x->setTickType(QValueAxis::TicksDynamic);
  x->setTickInterval(10);
  x_axis_ = x;
  if (log_y_) {
    auto* y = new QLogValueAxis;
    y->setBase(10.0);
    y->setLabelFormat("%.0e");
    y->setMinorTickCount(0);
    y->setTitleText(y_label);
    y_axis_ = y;
  } else {
    auto* y = new QValueAxis;
    y->setLabelFormat("%.3g");
    y->setTitleText(y_label);
    y_axis_ = y;
  }
  c->addAxis(x_axis_, Qt::AlignBottom);
  c->addAxis(y_axis_, Qt::AlignLeft);
  setChart(c);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(180);
}

QLineSeries* MetricsChart::seriesFor(const QString& name) {
  auto it = series_.find(name);
  if (it != series_.end())
    return it.value();
  auto* s = new QLineSeries;
  s->setName(name);
  chart()->addSeries(s);
  s->attachAxis(x_axis_);
  s->attachAxis(y_axis_);
  series_.insert(name, s);
  return s;
}

void MetricsChart::append(const QString& name, const QList<QPointF>& points) {
  QList<QPointF> usable;
  usable.reserve(points.size());
  for (const QPointF& p : points) {
    if (!std::isfinite(p.x()) || !std::isfinite(p.y()) || (log_y_ && p.y() <= 0.0))
      continue;
    usable.append(p);
    if (empty_) {
      x_min_ = x_max_ = p.x();
      y_min_ = y_max_ = p.y();
      empty_ = false;
    }
    x_min_ = std::min(x_min_, p.x());
    x_max_ = std::max(x_max_, p.x());
    y_min_ = std::min(y_min_, p.y());
    y_max_ = std::max(y_max_, p.y());
  }
  if (usable.isEmpty())
    return;
  seriesFor(name)->append(usable);
  rescale();
}

void MetricsChart::rescale() {
  const double xr = x_max_ > x_min_ ? x_max_ - x_min_ : 1.0;
  x_axis_->setRange(x_min_, x_min_ + xr * 1.02);
  // About six labelled ticks whatever the span: 1, 2 or 5 times a power of ten, and never less
  // than 1: the labels are whole numbers ("%.0f"), so a step of 0.5 would print "1 2 2 3 3 4".
  static_cast<QValueAxis*>(x_axis_)->setTickInterval(xTickInterval(xr));
  static_cast<QValueAxis*>(x_axis_)->setTickAnchor(0.0);
  if (log_y_) {
    const double lo = std::pow(10.0, std::floor(std::log10(y_min_)));
    const double hi = std::pow(10.0, std::ceil(std::log10(y_max_ * 1.0001)));
    y_axis_->setRange(lo, hi > lo ? hi : lo * 10.0);
    // At most about five labels: wide ranges label every 10^k decades.
    const double decades = std::log10((hi > lo ? hi : lo * 10.0) / lo);
    static_cast<QLogValueAxis*>(y_axis_)->setBase(
        std::pow(10.0, std::max(1.0, std::ceil(decades / 5.0))));
  } else {
    const double pad = y_max_ > y_min_ ? 0.05 * (y_max_ - y_min_)
                                       : std::max(1e-12, std::fabs(y_max_) * 0.1 + 1e-12);
    y_axis_->setRange(y_min_ - pad, y_max_ + pad);
  }
}

void MetricsChart::clear() {
  for (QLineSeries* s : series_) {
    chart()->removeSeries(s);
    delete s;
  }
  series_.clear();
  empty_ = true;
}

double MetricsChart::xTickInterval(double span) {
  const double raw = std::max(span, 1e-9) / 6.0;
  const double p10 = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / p10 < 2.0 ? p10 : raw / p10 < 5.0 ? 2.0 * p10 : 5.0 * p10;
  return std::max(1.0, std::round(step));
}

QValueAxis* MetricsChart::xAxis() const {
  return static_cast<QValueAxis*>(x_axis_);
}

int MetricsChart::pointCount(const QString& name) const {
  auto it = series_.find(name);
  return it == series_.end() ? 0 : static_cast<int>(it.value()->count());
}

}  // namespace apertura::gui
