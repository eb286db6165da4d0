#include "gui/view/colorbar_widget.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace apertura::gui {

std::vector<double> niceTicks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!(hi > lo) || target < 1)
    return ticks;
  const double raw = (hi - lo) / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= raw)
      break;
  }
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step)
    ticks.push_back(std::abs(v) < 1e-9 * step ? 0.0 : v);
  return ticks;
}

UnitScale readableUnit(const QString& unit, double max_abs_value) {
  if (!unit.startsWith("Jy") || max_abs_value <= 0.0 || max_abs_value >= 0.1)
    return {1.0, unit};
  if (max_abs_value >= 1e-4)
    return {1e3, "m" + unit};
  return {1e6, QString::fromUtf8("\u00b5") + unit};
}

ColorbarWidget::ColorbarWidget(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
}

void ColorbarWidget::setScale(const ColorTable& table, ValueRange range, std::vector<Tick> ticks,
                              const QString& unit) {
  table_ = table;
  range_ = range;
  ticks_ = std::move(ticks);
  scale_ = readableUnit(unit, std::max(std::abs(range.min), std::abs(range.max)));
  unit_label_ = scale_.unit;
  has_scale_ = true;
  update();
}

void ColorbarWidget::clear() {
  has_scale_ = false;
  ticks_.clear();
  unit_label_.clear();
  update();
}

void ColorbarWidget::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  if (!has_scale_)
    return;
  const QFontMetrics metrics(font());
  const int text_h = metrics.height();
  const QRect bar(6, text_h + 10, 16, height() - 2 * text_h - 16);
  if (bar.height() < 8)
    return;
  for (int y = 0; y < bar.height(); ++y) {
    const double level = 1.0 - (y + 0.5) / bar.height();
    const auto index =
        static_cast<std::size_t>(std::clamp(static_cast<int>(level * 256.0), 0, 255));
    painter.setPen(QColor::fromRgb(table_[index]));
    painter.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
  }
  painter.setPen(palette().color(QPalette::WindowText));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(bar.adjusted(0, 0, -1, -1));

  // Labels closer than a line of text to the previous one are skipped (log stretches bunch up).
  double last_label_y = 1e9;
  for (const Tick& tick : ticks_) {
    const double y = bar.bottom() - tick.level * bar.height();
    if (tick.level < -1e-9 || tick.level > 1.0 + 1e-9)
      continue;
    painter.drawLine(QPointF(bar.right() + 1, y), QPointF(bar.right() + 5, y));
    if (std::abs(y - last_label_y) < text_h)
      continue;
    last_label_y = y;
    const QString label = QString::number(tick.value * scale_.factor, 'g', 4);
    painter.drawText(QRectF(bar.right() + 8, y - text_h / 2.0, width() - bar.right() - 8, text_h),
                     Qt::AlignLeft | Qt::AlignVCenter, label);
  }
  painter.drawText(QRect(0, 2, width(), text_h), Qt::AlignHCenter | Qt::AlignVCenter, unit_label_);
}

}  // namespace apertura::gui
