#include <cmath>

#include "core/engine/device_memory_gauge.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/operator_factory.h"
#include "core/pipeline/initial_model.h"
#include "core/pipeline/mask_raster.h"
#include "core/pipeline/objective_weights.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/psf_data_term.h"
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

// What a w-stacked data term over selected chunks reads: copies of them and its own operator
// (the held term sets the operator's samples to its chunks).
template <typename T>
struct HeldSelection {
  std::vector<VisibilityChunk> chunks;
  std::unique_ptr<imaging::ImagingOperator<T>> op;
};

// The data term over `chunks` (the run's, or a part of them) with its totals. w-stacking needs
// every block at once (a pass per w plane): the term holds them and uses the operator's whole
// calls. Without it, the term goes chunk by chunk (held or streamed) on the shared operator.
// `psf`: the PSF mode where one of its evaluations measures faster (no w-term, host images).
template <typename T>
SelectedData dataTermOver(imaging::ImagingOperator<T>& op, const project::ImagingSettings& im,
                          const imaging::ImageGeometry& g, const RunData& data,
                          ChunkSequence& chunks, bool run_chunks, bool psf = false) {
  SelectedData out;
  const rml::DataTotals totals = run_chunks ? data.totals : totalsOverRanks(chunks, data);
  out.samples = totals.valid_samples;
  out.image_weights = totals.sum_weights;
  if (!im.w_stacking) {
    rml::ChunkChi2Options options;
    options.totals = totals;
    options.sum = data.sumOverRanks();
    // Deterministic reduction: exact sums of per-chunk partials, the same for any number of ranks.
    options.exact_chunk_sums = data.comm->deterministic();
    auto exact = rml::makeChunkChi2Term(op, chunks, options);
    out.term = exact;
    if (psf && op.vectorSpace() == nullptr) {
      if (auto term = fasterPsfTerm<T>(exact, g, operatorSettings(im, data),
                                       {im.backend, im.gpu_device}, chunks, options.sum)) {
        out.term = term;
        out.anchor = [term](const double* image) { term->anchor(image); };
      }
    }
    return out;
  }
  rml::Chi2Options options;
  options.sum = data.sumOverRanks();
  options.totals = totals;
  if (run_chunks) {
    out.term = rml::makeHeldChi2Term(op, data.chunks, options);
    return out;
  }
  auto held = std::make_shared<HeldSelection<T>>();
  chunks.forEach([&](const VisibilityChunk& c, std::size_t) { held->chunks.push_back(c); });
  held->op = imaging::makeOperator<T>(g, operatorSettings(im, data), {im.backend, im.gpu_device});
  out.term = rml::makeHeldChi2Term(*held->op, held->chunks, options);
  out.keep = held;
  return out;
}

template <typename T>
void makeDataTerm(std::unique_ptr<imaging::ImagingOperator<T>>& op,
                  const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                  RunData& data, DataOperator& out) {
  op = imaging::makeOperator<T>(g, operatorSettings(im, data), {im.backend, im.gpu_device},
                                &out.backend);
  out.backend += "; " + op->describe();
  out.device_bytes =
      engine::DeviceMemoryGauge::instance().add([p = op.get()] { return p->deviceBytes(); });
  out.chi2 = std::static_pointer_cast<rml::DataTerm>(
      dataTermOver(*op, im, g, data, *data.sequence, true).term);
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
    ObjectiveRecipe recipe;
    recipe.beam_area_pixels =
        rml::beamAreaPixels(out.beam.bmaj, out.beam.bmin, std::fabs(g.cell_m));
    recipe.uv_cell_wavelengths = uvCellWavelengths(g);
    recipe.data = [&](const SelectChunks& select) {
      ChunkSequence& chunks = select(*data.sequence);
      return op.d ? dataTermOver(*op.d, s.imaging, g, data, chunks, false)
                  : dataTermOver(*op.f, s.imaging, g, data, chunks, false);
    };
    recipe.training_data = [&](const SelectChunks& select) {
      ChunkSequence& chunks = select(*data.sequence);
      return op.d ? dataTermOver(*op.d, s.imaging, g, data, chunks, false, true)
                  : dataTermOver(*op.f, s.imaging, g, data, chunks, false, true);
    };
    recipe.regularizer = [&](std::size_t i, rml::TermOptions& o) {
      const auto& r = s.regularizers[i];
      o.proximal = proximal_solver && isNonSmoothType(r.type);
      return makeRegularizer(r, g.nx, g.ny, mask, i);
    };
    const ObjectiveWeights weights = objectiveWeights(
        s, data, data.totals.valid_samples, data.totals.sum_weights, recipe.beam_area_pixels);
    objective.add(chi2, {weights.data, 0, false});
    const std::vector<AutoTerm> auto_terms =
        addRegularizers(objective, s, weights, recipe.regularizer);
    std::vector<double> image(npix, 0.0);
    if (!s.optimizer.initial_model.empty()) {
      image = readInitialModel(s.optimizer.initial_model, g, out.phase_centre_ra_rad,
                               out.phase_centre_dec_rad,
                               s.optimizer.positivity != project::Positivity::None, mask);
    }
    solveWithLambdas(ctx, data, recipe, objective, auto_terms, weights, mask, std::move(image),
                     out);
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
