#pragma once

#include <memory>

#include "core/engine/engine.h"
#include "core/pipeline/imaging_products.h"

namespace apertura::pipeline {

// The whole imaging run as engine stages:
//   read -> dirty (weighting, dirty image, PSF, clean beam) -> optimize (RML) -> restore -> export
// `products` receives the results; it must outlive the run. Exports go to
// settings.output.prefix + "-dirty.fits" etc. and are skipped when the prefix is empty.
engine::Pipeline makeImagingPipeline(std::shared_ptr<ImagingProducts> products);

}  // namespace apertura::pipeline
