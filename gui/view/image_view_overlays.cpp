#include "gui/view/image_view_overlays.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace apertura::gui {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMargin = 10.0;
constexpr double kPadding = 6.0;

// +1 when east is to the left on screen (negative RA cell, the astronomical convention).
double eastSign(const ImageWcs& wcs) {
  return wcs.cell_x_rad < 0.0 ? 1.0 : -1.0;
}

}  // namespace

void drawBeamEllipse(QPainter& painter, const QRectF& area, const ImageData& image, double zoom) {
  if (!image.beam || !image.wcs.valid() || image.beam->major_rad <= 0.0)
    return;
  // Semi-axes in screen pixels; the beam is measured in arc along the sky, like the Dec cell.
  const double cell = std::abs(image.wcs.cell_y_rad);
  const double a = std::max(0.5 * image.beam->major_rad / cell * zoom, 1.0);
  const double b = std::max(0.5 * image.beam->minor_rad / cell * zoom, 1.0);
  const double pa = image.beam->position_angle_deg * kPi / 180.0;
  const double half_w = std::hypot(a * std::sin(pa), b * std::cos(pa));
  const double half_h = std::hypot(a * std::cos(pa), b * std::sin(pa));
  const QRectF box(area.left() + kMargin, area.bottom() - kMargin - 2.0 * (half_h + kPadding),
                   2.0 * (half_w + kPadding), 2.0 * (half_h + kPadding));
  painter.save();
  painter.setPen(QPen(QColor(200, 200, 210, 160), 1.0));
  painter.setBrush(QColor(0, 0, 0, 120));
  painter.drawRect(box);
  painter.translate(box.center());
  // Position angle runs from north through east; Qt's rotate() is clockwise on screen.
  painter.rotate(-eastSign(image.wcs) * image.beam->position_angle_deg);
  painter.setPen(QPen(QColor(255, 255, 255), 1.5));
  painter.setBrush(QColor(255, 255, 255, 90));
  painter.drawEllipse(QPointF(0.0, 0.0), b, a);
  painter.restore();
}

void drawCompass(QPainter& painter, const QRectF& area, const ImageWcs& wcs) {
  if (!wcs.valid())
    return;
  const double length = 28.0;
  const QPointF origin(area.right() - kMargin - (eastSign(wcs) > 0 ? 8.0 : length + 14.0),
                       area.top() + kMargin + length + 4.0);
  const QPointF north = origin + QPointF(0.0, -length);
  const QPointF east = origin + QPointF(-eastSign(wcs) * length, 0.0);
  painter.save();
  painter.setPen(QPen(QColor(230, 230, 235, 220), 1.5));
  painter.drawLine(origin, north);
  painter.drawLine(origin, east);
  QFont font = painter.font();
  font.setPointSizeF(8.0);
  painter.setFont(font);
  painter.drawText(QRectF(north.x() - 8, north.y() - 14, 16, 12), Qt::AlignCenter, "N");
  const double text_x = eastSign(wcs) > 0 ? east.x() - 14 : east.x() + 2;
  painter.drawText(QRectF(text_x, east.y() - 6, 12, 12), Qt::AlignCenter, "E");
  painter.restore();
}

}  // namespace apertura::gui
