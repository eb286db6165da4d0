#pragma once

#include <vector>

namespace apertura::gui {

// A colour at position t in [0, 1] of a published colormap, channels as 8-bit values.
struct ColorAnchor {
  double t;
  double r;
  double g;
  double b;
};

// Anchor points read from the published definitions of each map (van der Walt & Smith 2015 for
// viridis/inferno/magma, sampled at ninths and quarters; Moreland 2009 for cool-warm, at eighths).
const std::vector<ColorAnchor>& viridisAnchors();
const std::vector<ColorAnchor>& infernoAnchors();
const std::vector<ColorAnchor>& magmaAnchors();
const std::vector<ColorAnchor>& coolWarmAnchors();

// Natural cubic spline through the anchors, per channel, evaluated at `count` equally spaced t in
// [0, 1] and clamped to [0, 255]. The published maps are smooth, so a spline through a dozen
// anchors stays within a few 8-bit levels of the full tables.
std::vector<ColorAnchor> interpolateAnchors(const std::vector<ColorAnchor>& anchors, int count);

}  // namespace apertura::gui
