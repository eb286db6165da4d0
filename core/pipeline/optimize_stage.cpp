#include <cmath>
#include <optional>

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

// The linear-spectrum data term over `chunks` (the run's, or a part of them), chunk by chunk on
// the two operators; `psf`: its PSF mode where one of its evaluations measures faster.
template <typename T>
SelectedData linearTermOver(imaging::ImagingOperator<T>& low, imaging::ImagingOperator<T>& high,
                            rml::SpectrumBand band, const project::ImagingSettings& im,
                            const imaging::ImageGeometry& g, const RunData& data,
                            ChunkSequence& chunks, bool run_chunks, bool psf) {
  SelectedData out;
  const rml::DataTotals totals = run_chunks ? data.totals : totalsOverRanks(chunks, data);
  out.samples = totals.valid_samples;
  out.image_weights = totals.sum_weights;
  auto exact =
      rml::makeLinearSpectrumChi2Term(low, high, chunks, band, totals, data.sumOverRanks());
  out.term = exact;
  if (psf && low.vectorSpace() == nullptr) {
    if (auto term =
            fasterPsfTerm<T>(exact, g, operatorSettings(im, data), {im.backend, im.gpu_device},
                             chunks, data.sumOverRanks(), &band)) {
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
                      bool run_chunks, bool psf) {
  if (op.band)
    return linearTermOver(low, *high, *op.band, im, g, data, chunks, run_chunks, psf);
  return dataTermOver(low, im, g, data, chunks, run_chunks, psf);
}

SelectedData termOver(const DataOperator& op, const project::ImagingSettings& im,
                      const imaging::ImageGeometry& g, const RunData& data, ChunkSequence& chunks,
                      bool run_chunks, bool psf = false) {
  return op.d ? termOver(*op.d, op.d_high.get(), op, im, g, data, chunks, run_chunks, psf)
              : termOver(*op.f, op.f_high.get(), op, im, g, data, chunks, run_chunks, psf);
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
      return termOver(op, s.imaging, g, data, select(*data.sequence), false, true);
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
    solveWithLambdas(ctx, data, recipe, objective, auto_terms, weights,
                     band ? tiledTwice(support) : support, std::move(image), out);
  });

  ctx.stage("restore", [&] {
    const rml::FitStatistics fit = residualOf(*chi2, out);
    // Normalised, with the weights rescaled to the visibilities' scatter (schema 1: as measured).
    out.chi2_per_dof = s.regularization.scaling == project::ObjectiveScaling::Normalised
                           ? fit.chi2_per_dof / out.weight_scale
                           : fit.chi2_per_dof;
    out.residual_rms = fit.residual_image_rms;
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
