#include "core/pipeline/imaging_pipeline.h"

#include <algorithm>

#include "core/engine/rank_agreement.h"
#include "core/pipeline/cube_stages.h"
#include "core/pipeline/linear_spectrum.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/regularizer_factory.h"
#include "core/pipeline/run_diagnosis.h"
#include "core/util/output_probe.h"
#include "core/util/temporary_names.h"

namespace apertura::pipeline {
namespace {

// An MFS image has one plane: an across-channel term is zero there, which the user should know.
void warnAboutSpectralTerms(engine::RunContext& ctx) {
  const auto& regs = ctx.settings().regularizers;
  for (std::size_t i = 0; i < regs.size(); ++i) {
    if (isSpectralType(regs[i].type) && regs[i].lambda != 0.0)
      ctx.observer().warning("regularizers[" + std::to_string(i) + "] (" + regs[i].type +
                             ") acts across the planes of a cube and has no effect with "
                             "imaging.spectral_mode mfs");
  }
}

// Before any computing: every folder the run will write into must take a file. What killed
// runs left there is removed first.
void checkOutputLocations(const project::OutputSettings& o) {
  if (!o.prefix.empty()) {
    removeStaleTemporariesBeside(o.prefix);
    requireWritablePrefix(o.prefix, "output.prefix");
  }
  const bool model_copy = (o.write_model_column || o.write_residual_column) && !o.model_in_place;
  if (model_copy && !o.model_ms.empty())
    requireWritablePrefix(o.model_ms, "output.model_ms");
}

}  // namespace

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
    const bool cube = ctx.settings().imaging.spectral_mode == project::SpectralMode::Cube;
    ctx.stage("read", [&] {
      // A step of its own: the ranks agree on its outcome before any of them enters the
      // collectives of the read, so a refusal on rank 0 cannot leave the others waiting there.
      together([&] {
        if (comm.rank() == 0)
          checkOutputLocations(ctx.settings().output);
      })();
      together([&] {
        if (cube)
          checkCubeSupported(ctx.settings(), comm);
        readStage(ctx, data, *products);
      })();
    });
    if (cube) {
      CubeData planes;
      ctx.stage("dirty", together([&] { cubeDirtyStage(ctx, data, planes, *products); }));
      cubeOptimizeAndRestoreStages(ctx, data, planes, *products);
    } else {
      warnAboutSpectralTerms(ctx);
      ctx.stage("dirty", together([&] { dirtyStage(ctx, data, *products); }));
      optimizeAndRestoreStages(ctx, data, *products);
    }
    if (comm.rank() == 0) {
      for (std::string& d : diagnoseRun(ctx.settings(), *products)) {
        ctx.observer().warning(d);
        products->warnings.push_back(d);
        products->diagnoses.push_back(std::move(d));
      }
    }
    ctx.stage("export", [&] {
      writeBackStage(ctx, data, *products);  // every rank: each holds its rows' model
      if (comm.rank() == 0)
        exportStage(ctx, *products);
    });
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
  // Every plane of a cube (plane-major in the products), in one snapshot.
  const int planes = std::max(1, p.planes);
  image->planes = planes;
  image->pixels.assign(pixels, pixels + g.numPixels() * std::size_t(planes));
  if (planes > 1) {
    image->plane_frequencies_hz = p.plane_frequencies_hz;
    for (const auto& b : p.plane_beams)
      image->plane_beams.push_back({b.bmaj, b.bmin, b.bpa});
  }
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

namespace apertura::pipeline {

void publishModel(engine::RunContext& ctx, int iteration, const ImagingProducts& p,
                  const std::vector<double>& parameters) {
  if (hasLinearSpectrum(p, parameters.size())) {
    const std::vector<double> sky = skyAtImageFrequency(p, parameters);
    publishImage(ctx, "model", iteration, p, sky.data(), "Jy/pixel");
    return;
  }
  publishImage(ctx, "model", iteration, p, parameters.data(), "Jy/pixel");
}

}  // namespace apertura::pipeline
