#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gui/view/sky_projection.h"

namespace apertura::gui {

// The restoring (clean) beam: full widths at half maximum and position angle east of north.
struct BeamShape {
  double major_rad = 0.0;
  double minor_rad = 0.0;
  double position_angle_deg = 0.0;
};

// One plane of an image as the viewer shows it. Pixels are x-fastest with row 0 at the BOTTOM
// (south), as FITS stores them; the view flips rows so north is up. NaN marks blanked pixels.
struct ImageData {
  int nx = 0;
  int ny = 0;
  std::vector<float> pixels;
  std::string unit;  // "Jy/beam" for dirty/restored images, "Jy/pixel" for models
  ImageWcs wcs;
  std::optional<BeamShape> beam;
  double frequency_hz = 0.0;  // a cube plane's frequency (the cursor readout shows it); 0: none

  bool empty() const { return nx <= 0 || ny <= 0; }
  bool consistent() const {
    return nx >= 0 && ny >= 0 &&
           pixels.size() == static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  }
  float at(int x, int y) const {
    return pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(nx) +
                  static_cast<std::size_t>(x)];
  }
};

}  // namespace apertura::gui
