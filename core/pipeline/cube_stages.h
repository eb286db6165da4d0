#pragma once

// Internal to core/pipeline: the stages of a cube run (imaging.spectral_mode cube), used by
// makeImagingPipeline in place of the MFS dirty/optimize/restore stages. Read and export are
// shared with MFS runs.
#include "core/engine/communicator.h"
#include "core/engine/run_context.h"
#include "core/pipeline/cube_planes.h"
#include "core/pipeline/imaging_products.h"

namespace apertura::pipeline {

struct RunData;

// What a cube run cannot do, refused before anything is read (the same on every rank).
void checkCubeSupported(const project::ProjectSettings& s, const engine::Communicator& comm);

// Cuts the run's data into planes, then per plane: its own weighting (each plane's imaging
// weights come from its own samples, as WSClean weights the channels of a cube), dirty image,
// PSF and clean beam. Fills the products' plane-major images and per-plane descriptions.
void cubeDirtyStage(engine::RunContext& ctx, RunData& data, CubeData& cube, ImagingProducts& out);

// Every plane imaged jointly: chi2 of each plane on its own parameter slice, the project's
// regularizers on every plane (tv-spectral / tsv-spectral across adjacent planes), one solver
// over the whole cube; then per plane the residual and restored images.
void cubeOptimizeAndRestoreStages(engine::RunContext& ctx, RunData& data, CubeData& cube,
                                  ImagingProducts& out);

}  // namespace apertura::pipeline
