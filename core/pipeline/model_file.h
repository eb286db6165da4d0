#pragma once

#include <string>

#include "core/pipeline/imaging_products.h"

namespace apertura::pipeline {

// Writes the model of a finished run (Jy/pixel, in double precision so a continued run starts
// from exactly the values it stopped at) to `path` as the engine reads initial models back: a
// 2-D image for an MFS run, a cube with the run's plane frequencies for a cube run. Atomic;
// throws InputError naming the path (no model, or the write failed).
void writeModelFits(const ImagingProducts& products, const std::string& path);

}  // namespace apertura::pipeline
