#include <cmath>

#include "core/engine/device_memory_gauge.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/operator_factory.h"
#include "core/pipeline/initial_model.h"
#include "core/pipeline/mask_raster.h"
#include "core/pipeline/objective_weights.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/regularizer_factory.h"
#include "core/pipeline/solver_run.h"
#include "core/rml/chi2_term.h"
#include "core/rml/fit_statistics.h"
#include "core/rml/held_chi2_term.h"
#include "core/rml/objective_function.h"
#include "core/rml/restore.h"

namespace apertura::pipeline {
namespace {

// The gridding operator in the project's precision and the data term on it.
struct DataOperator {
  std::unique_ptr<imaging::ImagingOperator<float>> f;
  std::unique_ptr<imaging::ImagingOperator<double>> d;
  std::shared_ptr<rml::DataTerm> chi2;
  std::string backend;  // the backend, device and operator, for the run log
  // The operator's device memory in the telemetry; declared after f/d so it ends before them.
  engine::DeviceMemoryGauge::Registration device_bytes;
};

// w-stacking needs every block at once (a pass per w plane): the data term holds them and uses
// the operator's whole calls. Without it, the term goes chunk by chunk (held or streamed).
template <typename T>
void makeDataTerm(std::unique_ptr<imaging::ImagingOperator<T>>& op,
                  const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                  RunData& data, DataOperator& out) {
  op = imaging::makeOperator<T>(g, operatorSettings(im, data), {im.backend, im.gpu_device},
                                &out.backend);
  out.backend += "; " + op->describe();
  out.device_bytes =
      engine::DeviceMemoryGauge::instance().add([p = op.get()] { return p->deviceBytes(); });
  if (!im.w_stacking) {
    rml::ChunkChi2Options options;
    options.totals = data.totals;
    options.sum = data.sumOverRanks();
    // Deterministic reduction: exact sums of per-chunk partials, the same for any number of ranks.
    options.exact_chunk_sums = data.comm->deterministic();
    out.chi2 = rml::makeChunkChi2Term(*op, *data.sequence, options);
    return;
  }
  rml::Chi2Options options;
  options.sum = data.sumOverRanks();
  options.totals = data.totals;
  out.chi2 = rml::makeHeldChi2Term(*op, data.chunks, options);
}

DataOperator makeDataOperator(const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                              RunData& data) {
  DataOperator op;
  if (im.precision == project::Precision::Double)
    makeDataTerm(op.d, im, g, data, op);
  else
    makeDataTerm(op.f, im, g, data, op);
  return op;
}

}  // namespace

void optimizeAndRestoreStages(engine::RunContext& ctx, RunData& data, ImagingProducts& out) {
  const auto& s = ctx.settings();
  const imaging::ImageGeometry g = out.geometry;
  const std::size_t npix = g.numPixels();
  DataOperator op;
  std::shared_ptr<rml::DataTerm> chi2;
  rml::ObjectiveFunction objective(npix);
  const bool proximal_solver = solverChoice(s.optimizer).proximal;
  const std::vector<double> mask = rasterizeMask(s.mask, g.nx, g.ny);

  ctx.stage("optimize", [&] {
    op = makeDataOperator(s.imaging, g, data);
    ctx.observer().progress(1.0, "operator: " + op.backend);
    chi2 = op.chi2;
    const ObjectiveWeights weights =
        objectiveWeights(s, data, data.totals.valid_samples, data.totals.sum_weights,
                         rml::beamAreaPixels(out.beam.bmaj, out.beam.bmin, std::fabs(g.cell_m)));
    objective.add(chi2, {weights.data, 0, false});
    const std::vector<AutoTerm> auto_terms =
        addRegularizers(objective, s, weights, [&](std::size_t i, rml::TermOptions& o) {
          const auto& r = s.regularizers[i];
          o.proximal = proximal_solver && isNonSmoothType(r.type);
          return makeRegularizer(r, g.nx, g.ny, mask, i);
        });
    std::vector<double> image(npix, 0.0);
    if (!s.optimizer.initial_model.empty()) {
      image = readInitialModel(s.optimizer.initial_model, g, out.phase_centre_ra_rad,
                               out.phase_centre_dec_rad,
                               s.optimizer.positivity != project::Positivity::None, mask);
    }
    solveWithLambdas(ctx, data, objective, auto_terms, weights, mask, std::move(image), out);
  });

  ctx.stage("restore", [&] {
    const rml::FitStatistics fit = rml::residualImage(*chi2, out.model.data(), out.residual);
    // Normalised, with the weights rescaled to the visibilities' scatter (schema 1: as measured).
    out.chi2_per_dof = s.regularization.scaling == project::ObjectiveScaling::Normalised
                           ? fit.chi2_per_dof / out.weight_scale
                           : fit.chi2_per_dof;
    out.residual_rms = fit.residual_image_rms;
    out.restored = rml::restoredImage(out.model, out.residual, g, out.beam);
    if (s.output.write_model_column || s.output.write_residual_column) {
      // Residual = measured - model on every sample (flagged ones included).
      chi2->forEachResidual(out.model.data(), [&](std::size_t, const rml::DataTerm::Residual& r,
                                                  const rml::DataTerm::Residual& model) {
        std::vector<std::complex<float>> model_vis, residual_vis;
        if (s.output.write_model_column)
          model_vis.assign(model.begin(), model.end());
        if (s.output.write_residual_column)
          residual_vis.assign(r.begin(), r.end());
        out.model_visibilities.push_back(std::move(model_vis));
        out.residual_visibilities.push_back(std::move(residual_vis));
      });
    }
    publishImage(ctx, "residual", out.iterations, out, out.residual.data(), "Jy/beam");
    publishImage(ctx, "restored", out.iterations, out, out.restored.data(), "Jy/beam");
  });
}

}  // namespace apertura::pipeline
