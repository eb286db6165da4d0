#include "core/pipeline/imaging_pipeline.h"

#include "core/engine/rank_agreement.h"
#include "core/pipeline/pipeline_stages.h"

namespace apertura::pipeline {

SumOverProcesses RunData::sumOverRanks() const {
  if (!distributed())
    return nullptr;
  engine::Communicator* c = comm;
  return [c](double* values, std::size_t n) { c->sum(values, n); };
}

engine::Pipeline makeImagingPipeline(std::shared_ptr<ImagingProducts> products,
                                     engine::Communicator& comm) {
  return [products, &comm](engine::RunContext& ctx) {
    RunData data;
    data.comm = &comm;
    // A failure on one rank must reach the others before they wait in the next collective.
    const auto together = [&](const std::function<void()>& step) {
      return [&, step] {
        if (comm.size() > 1)
          engine::runOnEveryRank(comm, step);
        else
          step();
      };
    };
    ctx.stage("read", together([&] { readStage(ctx, data, *products); }));
    ctx.stage("dirty", together([&] { dirtyStage(ctx, data, *products); }));
    optimizeAndRestoreStages(ctx, data, *products);
    if (comm.rank() == 0)
      ctx.stage("export", [&] { exportStage(ctx, data, *products); });
  };
}

template <typename T>
static void publish(engine::RunContext& ctx, const std::string& name, int iteration,
                    const ImagingProducts& p, const T* pixels, const std::string& unit) {
  const imaging::ImageGeometry& g = p.geometry;
  auto image = std::make_shared<engine::ImageSnapshot>();
  image->name = name;
  image->iteration = iteration;
  image->nx = g.nx;
  image->ny = g.ny;
  image->unit = unit;
  image->pixels.assign(pixels, pixels + g.numPixels());
  image->ref_ra_rad = p.phase_centre_ra_rad;
  image->ref_dec_rad = p.phase_centre_dec_rad;
  image->cell_x_rad = g.cell_l;
  image->cell_y_rad = g.cell_m;
  image->beam_major_rad = p.beam.bmaj;
  image->beam_minor_rad = p.beam.bmin;
  image->beam_pa_rad = p.beam.bpa;
  ctx.observer().snapshot(std::move(image));
}

void publishImage(engine::RunContext& ctx, const std::string& name, int iteration,
                  const ImagingProducts& p, const float* pixels, const std::string& unit) {
  publish(ctx, name, iteration, p, pixels, unit);
}

void publishImage(engine::RunContext& ctx, const std::string& name, int iteration,
                  const ImagingProducts& p, const double* pixels, const std::string& unit) {
  publish(ctx, name, iteration, p, pixels, unit);
}

}  // namespace apertura::pipeline
