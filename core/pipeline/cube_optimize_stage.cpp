#include <algorithm>
#include <cmath>

#include "core/engine/device_memory_gauge.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/operator_factory.h"
#include "core/pipeline/cube_stages.h"
#include "core/pipeline/initial_model.h"
#include "core/pipeline/mask_raster.h"
#include "core/pipeline/objective_weights.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/regularizer_factory.h"
#include "core/pipeline/solver_run.h"
#include "core/rml/fit_statistics.h"
#include "core/rml/objective_function.h"
#include "core/rml/plane_wise_term.h"
#include "core/rml/restore.h"

namespace apertura::pipeline {
namespace {

// One gridding operator serves every plane: the data terms use it one after the other.
struct CubeOperator {
  std::unique_ptr<imaging::ImagingOperator<float>> f;
  std::unique_ptr<imaging::ImagingOperator<double>> d;
  std::vector<std::shared_ptr<rml::DataTerm>> chi2;  // per plane
  std::string backend;                               // the factory's line, for the run log
  // The operator's device memory in the telemetry; declared after f/d so it ends before them.
  engine::DeviceMemoryGauge::Registration device_bytes;
};

// The data term of every plane over chunks selected from the planes' sequences, as one term.
template <typename T>
SelectedData planeTermsOver(imaging::ImagingOperator<T>& op, CubeData& cube, const RunData& data,
                            const SelectChunks& select,
                            std::vector<std::shared_ptr<rml::DataTerm>>* run_terms) {
  SelectedData out;
  std::vector<std::shared_ptr<rml::ObjectiveTerm>> terms;
  double weights = 0.0;
  for (std::size_t k = 0; k < cube.planes.size(); ++k) {
    ChunkSequence& chunks = select(*cube.sequences[k]);
    rml::ChunkChi2Options options;
    options.totals = run_terms ? cube.totals[k] : totalsOverRanks(chunks, data);  // every rank's
    options.sum = data.sumOverRanks();
    out.samples += options.totals->valid_samples;
    weights += options.totals->sum_weights;
    std::shared_ptr<rml::DataTerm> term = rml::makeChunkChi2Term(op, chunks, options);
    if (run_terms)
      run_terms->push_back(term);
    terms.push_back(std::move(term));
  }
  // One noise for every plane: the mean plane's (planes of equal weight get it exactly).
  out.image_weights = weights / double(std::max<std::size_t>(1, cube.planes.size()));
  const std::size_t npix = op.geometry().numPixels();
  out.term = std::make_shared<rml::PlaneWiseTerm>(std::move(terms), npix);
  return out;
}

template <typename T>
void makePlaneTerms(std::unique_ptr<imaging::ImagingOperator<T>>& op,
                    const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                    CubeData& cube, const RunData& data, CubeOperator& out, SelectedData& whole) {
  op = imaging::makeOperator<T>(g, operatorSettings(im), {im.backend, im.gpu_device}, &out.backend);
  out.backend += "; " + op->describe();
  out.device_bytes =
      engine::DeviceMemoryGauge::instance().add([p = op.get()] { return p->deviceBytes(); });
  whole = planeTermsOver(
      *op, cube, data, [](ChunkSequence& c) -> ChunkSequence& { return c; }, &out.chi2);
}

CubeOperator makeCubeOperator(const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                              CubeData& cube, const RunData& data, SelectedData& whole) {
  CubeOperator op;
  if (im.precision == project::Precision::Double)
    makePlaneTerms(op.d, im, g, cube, data, op, whole);
  else
    makePlaneTerms(op.f, im, g, cube, data, op, whole);
  return op;
}

std::vector<double> tiled(const std::vector<double>& plane, std::size_t planes) {
  std::vector<double> out;
  if (plane.empty())
    return out;
  out.reserve(plane.size() * planes);
  for (std::size_t k = 0; k < planes; ++k)
    out.insert(out.end(), plane.begin(), plane.end());
  return out;
}

}  // namespace

void cubeOptimizeAndRestoreStages(engine::RunContext& ctx, RunData& data, CubeData& cube,
                                  ImagingProducts& out) {
  const auto& s = ctx.settings();
  const imaging::ImageGeometry g = out.geometry;
  const std::size_t npix = g.numPixels();
  const std::size_t P = cube.planes.size();
  const int planes = int(P);
  CubeOperator op;
  rml::ObjectiveFunction objective(npix, planes);
  const bool proximal_solver = solverChoice(s.optimizer).proximal;
  const std::vector<double> mask = rasterizeMask(s.mask, g.nx, g.ny);  // use_mask terms
  const std::vector<double> support = modelSupport(s, mask);

  ctx.stage("optimize", [&] {
    SelectedData whole;
    op = makeCubeOperator(s.imaging, g, cube, data, whole);
    ctx.observer().progress(0.0, "operator: " + op.backend);
    ObjectiveRecipe recipe;
    recipe.planes = planes;
    recipe.beam_area_pixels =
        rml::beamAreaPixels(out.beam.bmaj, out.beam.bmin, std::fabs(g.cell_m));
    recipe.uv_cell_wavelengths = uvCellWavelengths(g);
    recipe.data = [&](const SelectChunks& select) {
      return op.d ? planeTermsOver(*op.d, cube, data, select, nullptr)
                  : planeTermsOver(*op.f, cube, data, select, nullptr);
    };
    recipe.regularizer = [&](std::size_t i, rml::TermOptions& o) {
      const auto& r = s.regularizers[i];
      // Across-channel terms stay smooth (gradient) terms; plane-wise ones may go to the prox.
      o.proximal = proximal_solver && !isSpectralType(r.type) && isNonSmoothType(r.type);
      o.parameters = planes;
      return makeCubeRegularizer(r, g.nx, g.ny, planes, mask, i);
    };
    const ObjectiveWeights weights =
        objectiveWeights(s, data, whole.samples, whole.image_weights, recipe.beam_area_pixels);
    objective.add(whole.term, {weights.data, 0, false, planes});
    const std::vector<AutoTerm> auto_terms =
        addRegularizers(objective, s, weights, recipe.regularizer);
    std::vector<double> image(npix * P, 0.0);
    if (!s.optimizer.initial_model.empty()) {
      // A model cube of the run's planes (continuing a cube run), or one image for every plane.
      image = readInitialModelCube(
          s.optimizer.initial_model, g, out.phase_centre_ra_rad, out.phase_centre_dec_rad,
          s.optimizer.positivity != project::Positivity::None, support, planes);
    }
    solveWithLambdas(ctx, data, recipe, objective, auto_terms, weights, tiled(support, P),
                     std::move(image), out);
  });

  ctx.stage("restore", [&] {
    out.residual.clear();
    out.restored.clear();
    double chi2 = 0.0, rms2 = 0.0;
    std::size_t samples = 0;
    for (std::size_t k = 0; k < P; ++k) {
      ctx.checkpoint();
      const std::vector<double> model(out.model.begin() + std::ptrdiff_t(k * npix),
                                      out.model.begin() + std::ptrdiff_t((k + 1) * npix));
      std::vector<double> residual;
      const rml::FitStatistics fit = rml::residualImage(*op.chi2[k], model.data(), residual);
      chi2 += fit.chi2;
      samples += fit.num_samples;
      rms2 += fit.residual_image_rms * fit.residual_image_rms;
      const std::vector<double> restored =
          rml::restoredImage(model, residual, g, out.plane_beams[k]);
      out.residual.insert(out.residual.end(), residual.begin(), residual.end());
      out.restored.insert(out.restored.end(), restored.begin(), restored.end());
    }
    out.chi2_per_dof = chi2 / (2.0 * double(std::max<std::size_t>(1, samples)));
    if (s.regularization.scaling == project::ObjectiveScaling::Normalised)
      out.chi2_per_dof /= out.weight_scale;
    out.residual_rms = std::sqrt(rms2 / double(P));  // RMS over every plane's pixels
    publishImage(ctx, "residual", out.iterations, out, out.residual.data(), "Jy/beam");
    publishImage(ctx, "restored", out.iterations, out, out.restored.data(), "Jy/beam");
  });
}

}  // namespace apertura::pipeline
