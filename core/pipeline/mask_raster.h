#pragma once

#include <vector>

#include "core/project/project_settings.h"

namespace apertura::pipeline {

// Pixel mask (1 inside, 0 outside; nx * ny, x fastest) of the project's regions, applied in order.
// With no regions the result is empty, meaning "no mask". If the first region adds, pixels start
// off; if it subtracts, they start on. Pixel (x, y) is tested at its centre.
std::vector<double> rasterizeMask(const std::vector<project::MaskRegion>& regions, int nx, int ny);

}  // namespace apertura::pipeline
