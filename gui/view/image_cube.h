#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/view/image_data.h"

namespace apertura::gui {

// An image of one or more planes along frequency (a spectral cube), as an engine snapshot or a
// FITS cube gives it. The pixel buffer is shared and immutable (a snapshot's own buffer is used
// without a copy); a view is handed one plane at a time, so the GUI thread never copies or
// renders more than the plane on screen.
struct ImageCube {
  int nx = 0;
  int ny = 0;
  int planes = 0;
  std::shared_ptr<const std::vector<float>> pixels;  // nx * ny * planes, plane-major
  std::string unit;
  ImageWcs wcs;
  std::vector<double> frequencies_hz;           // per plane; empty when unknown
  std::vector<std::optional<BeamShape>> beams;  // per plane; empty: `beam` for every plane
  std::optional<BeamShape> beam;

  bool empty() const { return nx <= 0 || ny <= 0 || planes <= 0; }
  bool consistent() const;
  // Plane k's frequency (Hz), 0 when unknown or k is out of range.
  double frequencyOf(int k) const;
  std::optional<BeamShape> beamOf(int k) const;
  // Plane k (clamped to the cube) as a view shows it: its pixels, beam and frequency (the
  // frequency only for a cube of several planes). An empty ImageData for an empty cube.
  ImageData plane(int k) const;

  // A single-plane image (what an MFS run or a 2-D FITS file gives).
  static ImageCube fromImage(ImageData image);
};

}  // namespace apertura::gui
