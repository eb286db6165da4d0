#pragma once

#include <vector>

#include "core/project/project_settings.h"

namespace apertura::pipeline {

// Pixel mask (1 inside, 0 outside; nx * ny, x fastest) of the project's regions, applied in order.
// With no regions the result is empty, meaning "no mask". If the first region adds, pixels start
// off; if it subtracts, they start on. Pixel (x, y) is tested at its centre.
std::vector<double> rasterizeMask(const std::vector<project::MaskRegion>& regions, int nx, int ny);

// The model's support from the project's rasterized mask: the mask itself, or none (empty) when
// optimizer.mask_support is off (the regions then serve the use_mask regularizers only).
inline std::vector<double> modelSupport(const project::ProjectSettings& s,
                                        const std::vector<double>& mask) {
  return s.optimizer.mask_support ? mask : std::vector<double>{};
}

}  // namespace apertura::pipeline
