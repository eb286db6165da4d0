#pragma once

#include <optional>

#include "core/project/project_settings.h"
#include "gui/view/image_renderer.h"

namespace apertura::gui {

class ImagePanel;

// Conversions between an image panel's state and the project's ViewSettings (the names the
// toolbar shows: "viridis", "asinh", "percentile", ...).
apertura::project::ViewSettings viewFromDisplay(const DisplaySettings& display);
// Unknown names (validation rejects them, so only in-memory misuse) fall back to the defaults.
DisplaySettings displayFromView(const apertura::project::ViewSettings& view);

// The display settings and geometry of `panel`. A view that fits its window (or shows no image)
// saves zoom "auto", so it keeps fitting after reopening in a differently sized window.
apertura::project::ViewSettings captureView(const ImagePanel& panel);

// The geometry part of a view, applied once the panel shows an image.
struct ViewGeometry {
  std::optional<double> zoom;  // nullopt: fit to the window
  double center_x = 0.0;
  double center_y = 0.0;
};
ViewGeometry geometryOf(const apertura::project::ViewSettings& view);
void applyGeometry(ImagePanel& panel, const ViewGeometry& geometry);

}  // namespace apertura::gui
