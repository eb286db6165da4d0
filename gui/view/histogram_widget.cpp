#include "gui/view/histogram_widget.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace apertura::gui {

HistogramWidget::HistogramWidget(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(90);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void HistogramWidget::setSamples(std::vector<float> samples, ValueRange data_range,
                                 const QString& unit) {
  samples_ = std::move(samples);
  data_range_ = data_range;
  unit_ = unit;
  recount();
}

void HistogramWidget::setClipRange(ValueRange clip) {
  clip_ = clip;
  recount();
}

void HistogramWidget::recount() {
  ValueRange range = data_range_;
  if (clip_.valid()) {
    const double margin = 0.5 * (clip_.max - clip_.min);
    range = {std::max(data_range_.min, clip_.min - margin),
             std::min(data_range_.max, clip_.max + margin)};
    range.min = std::min(range.min, clip_.min);  // a user range may extend past the data
    range.max = std::max(range.max, clip_.max);
  }
  plot_range_ = range;
  counts_ = histogramCounts(samples_.data(), samples_.size(), range.min, range.max, kBins);
  update();
}

void HistogramWidget::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), QColor(30, 30, 36));
  const QFontMetrics metrics(font());
  const QRectF plot(8.0, 6.0, width() - 16.0, height() - metrics.height() - 12.0);
  if (counts_.empty() || !plot_range_.valid() || plot.height() < 10.0)
    return;
  const double peak = std::log10(1.0 + *std::max_element(counts_.begin(), counts_.end()));
  const double bin_w = plot.width() / static_cast<double>(counts_.size());
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(120, 170, 230));
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    const double h = peak > 0.0 ? plot.height() * std::log10(1.0 + counts_[i]) / peak : 0.0;
    painter.drawRect(QRectF(plot.left() + i * bin_w, plot.bottom() - h, bin_w, h));
  }
  // Shade what the colour scale saturates and draw the clip limits.
  const auto xOf = [&](double v) {
    return plot.left() + plot.width() * (v - plot_range_.min) / (plot_range_.max - plot_range_.min);
  };
  if (clip_.valid()) {
    const double x0 = xOf(clip_.min);
    const double x1 = xOf(clip_.max);
    painter.setBrush(QColor(0, 0, 0, 110));
    painter.drawRect(QRectF(plot.left(), plot.top(), x0 - plot.left(), plot.height()));
    painter.drawRect(QRectF(x1, plot.top(), plot.right() - x1, plot.height()));
    painter.setPen(QPen(QColor(255, 170, 60), 1.5));
    painter.drawLine(QPointF(x0, plot.top()), QPointF(x0, plot.bottom()));
    painter.drawLine(QPointF(x1, plot.top()), QPointF(x1, plot.bottom()));
  }
  painter.setPen(QColor(200, 200, 210));
  const QRectF labels(plot.left(), plot.bottom() + 3.0, plot.width(), metrics.height());
  painter.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter,
                   QString::number(plot_range_.min, 'g', 4));
  painter.drawText(labels, Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(plot_range_.max, 'g', 4) + " " + unit_);
  if (clip_.valid()) {
    painter.setPen(QColor(255, 190, 110));
    painter.drawText(labels, Qt::AlignHCenter | Qt::AlignVCenter,
                     tr("clip %1 .. %2").arg(clip_.min, 0, 'g', 4).arg(clip_.max, 0, 'g', 4));
  }
}

}  // namespace apertura::gui
