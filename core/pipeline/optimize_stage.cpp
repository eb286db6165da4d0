#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "core/engine/device_memory_gauge.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/operator_factory.h"
#include "core/pipeline/initial_model.h"
#include "core/pipeline/linear_spectrum.h"
#include "core/pipeline/mask_raster.h"
#include "core/pipeline/objective_weights.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/psf_data_term.h"
#include "core/pipeline/regularizer_factory.h"
#include "core/pipeline/solver_run.h"
#include "core/rml/chi2_term.h"
#include "core/rml/fit_statistics.h"
#include "core/rml/held_chi2_term.h"
#include "core/rml/linear_spectrum_chi2_term.h"
#include "core/rml/objective_function.h"
#include "core/rml/restore.h"

namespace apertura::pipeline {
namespace {

// The gridding operator in the project's precision and the data term on it.
// A linear-spectrum model (band set) has a second operator for its high plane.
struct DataOperator {
  std::optional<rml::SpectrumBand> band;
  std::unique_ptr<imaging::ImagingOperator<float>> f, f_high;
  std::unique_ptr<imaging::ImagingOperator<double>> d, d_high;
  std::shared_ptr<rml::DataTerm> chi2;
  std::string backend;  // the backend, device and operator, for the run log
  // The operators' device memory in the telemetry; declared after them so they end before them.
  engine::DeviceMemoryGauge::Registration device_bytes, high_device_bytes;
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
// `psf`: when the term takes its PSF mode (no w-term, host images); `cost` receives what the
// choice measured.
template <typename T>
SelectedData dataTermOver(imaging::ImagingOperator<T>& op, const project::ImagingSettings& im,
                          const imaging::ImageGeometry& g, const RunData& data,
                          ChunkSequence& chunks, bool run_chunks, PsfUse psf, PsfCost* cost) {
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
    if (op.vectorSpace() == nullptr) {
      if (auto term = psfTerm<T>(exact, g, operatorSettings(im, data), {im.backend, im.gpu_device},
                                 chunks, options.sum, psf, cost)) {
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

// The linear-spectrum data term over `chunks` (the run's, or a part of them), chunk by chunk on
// the two operators; `psf` and `cost` as dataTermOver's.
template <typename T>
SelectedData linearTermOver(imaging::ImagingOperator<T>& low, imaging::ImagingOperator<T>& high,
                            rml::SpectrumBand band, const project::ImagingSettings& im,
                            const imaging::ImageGeometry& g, const RunData& data,
                            ChunkSequence& chunks, bool run_chunks, PsfUse psf, PsfCost* cost) {
  SelectedData out;
  const rml::DataTotals totals = run_chunks ? data.totals : totalsOverRanks(chunks, data);
  out.samples = totals.valid_samples;
  out.image_weights = totals.sum_weights;
  auto exact =
      rml::makeLinearSpectrumChi2Term(low, high, chunks, band, totals, data.sumOverRanks());
  out.term = exact;
  if (low.vectorSpace() == nullptr) {
    if (auto term = psfTerm<T>(exact, g, operatorSettings(im, data), {im.backend, im.gpu_device},
                               chunks, data.sumOverRanks(), psf, cost, &band)) {
      out.term = term;
      out.anchor = [term](const double* image) { term->anchor(image); };
    }
  }
  return out;
}

// The data term of `op` over `chunks`, linear-spectrum when op has a band.
template <typename T>
SelectedData termOver(imaging::ImagingOperator<T>& low, imaging::ImagingOperator<T>* high,
                      const DataOperator& op, const project::ImagingSettings& im,
                      const imaging::ImageGeometry& g, const RunData& data, ChunkSequence& chunks,
                      bool run_chunks, PsfUse psf, PsfCost* cost) {
  if (op.band)
    return linearTermOver(low, *high, *op.band, im, g, data, chunks, run_chunks, psf, cost);
  return dataTermOver(low, im, g, data, chunks, run_chunks, psf, cost);
}

SelectedData termOver(const DataOperator& op, const project::ImagingSettings& im,
                      const imaging::ImageGeometry& g, const RunData& data, ChunkSequence& chunks,
                      bool run_chunks, PsfUse psf = PsfUse::Never, PsfCost* cost = nullptr) {
  return op.d ? termOver(*op.d, op.d_high.get(), op, im, g, data, chunks, run_chunks, psf, cost)
              : termOver(*op.f, op.f_high.get(), op, im, g, data, chunks, run_chunks, psf, cost);
}

template <typename T>
void makeOperators(std::unique_ptr<imaging::ImagingOperator<T>>& op,
                   std::unique_ptr<imaging::ImagingOperator<T>>& high,
                   const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                   RunData& data, DataOperator& out) {
  op = imaging::makeOperator<T>(g, operatorSettings(im, data), {im.backend, im.gpu_device},
                                &out.backend);
  out.backend += "; " + op->describe();
  out.device_bytes =
      engine::DeviceMemoryGauge::instance().add([p = op.get()] { return p->deviceBytes(); });
  if (!out.band)
    return;
  high = imaging::makeOperator<T>(g, operatorSettings(im, data), {im.backend, im.gpu_device});
  out.high_device_bytes =
      engine::DeviceMemoryGauge::instance().add([p = high.get()] { return p->deviceBytes(); });
  out.backend += " (two, for a linear spectrum)";
}

DataOperator makeDataOperator(const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                              RunData& data, std::optional<rml::SpectrumBand> band) {
  DataOperator op;
  op.band = band;
  if (im.precision == project::Precision::Double)
    makeOperators(op.d, op.d_high, im, g, data, op);
  else
    makeOperators(op.f, op.f_high, im, g, data, op);
  op.chi2 =
      std::static_pointer_cast<rml::DataTerm>(termOver(op, im, g, data, *data.sequence, true).term);
  return op;
}

// Why the run's optimizer cannot take the PSF mode, or "".
std::string psfModeUnavailable(const project::ImagingSettings& im, const RunData& data,
                               const DataOperator& op) {
  if (im.data_operator == project::OperatorMode::Auto && !data.psf_mode_in_budget)
    return "the PSF on an image twice the size would not fit the memory budget";
  if (im.w_stacking)
    return "it has no w-term, and the run corrects the w-term by w-stacking";
  if (data.comm->deterministic())
    return "the deterministic reduction sums per-chunk partials, and the PSF's sum over the "
           "ranks would depend on their number";
  if ((op.d ? op.d->vectorSpace() : op.f->vectorSpace()) != nullptr)
    return "the optimizer's images are on the GPU";
  return "";
}

// The optimizer's data term in its PSF mode (imaging.operator), or null for op.chi2 itself.
std::shared_ptr<rml::PsfChi2Term> optimizerPsfTerm(engine::RunContext& ctx, const DataOperator& op,
                                                   const project::ImagingSettings& im,
                                                   const imaging::ImageGeometry& g,
                                                   const RunData& data) {
  using project::OperatorMode;
  const OperatorMode mode = im.data_operator;
  if (mode == OperatorMode::Visibilities)
    return nullptr;
  const std::string why = psfModeUnavailable(im, data, op);
  if (!why.empty()) {
    const std::string text = "imaging.operator " + project::choiceName(mode) +
                             ": chi2 is evaluated over the visibilities (the PSF mode is not "
                             "available: " +
                             why + ")";
    if (mode == OperatorMode::Psf)
      ctx.observer().warning(text);
    else
      ctx.observer().progress(1.0, text);
    return nullptr;
  }
  // auto takes the PSF mode wherever it applies, whatever the timing says, so that a project
  // gives the same image on every run and machine: an evaluation is two real FFTs of the doubled
  // image against two complex FFTs of the padded grid (the same size) plus a gridding and a
  // degridding pass, so it costs less by construction (measured 4 to 16x, docs/performance.md).
  const rml::SpectrumBand* band = op.band ? &*op.band : nullptr;
  const imaging::OperatorSettings settings = operatorSettings(im, data);
  const imaging::BackendRequest backend{im.backend, im.gpu_device};
  PsfCost cost;
  std::shared_ptr<rml::PsfChi2Term> term =
      op.d ? psfTerm<double>(op.chi2, g, settings, backend, *data.sequence, data.sumOverRanks(),
                             PsfUse::Always, &cost, band)
           : psfTerm<float>(op.chi2, g, settings, backend, *data.sequence, data.sumOverRanks(),
                            PsfUse::Always, &cost, band);
  char text[256];
  std::snprintf(text, sizeof text,
                "imaging.operator %s: chi2 through the PSF, two FFTs of an image twice the size "
                "per evaluation (one evaluation measured %.3g s, %.3g s over the visibilities)",
                project::choiceName(mode).c_str(), cost.psf_seconds, cost.exact_seconds);
  ctx.observer().progress(1.0, text);
  return term;
}

std::vector<double> tiledTwice(const std::vector<double>& plane) {
  std::vector<double> out(plane);
  out.insert(out.end(), plane.begin(), plane.end());
  return out;
}

// The residual image and fit of out's model: a linear spectrum's residual image is the sum of its
// two planes' (A^H (1 - t) W r + A^H t W r = A^H W r).
rml::FitStatistics residualOf(rml::DataTerm& chi2, ImagingProducts& out) {
  if (out.band_model.empty())
    return rml::residualImage(chi2, out.model.data(), out.residual);
  std::vector<double> planes;
  rml::FitStatistics fit = rml::residualImage(chi2, out.band_model.data(), planes);
  const std::size_t npix = out.geometry.numPixels();
  out.residual.assign(npix, 0.0);
  double sum2 = 0.0;
  for (std::size_t p = 0; p < npix; ++p) {
    out.residual[p] = planes[p] + planes[npix + p];
    sum2 += out.residual[p] * out.residual[p];
  }
  fit.residual_image_rms = npix > 0 ? std::sqrt(sum2 / double(npix)) : 0.0;
  return fit;
}

}  // namespace

void optimizeAndRestoreStages(engine::RunContext& ctx, RunData& data, ImagingProducts& out) {
  const auto& s = ctx.settings();
  const imaging::ImageGeometry g = out.geometry;
  const std::size_t npix = g.numPixels();
  const std::optional<rml::SpectrumBand> band = linearSpectrumBand(ctx, data);
  // A linear spectrum's parameters are two planes (low, high), regularized as a cube of two.
  const int planes = band ? 2 : 1;
  if (band)
    out.band_edges_hz = {band->low_hz, band->high_hz};
  DataOperator op;
  std::shared_ptr<rml::DataTerm> chi2;
  std::shared_ptr<rml::PsfChi2Term> psf;  // the iterations' chi2 in the PSF mode
  rml::ObjectiveFunction objective(npix, planes);
  const bool proximal_solver = solverChoice(s.optimizer).proximal;
  const std::vector<double> mask = rasterizeMask(s.mask, g.nx, g.ny);  // use_mask terms
  const std::vector<double> support = modelSupport(s, mask);

  ctx.stage("optimize", [&] {
    // A stopped or failed run leaves one image in `model` too (the GUI continues from it).
    const LinearSpectrumSettler settler{out};
    op = makeDataOperator(s.imaging, g, data, band);
    ctx.observer().progress(1.0, "operator: " + op.backend);
    chi2 = op.chi2;
    ObjectiveRecipe recipe;
    recipe.planes = planes;
    recipe.regularizer_share = 1.0 / double(planes);
    recipe.beam_area_pixels =
        rml::beamAreaPixels(out.beam.bmaj, out.beam.bmin, std::fabs(g.cell_m));
    recipe.uv_cell_wavelengths = uvCellWavelengths(g);
    recipe.data = [&](const SelectChunks& select) {
      return termOver(op, s.imaging, g, data, select(*data.sequence), false);
    };
    recipe.training_data = [&](const SelectChunks& select) {
      return termOver(op, s.imaging, g, data, select(*data.sequence), false, PsfUse::IfFaster);
    };
    recipe.regularizer = [&](std::size_t i,
                             rml::TermOptions& o) -> std::shared_ptr<rml::ObjectiveTerm> {
      const auto& r = s.regularizers[i];
      o.proximal = proximal_solver && isNonSmoothType(r.type);
      if (!band)
        return makeRegularizer(r, g.nx, g.ny, mask, i);
      o.parameters = planes;
      return makeCubeRegularizer(r, g.nx, g.ny, planes, mask, i);
    };
    const ObjectiveWeights weights = objectiveWeights(
        s, data, data.totals.valid_samples, data.totals.sum_weights, recipe.beam_area_pixels);
    // Residuals, write-back and the final fit stay exact (chi2); the iterations may go through
    // the PSF, anchored by an exact pass where each solve starts.
    psf = optimizerPsfTerm(ctx, op, s.imaging, g, data);
    out.data_operator = psf ? "psf" : "visibilities";
    if (psf)
      objective.add(psf, {weights.data, 0, false, planes});
    else
      objective.add(chi2, {weights.data, 0, false, planes});
    const std::vector<AutoTerm> auto_terms =
        addRegularizers(objective, s, weights, recipe.regularizer, recipe.regularizer_share);
    // A linear spectrum starts from a model of its two planes (continuing a linear run), or flat
    // from one image at both ends of the band.
    std::vector<double> image(npix * std::size_t(planes), 0.0);
    const bool positive = s.optimizer.positivity != project::Positivity::None;
    if (!s.optimizer.initial_model.empty()) {
      image = band ? readInitialModelCube(s.optimizer.initial_model, g, out.phase_centre_ra_rad,
                                          out.phase_centre_dec_rad, positive, support, planes)
                   : readInitialModel(s.optimizer.initial_model, g, out.phase_centre_ra_rad,
                                      out.phase_centre_dec_rad, positive, support);
    }
    std::function<void(const double*)> anchor;
    if (psf)
      anchor = [term = psf.get()](const double* at) { term->anchor(at); };
    solveWithLambdas(ctx, data, recipe, objective, auto_terms, weights,
                     band ? tiledTwice(support) : support, std::move(image), out, anchor);
  });

  ctx.stage("restore", [&] {
    const rml::FitStatistics fit = residualOf(*chi2, out);
    // Normalised, with the weights rescaled to the visibilities' scatter (schema 1: as measured).
    out.chi2_per_dof = s.regularization.scaling == project::ObjectiveScaling::Normalised
                           ? fit.chi2_per_dof / out.weight_scale
                           : fit.chi2_per_dof;
    out.residual_rms = fit.residual_image_rms;
    if (psf && !out.metrics.empty()) {
      // Both figures, as the PSF mode's fit is exact only up to the PSF's gridding accuracy.
      char text[200];
      std::snprintf(text, sizeof text,
                    "chi2/dof at the last iteration: %.6g through the PSF, %.6g over the "
                    "visibilities",
                    out.metrics.back().chi2_per_dof, out.chi2_per_dof);
      ctx.observer().progress(1.0, text);
    }
    out.restored = rml::restoredImage(out.model, out.residual, g, out.beam);
    out.spectral_index = spectralIndexMap(out);
    if (s.output.write_model_column || s.output.write_residual_column) {
      // Residual = measured - model on every sample (flagged ones included).
      chi2->forEachResidual(
          band ? out.band_model.data() : out.model.data(),
          [&](std::size_t, const rml::DataTerm::Residual& r, const rml::DataTerm::Residual& model) {
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
