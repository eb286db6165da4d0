#pragma once

#include <QPointF>
#include <QString>
#include <QVector>

#include <optional>

#include "core/project/project_settings.h"

namespace apertura::gui {

// What a left-button drag or click does on an image view.
enum class MaskTool { Pan, Rectangle, Ellipse, Polygon };

QString maskToolName(MaskTool tool);

// The mask region being drawn, in image pixel coordinates (0-based, y up). Rectangles and
// ellipses are dragged corner to corner (the ellipse fills the dragged box); polygons collect
// clicked vertices and close on a double click. The view feeds it mouse positions already
// converted to image coordinates, so it knows nothing about zoom.
class MaskSketch {
 public:
  bool active() const { return tool_ != MaskTool::Pan; }
  MaskTool tool() const { return tool_; }
  bool subtract() const { return subtract_; }

  // Starts a shape at `p` (the first corner, or the first polygon vertex).
  void begin(MaskTool tool, QPointF p, bool subtract);
  // The cursor moved: the opposite corner, or the rubber-band end of a polygon.
  void moveTo(QPointF p) { cursor_ = p; }
  // Rectangle / ellipse: the button went up at `p`. The region, or nullopt (and the sketch
  // ends) when the drag is smaller than `min_size` pixels along either axis.
  std::optional<project::MaskRegion> finishDrag(QPointF p, double min_size);
  // Polygon: adds `p` unless it lies within `min_distance` pixels of the last vertex (a double
  // click delivers its position twice).
  void addVertex(QPointF p, double min_distance);
  // Polygon: the closed region when it has at least 3 vertices; the sketch ends either way.
  std::optional<project::MaskRegion> closePolygon();
  void cancel();

  // The shape as it would be if finished now (for the rubber band), nullopt when inactive.
  std::optional<project::MaskRegion> preview() const;

 private:
  project::MaskRegion dragRegion(QPointF a, QPointF b) const;

  MaskTool tool_ = MaskTool::Pan;
  bool subtract_ = false;
  QPointF anchor_;
  QPointF cursor_;
  QVector<QPointF> vertices_;
};

}  // namespace apertura::gui
