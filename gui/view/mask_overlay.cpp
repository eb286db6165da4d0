#include "gui/view/mask_overlay.h"

#include <QPainter>
#include <QPolygonF>

namespace apertura::gui {
namespace {

const QColor kAddColour(70, 230, 110);
const QColor kSubtractColour(255, 80, 70);
const QColor kSketchColour(255, 220, 60);

// Draws one region's outline; returns a point to label it at (its first vertex or top).
QPointF drawRegion(QPainter& painter, const project::MaskRegion& r, const ImageToWidget& map,
                   double zoom, bool closed) {
  const std::vector<double>& v = r.values;
  if (r.shape == "rectangle" && v.size() == 4) {
    const QPolygonF box(
        {map({v[0], v[1]}), map({v[2], v[1]}), map({v[2], v[3]}), map({v[0], v[3]})});
    painter.drawPolygon(box);
    return box.boundingRect().topLeft();
  }
  if (r.shape == "ellipse" && v.size() == 5) {
    const QPointF centre = map({v[0], v[1]});
    painter.save();
    painter.translate(centre);
    // Counter-clockwise in the image (y up) is clockwise on screen (y down).
    painter.rotate(-v[4]);
    painter.drawEllipse(QPointF(0.0, 0.0), v[2] * zoom, v[3] * zoom);
    painter.restore();
    return centre + QPointF(0.0, -v[3] * zoom);
  }
  if (r.shape == "polygon" && v.size() >= 4) {
    QPolygonF poly;
    for (std::size_t i = 0; i + 1 < v.size(); i += 2)
      poly << map({v[i], v[i + 1]});
    if (closed)
      painter.drawPolygon(poly);
    else
      painter.drawPolyline(poly);
    return poly.first();
  }
  return {};
}

QPen outlinePen(const QColor& colour, bool dashed) {
  QPen pen(colour, 1.6);
  pen.setCosmetic(true);
  if (dashed)
    pen.setStyle(Qt::DashLine);
  return pen;
}

}  // namespace

void drawMaskOverlay(QPainter& painter, const std::vector<project::MaskRegion>& regions,
                     const std::optional<project::MaskRegion>& sketch, const ImageToWidget& map,
                     double zoom) {
  if (regions.empty() && !sketch)
    return;
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setBrush(Qt::NoBrush);
  QFont font = painter.font();
  font.setPointSizeF(8.0);
  font.setBold(true);
  painter.setFont(font);
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const auto& r = regions[i];
    const QColor colour = r.subtract ? kSubtractColour : kAddColour;
    painter.setPen(outlinePen(colour, r.subtract));
    const QPointF label = drawRegion(painter, r, map, zoom, true);
    painter.setPen(colour);
    painter.drawText(label + QPointF(2.0, -3.0), QString::number(i + 1));
  }
  if (sketch) {
    painter.setPen(outlinePen(sketch->subtract ? kSubtractColour : kSketchColour, true));
    drawRegion(painter, *sketch, map, zoom, sketch->shape != "polygon");
  }
  painter.restore();
}

}  // namespace apertura::gui
