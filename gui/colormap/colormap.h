#pragma once

#include <QRgb>
#include <QString>

#include <array>
#include <optional>
#include <vector>

namespace apertura::gui {

// The colormaps offered for images. The perceptual maps keep luminance monotonic so that
// brightness in the picture follows brightness on the sky; CoolWarm is diverging (white at the
// centre) for residuals whose sign matters.
enum class ColormapKind { Gray, Viridis, Inferno, Magma, Cubehelix, CoolWarm };

using ColorTable = std::array<QRgb, 256>;

// 256-entry lookup table; `inverted` reverses it (index 0 gets the top colour).
ColorTable colormapTable(ColormapKind kind, bool inverted = false);

// Green (2011, BASI 39, 289) cubehelix. `start` is the starting hue (0..3), `rotations` the number
// of R->G->B turns over the map, `hue` the saturation and `gamma` the intensity exponent.
struct CubehelixParameters {
  double start = 0.5;
  double rotations = -1.5;
  double hue = 1.0;
  double gamma = 1.0;
};
ColorTable cubehelixTable(const CubehelixParameters& parameters);

// Display names ("viridis", ...) in the order the toolbar lists them.
std::vector<ColormapKind> allColormaps();
QString colormapName(ColormapKind kind);
std::optional<ColormapKind> colormapFromName(const QString& name);

// Diverging maps put zero at their white centre: the view clips them symmetrically about zero.
inline bool isDiverging(ColormapKind kind) {
  return kind == ColormapKind::CoolWarm;
}

// Relative luminance (Rec. 601 weights, as Green uses) in [0, 1].
double colorLuminance(QRgb color);

}  // namespace apertura::gui
