#pragma once

#include <memory>

#include "core/engine/communicator.h"
#include "core/engine/engine.h"
#include "core/pipeline/imaging_products.h"

namespace apertura::pipeline {

// The whole imaging run as engine stages:
//   read -> dirty (weighting, dirty image, PSF, clean beam) -> optimize (RML) -> restore -> export
// `products` receives the results; it must outlive the run. Exports go to
// settings.output.prefix + "-dirty.fits" etc. and are skipped when the prefix is empty.
// Distributed (comm.size() > 1, every rank runs the same pipeline): each rank reads its share of
// the rows (balanced by unflagged samples), weight densities, images, chi2 and its gradient are
// summed over ranks, the optimizer runs identically on every rank, and rank 0 writes the files.
engine::Pipeline makeImagingPipeline(
    std::shared_ptr<ImagingProducts> products,
    engine::Communicator& comm = engine::singleProcessCommunicator());

}  // namespace apertura::pipeline
