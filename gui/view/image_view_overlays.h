#pragma once

#include <QRectF>

#include "gui/view/image_data.h"

class QPainter;

namespace apertura::gui {

// The clean beam as an ellipse in a box at the bottom-left corner of `area`, drawn at the current
// zoom (screen pixels per image pixel). Nothing is drawn without a beam or a sky grid.
void drawBeamEllipse(QPainter& painter, const QRectF& area, const ImageData& image, double zoom);

// North and east arrows at the top-right corner, following the sign of the RA cell size.
void drawCompass(QPainter& painter, const QRectF& area, const ImageWcs& wcs);

}  // namespace apertura::gui
