#include "gui/view/image_cube.h"

#include <algorithm>

namespace apertura::gui {

bool ImageCube::consistent() const {
  if (empty())
    return !pixels || pixels->empty();
  return pixels && pixels->size() == static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) *
                                         static_cast<std::size_t>(planes);
}

double ImageCube::frequencyOf(int k) const {
  if (k < 0 || static_cast<std::size_t>(k) >= frequencies_hz.size())
    return 0.0;
  return frequencies_hz[static_cast<std::size_t>(k)];
}

std::optional<BeamShape> ImageCube::beamOf(int k) const {
  if (beams.empty())
    return beam;
  if (k < 0 || static_cast<std::size_t>(k) >= beams.size())
    return std::nullopt;
  return beams[static_cast<std::size_t>(k)];
}

ImageData ImageCube::plane(int k) const {
  ImageData d;
  if (empty() || !consistent())
    return d;
  k = std::clamp(k, 0, planes - 1);
  const std::size_t n = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  const auto first = pixels->begin() + static_cast<std::ptrdiff_t>(n * static_cast<std::size_t>(k));
  d.nx = nx;
  d.ny = ny;
  d.pixels.assign(first, first + static_cast<std::ptrdiff_t>(n));
  d.unit = unit;
  d.wcs = wcs;
  d.beam = beamOf(k);
  if (planes > 1)
    d.frequency_hz = frequencyOf(k);
  return d;
}

ImageCube ImageCube::fromImage(ImageData image) {
  ImageCube c;
  if (image.empty() || !image.consistent())
    return c;
  c.nx = image.nx;
  c.ny = image.ny;
  c.planes = 1;
  c.unit = std::move(image.unit);
  c.wcs = image.wcs;
  c.beam = image.beam;
  if (image.frequency_hz > 0.0)
    c.frequencies_hz = {image.frequency_hz};
  c.pixels = std::make_shared<const std::vector<float>>(std::move(image.pixels));
  return c;
}

}  // namespace apertura::gui
