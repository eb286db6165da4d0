#include "gui/view/mask_tool.h"

#include <QLineF>

#include <algorithm>
#include <cmath>

namespace apertura::gui {

QString maskToolName(MaskTool tool) {
  switch (tool) {
    case MaskTool::Rectangle:
      return QStringLiteral("rectangle");
    case MaskTool::Ellipse:
      return QStringLiteral("ellipse");
    case MaskTool::Polygon:
      return QStringLiteral("polygon");
    case MaskTool::Pan:
      break;
  }
  return QStringLiteral("pan");
}

void MaskSketch::begin(MaskTool tool, QPointF p, bool subtract) {
  tool_ = tool;
  subtract_ = subtract;
  anchor_ = cursor_ = p;
  vertices_.clear();
  if (tool == MaskTool::Polygon)
    vertices_.push_back(p);
}

project::MaskRegion MaskSketch::dragRegion(QPointF a, QPointF b) const {
  if (tool_ == MaskTool::Ellipse) {
    return {"ellipse",
            subtract_,
            {(a.x() + b.x()) / 2.0, (a.y() + b.y()) / 2.0, std::abs(b.x() - a.x()) / 2.0,
             std::abs(b.y() - a.y()) / 2.0, 0.0}};
  }
  return {"rectangle",
          subtract_,
          {std::min(a.x(), b.x()), std::min(a.y(), b.y()), std::max(a.x(), b.x()),
           std::max(a.y(), b.y())}};
}

std::optional<project::MaskRegion> MaskSketch::finishDrag(QPointF p, double min_size) {
  if (tool_ != MaskTool::Rectangle && tool_ != MaskTool::Ellipse)
    return std::nullopt;
  std::optional<project::MaskRegion> region;
  if (std::abs(p.x() - anchor_.x()) >= min_size && std::abs(p.y() - anchor_.y()) >= min_size)
    region = dragRegion(anchor_, p);
  cancel();
  return region;
}

void MaskSketch::addVertex(QPointF p, double min_distance) {
  if (tool_ != MaskTool::Polygon)
    return;
  if (!vertices_.isEmpty() && QLineF(vertices_.last(), p).length() < min_distance)
    return;
  vertices_.push_back(p);
  cursor_ = p;
}

std::optional<project::MaskRegion> MaskSketch::closePolygon() {
  if (tool_ != MaskTool::Polygon)
    return std::nullopt;
  std::optional<project::MaskRegion> region;
  if (vertices_.size() >= 3) {
    region = project::MaskRegion{"polygon", subtract_, {}};
    for (const QPointF& v : vertices_) {
      region->values.push_back(v.x());
      region->values.push_back(v.y());
    }
  }
  cancel();
  return region;
}

void MaskSketch::cancel() {
  tool_ = MaskTool::Pan;
  vertices_.clear();
}

std::optional<project::MaskRegion> MaskSketch::preview() const {
  if (tool_ == MaskTool::Rectangle || tool_ == MaskTool::Ellipse)
    return dragRegion(anchor_, cursor_);
  if (tool_ == MaskTool::Polygon) {
    project::MaskRegion r{"polygon", subtract_, {}};
    for (const QPointF& v : vertices_) {
      r.values.push_back(v.x());
      r.values.push_back(v.y());
    }
    if (QLineF(vertices_.last(), cursor_).length() > 0.0) {
      r.values.push_back(cursor_.x());
      r.values.push_back(cursor_.y());
    }
    return r;
  }
  return std::nullopt;
}

}  // namespace apertura::gui
