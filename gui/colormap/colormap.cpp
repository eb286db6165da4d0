#include "gui/colormap/colormap.h"

#include <algorithm>
#include <cmath>

#include "gui/colormap/colormap_anchors.h"

namespace apertura::gui {
namespace {

constexpr double kPi = 3.14159265358979323846;

int toByte(double v) {
  return static_cast<int>(std::lround(std::clamp(v, 0.0, 255.0)));
}

ColorTable fromAnchors(const std::vector<ColorAnchor>& anchors) {
  const std::vector<ColorAnchor> samples = interpolateAnchors(anchors, 256);
  ColorTable table{};
  for (std::size_t i = 0; i < table.size(); ++i)
    table[i] = qRgb(toByte(samples[i].r), toByte(samples[i].g), toByte(samples[i].b));
  return table;
}

ColorTable grayTable() {
  ColorTable table{};
  for (int i = 0; i < 256; ++i)
    table[static_cast<std::size_t>(i)] = qRgb(i, i, i);
  return table;
}

}  // namespace

ColorTable cubehelixTable(const CubehelixParameters& p) {
  ColorTable table{};
  for (int i = 0; i < 256; ++i) {
    const double lambda = i / 255.0;
    const double fract = std::pow(lambda, p.gamma);
    // Amplitude of the deviation from gray; it vanishes at both ends so black and white stay pure.
    const double amp = p.hue * fract * (1.0 - fract) / 2.0;
    const double phi = 2.0 * kPi * (p.start / 3.0 + p.rotations * lambda);
    const double c = std::cos(phi);
    const double s = std::sin(phi);
    const double r = fract + amp * (-0.14861 * c + 1.78277 * s);
    const double g = fract + amp * (-0.29227 * c - 0.90649 * s);
    const double b = fract + amp * (1.97294 * c);
    table[static_cast<std::size_t>(i)] =
        qRgb(toByte(255.0 * r), toByte(255.0 * g), toByte(255.0 * b));
  }
  return table;
}

ColorTable colormapTable(ColormapKind kind, bool inverted) {
  ColorTable table{};
  switch (kind) {
    case ColormapKind::Gray:
      table = grayTable();
      break;
    case ColormapKind::Viridis:
      table = fromAnchors(viridisAnchors());
      break;
    case ColormapKind::Inferno:
      table = fromAnchors(infernoAnchors());
      break;
    case ColormapKind::Magma:
      table = fromAnchors(magmaAnchors());
      break;
    case ColormapKind::Cubehelix:
      table = cubehelixTable(CubehelixParameters{});
      break;
    case ColormapKind::CoolWarm:
      table = fromAnchors(coolWarmAnchors());
      break;
  }
  if (inverted)
    std::reverse(table.begin(), table.end());
  return table;
}

std::vector<ColormapKind> allColormaps() {
  return {ColormapKind::Gray,  ColormapKind::Viridis,   ColormapKind::Inferno,
          ColormapKind::Magma, ColormapKind::Cubehelix, ColormapKind::CoolWarm};
}

QString colormapName(ColormapKind kind) {
  switch (kind) {
    case ColormapKind::Gray:
      return QStringLiteral("gray");
    case ColormapKind::Viridis:
      return QStringLiteral("viridis");
    case ColormapKind::Inferno:
      return QStringLiteral("inferno");
    case ColormapKind::Magma:
      return QStringLiteral("magma");
    case ColormapKind::Cubehelix:
      return QStringLiteral("cubehelix");
    case ColormapKind::CoolWarm:
      return QStringLiteral("coolwarm");
  }
  return {};
}

std::optional<ColormapKind> colormapFromName(const QString& name) {
  for (ColormapKind kind : allColormaps()) {
    if (colormapName(kind).compare(name.trimmed(), Qt::CaseInsensitive) == 0)
      return kind;
  }
  return std::nullopt;
}

double colorLuminance(QRgb color) {
  return (0.30 * qRed(color) + 0.59 * qGreen(color) + 0.11 * qBlue(color)) / 255.0;
}

}  // namespace apertura::gui
