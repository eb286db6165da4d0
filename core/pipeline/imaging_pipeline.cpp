#include "core/pipeline/imaging_pipeline.h"

#include "core/pipeline/pipeline_stages.h"

namespace apertura::pipeline {

engine::Pipeline makeImagingPipeline(std::shared_ptr<ImagingProducts> products) {
  return [products](engine::RunContext& ctx) {
    RunData data;
    ctx.stage("read", [&] { readStage(ctx, data, *products); });
    ctx.stage("dirty", [&] { dirtyStage(ctx, data, *products); });
    optimizeAndRestoreStages(ctx, data, *products);
    ctx.stage("export", [&] { exportStage(ctx, *products); });
  };
}

template <typename T>
static void publish(engine::RunContext& ctx, const std::string& name, int iteration,
                    const imaging::ImageGeometry& g, const T* pixels, const std::string& unit) {
  auto image = std::make_shared<engine::ImageSnapshot>();
  image->name = name;
  image->iteration = iteration;
  image->nx = g.nx;
  image->ny = g.ny;
  image->unit = unit;
  image->pixels.assign(pixels, pixels + g.numPixels());
  ctx.observer().snapshot(std::move(image));
}

void publishImage(engine::RunContext& ctx, const std::string& name, int iteration,
                  const imaging::ImageGeometry& g, const float* pixels, const std::string& unit) {
  publish(ctx, name, iteration, g, pixels, unit);
}

void publishImage(engine::RunContext& ctx, const std::string& name, int iteration,
                  const imaging::ImageGeometry& g, const double* pixels, const std::string& unit) {
  publish(ctx, name, iteration, g, pixels, unit);
}

}  // namespace apertura::pipeline
