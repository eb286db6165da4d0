#pragma once

// Internal to core/pipeline: the stages of makeImagingPipeline and the state they share.
#include <vector>

#include "core/data/visibility_chunk.h"
#include "core/engine/memory_tracker.h"
#include "core/engine/run_context.h"
#include "core/imaging/imaging_operator.h"
#include "core/pipeline/imaging_products.h"

namespace apertura::pipeline {

struct RunData {
  std::vector<VisibilityChunk> chunks;
  double max_uv_wavelengths = 0.0;
  engine::TrackedBytes tracked;  // the chunks' memory, for telemetry
};

// Image geometry of the run: the project's size and cell, or the "auto" cell
// 1 / (3 * longest uv distance), i.e. about three pixels across the synthesized beam.
imaging::ImageGeometry runGeometry(const project::ProjectSettings& s, const RunData& data);
imaging::OperatorSettings operatorSettings(const project::ImagingSettings& im);

void readStage(engine::RunContext& ctx, RunData& data, ImagingProducts& out);
void dirtyStage(engine::RunContext& ctx, const RunData& data, ImagingProducts& out);
void optimizeAndRestoreStages(engine::RunContext& ctx, const RunData& data, ImagingProducts& out);
void exportStage(engine::RunContext& ctx, const RunData& data, ImagingProducts& out);

// Publishes an image of the run (geometry, phase centre and beam from `p`) to the observer.
void publishImage(engine::RunContext& ctx, const std::string& name, int iteration,
                  const ImagingProducts& p, const float* pixels, const std::string& unit);
void publishImage(engine::RunContext& ctx, const std::string& name, int iteration,
                  const ImagingProducts& p, const double* pixels, const std::string& unit);

}  // namespace apertura::pipeline
