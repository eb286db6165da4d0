#pragma once

#include <QPointF>

#include <functional>
#include <optional>
#include <vector>

#include "core/project/project_settings.h"

class QPainter;

namespace apertura::gui {

// Maps an image position (0-based pixels, y up) to widget coordinates.
using ImageToWidget = std::function<QPointF(QPointF)>;

// Outlines of the mask regions over an image view: regions that add in solid green, regions that
// subtract in dashed red, each numbered as in the mask list; `sketch` (the shape being drawn) in
// dashed yellow. `zoom` is screen pixels per image pixel.
void drawMaskOverlay(QPainter& painter, const std::vector<project::MaskRegion>& regions,
                     const std::optional<project::MaskRegion>& sketch, const ImageToWidget& map,
                     double zoom);

}  // namespace apertura::gui
