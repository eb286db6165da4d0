#include "gui/view/view_state.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"

namespace apertura::gui {
namespace {

const std::pair<StretchKind, const char*> kStretchNames[] = {
    {StretchKind::Linear, "linear"}, {StretchKind::Log, "log"},
    {StretchKind::Sqrt, "sqrt"},     {StretchKind::Asinh, "asinh"},
    {StretchKind::Power, "power"},   {StretchKind::HistogramEqualization, "histeq"}};

const std::pair<ClipMode, const char*> kClipNames[] = {
    {ClipMode::MinMax, "minmax"}, {ClipMode::Percentile, "percentile"}, {ClipMode::User, "user"}};

// True when the view shows the whole image centred, as fitToWindow() leaves it.
bool fitsWindow(const ImageView& view) {
  const auto image = view.image();
  if (!image || image->empty())
    return true;
  const double fit = std::clamp(std::min(view.width() / static_cast<double>(image->nx),
                                         view.height() / static_cast<double>(image->ny)),
                                ImageView::kMinZoom, ImageView::kMaxZoom);
  const QPointF middle((image->nx - 1) / 2.0, (image->ny - 1) / 2.0);
  return std::abs(view.zoom() - fit) <= 1e-9 * fit &&
         std::abs(view.center().x() - middle.x()) < 1e-9 &&
         std::abs(view.center().y() - middle.y()) < 1e-9;
}

}  // namespace

project::ViewSettings viewFromDisplay(const DisplaySettings& d) {
  project::ViewSettings v;
  v.colormap = colormapName(d.colormap).toStdString();
  v.invert = d.inverted;
  for (const auto& [kind, name] : kStretchNames) {
    if (kind == d.stretch.kind)
      v.scaling = name;
  }
  v.power_exponent = d.stretch.power_exponent;
  for (const auto& [mode, name] : kClipNames) {
    if (mode == d.clip)
      v.clip = name;
  }
  v.clip_percent = d.clip_percent;
  // The toolbar accepts a reversed range; the file keeps min < max.
  v.user_min = std::min(d.user_min, d.user_max);
  v.user_max = std::max(d.user_min, d.user_max);
  if (!(v.user_max > v.user_min))
    v.user_max = v.user_min + 1.0;
  return v;
}

DisplaySettings displayFromView(const project::ViewSettings& v) {
  DisplaySettings d;
  if (const auto kind = colormapFromName(QString::fromStdString(v.colormap)))
    d.colormap = *kind;
  d.inverted = v.invert;
  for (const auto& [kind, name] : kStretchNames) {
    if (v.scaling == name)
      d.stretch.kind = kind;
  }
  d.stretch.power_exponent = v.power_exponent;
  for (const auto& [mode, name] : kClipNames) {
    if (v.clip == name)
      d.clip = mode;
  }
  d.clip_percent = v.clip_percent;
  d.user_min = v.user_min;
  d.user_max = v.user_max;
  return d;
}

project::ViewSettings captureView(const ImagePanel& panel) {
  project::ViewSettings v = viewFromDisplay(panel.displaySettings());
  const ImageView& view = *panel.view();
  if (!fitsWindow(view)) {
    v.zoom = view.zoom();
    v.center_x = view.center().x();
    v.center_y = view.center().y();
  }
  return v;
}

ViewGeometry geometryOf(const project::ViewSettings& v) {
  return {v.zoom, v.center_x, v.center_y};
}

void applyGeometry(ImagePanel& panel, const ViewGeometry& g) {
  if (g.zoom)
    panel.view()->setView(QPointF(g.center_x, g.center_y), *g.zoom);
  else
    panel.view()->fitToWindow();
}

}  // namespace apertura::gui
