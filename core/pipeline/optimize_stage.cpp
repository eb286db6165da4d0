#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "core/engine/memory_estimate.h"
#include "core/engine/rank_agreement.h"
#include "core/imaging/imaging_operator.h"
#include "core/pipeline/initial_model.h"
#include "core/pipeline/mask_raster.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/point_recorder.h"
#include "core/pipeline/regularizer_factory.h"
#include "core/plugin/plugin_optimizer.h"
#include "core/rml/chi2_term.h"
#include "core/rml/conjugate_gradient.h"
#include "core/rml/fit_statistics.h"
#include "core/rml/image_mapping.h"
#include "core/rml/imaging_operator_adapter.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/rml/proximal_solvers.h"
#include "core/rml/restore.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {
namespace {

using namespace std::chrono_literals;

rml::LineSearchSettings lineSearch(const std::string& name, rml::LineSearchSettings base) {
  base.kind = name == "armijo"         ? rml::LineSearchKind::Armijo
              : name == "brent"        ? rml::LineSearchKind::Brent
              : name == "more-thuente" ? rml::LineSearchKind::MoreThuente
                                       : rml::LineSearchKind::StrongWolfe;
  return base;
}

rml::CgBeta betaOf(const std::string& method) {
  if (method == "cg-fr")
    return rml::CgBeta::FletcherReeves;
  if (method == "cg-hs")
    return rml::CgBeta::HestenesStiefel;
  if (method == "cg-dy")
    return rml::CgBeta::DaiYuan;
  if (method == "cg-hz")
    return rml::CgBeta::HagerZhang;
  return rml::CgBeta::PolakRibierePlus;
}

// Where spilled L-BFGS pairs go: the user's directory, else $TMPDIR, else beside the outputs.
std::string scratchDirectory(const project::ProjectSettings& s) {
  if (!s.optimizer.scratch_dir.empty())
    return s.optimizer.scratch_dir;
  if (const char* tmp = std::getenv("TMPDIR"); tmp != nullptr && *tmp != '\0')
    return tmp;
  if (!s.output.prefix.empty()) {
    const std::filesystem::path dir = std::filesystem::path(s.output.prefix).parent_path();
    return dir.empty() ? std::string(".") : dir.string();
  }
  return {};  // the history's own default (/tmp)
}

// The gridding operator in the project's precision and the data term on it.
struct DataOperator {
  std::unique_ptr<imaging::ImagingOperator<float>> f;
  std::unique_ptr<imaging::ImagingOperator<double>> d;
  std::shared_ptr<rml::DataTerm> chi2;
};

// w-stacking needs every block at once (a pass per w plane): the data term holds them, through
// the MeasurementOperator adapter. Without it, the term goes chunk by chunk (held or streamed).
template <typename T>
void makeDataTerm(std::unique_ptr<imaging::ImagingOperator<T>>& op,
                  const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                  RunData& data, DataOperator& out) {
  op = imaging::makeCpuOperator<T>(g, operatorSettings(im));
  if (!im.w_stacking) {
    out.chi2 = rml::makeChunkChi2Term(*op, *data.sequence, data.totals, data.sumOverRanks());
    return;
  }
  std::vector<imaging::UvwBlock> blocks;
  std::vector<rml::VisibilityBlock> measured;
  for (const auto& c : data.chunks) {
    blocks.push_back(imaging::UvwBlock::of(c));
    measured.push_back(rml::VisibilityBlock::of(c));
  }
  op->setSamples(blocks);
  auto adapter = std::make_shared<rml::ImagingOperatorAdapter<T>>(*op, blocks);
  out.chi2 = std::make_shared<rml::Chi2Term>(adapter, std::move(measured));
}

DataOperator makeDataOperator(const project::ImagingSettings& im, const imaging::ImageGeometry& g,
                              RunData& data) {
  DataOperator op;
  if (im.precision == "double")
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
  const bool proximal_solver = s.optimizer.method == "fista" || s.optimizer.method == "sdmm";
  const std::vector<double> mask = rasterizeMask(s.mask, g.nx, g.ny);
  engine::TrackedBytes optimizer_bytes;

  ctx.stage("optimize", [&] {
    op = makeDataOperator(s.imaging, g, data);
    chi2 = op.chi2;
    objective.add(chi2, {1.0, 0, false});
    for (std::size_t i = 0; i < s.regularizers.size(); ++i) {
      const auto& r = s.regularizers[i];
      if (r.lambda == 0.0)
        continue;
      objective.add(makeRegularizer(r, g.nx, g.ny, mask, i),
                    {r.lambda, 0, proximal_solver && isNonSmoothType(r.type)});
    }
    const std::string& positivity = s.optimizer.positivity;
    // Proximal solvers keep the identity mapping: a prox is defined on the image itself.
    const rml::ImageMapping mapping = proximal_solver            ? rml::ImageMapping::Identity
                                      : positivity == "log"      ? rml::ImageMapping::Exp
                                      : positivity == "softplus" ? rml::ImageMapping::Softplus
                                                                 : rml::ImageMapping::Identity;
    const bool project_positive =
        positivity == "projection" || (proximal_solver && positivity != "none");
    // The mapping also holds pixels outside the user mask at zero (zero image, zero gradient),
    // for proximal solvers too: their smooth part sees the masked image, and the model below is
    // taken through toImage(), so it is zero outside the mask whatever a prox does there.
    rml::DifferentiableFunction& image_objective =
        proximal_solver ? objective.smoothPart()
                        : static_cast<rml::DifferentiableFunction&>(objective);
    rml::MappedObjective mapped(image_objective, mapping, mask);
    PointRecorder recorder(mapped);
    // The optimizer's state as the engine's estimate counts it (RAM only; spill is on disk).
    optimizer_bytes.reset(engine::MemoryCategory::Optimizer,
                          engine::optimizerMemory(s, npix).ram_bytes);

    std::vector<double> image(npix, 0.0);
    if (!s.optimizer.initial_model.empty()) {
      image = readInitialModel(s.optimizer.initial_model, g, out.phase_centre_ra_rad,
                               out.phase_centre_dec_rad, positivity != "none", mask);
    }
    rml::Vector x0(image.begin(), image.end());
    if (mapping != rml::ImageMapping::Identity)
      mapped.fromImage(image.data(), x0.data(), 1e-8);

    engine::SnapshotThrottle throttle(s.optimizer.snapshot_every, 100ms);
    const double dof = 2.0 * double(std::max<std::size_t>(1, chi2->numSamples()));
    rml::StopCriteria stop;
    stop.max_iterations = s.optimizer.max_iterations;
    stop.relative_tolerance = s.optimizer.relative_tolerance;
    stop.gradient_tolerance = s.optimizer.gradient_tolerance;
    stop.wall_time_seconds = s.optimizer.time_limit_s.value_or(0.0);
    // Distributed: every rank must stop at the same iteration, so only the agreement in the
    // observer below ends the run (a rank's own token could stop it one iteration early).
    stop.cancel = data.distributed() ? nullptr : &ctx.cancellation();
    stop.observer = [&](const rml::IterationReport& r) {
      engine::IterationMetrics m;
      m.iteration = r.iteration;
      m.objective = r.objective;
      for (const auto& t : r.terms) {
        m.terms.emplace_back(t.name, t.value);
        if (t.name == "chi2")
          m.chi2_per_dof = t.value / dof;
      }
      m.gradient_norm = r.gradient_norm;
      m.step = r.step;
      m.seconds = r.iteration_seconds;
      ctx.observer().iteration(m);
      out.metrics.push_back(m);
      if (throttle.due(r.iteration) && recorder.lastPoint().size() == npix) {
        mapped.toImage(recorder.lastPoint().data(), image.data());
        publishImage(ctx, "model", r.iteration, out, image.data(), "Jy/pixel");
      }
      if (data.distributed()) {
        // Every rank agrees here, so all stop at the same iteration (no pausing: the ranks
        // cannot be paused one by one).
        if (engine::cancelRequestedOnAnyRank(*data.comm, &ctx.cancellation()))
          throw OperationCancelled();
      } else {
        ctx.checkpoint();  // pause between iterations; cancellation ends the solver here
      }
    };

    rml::OptimizerResult result;
    const std::string& method = s.optimizer.method;
    if (method == "lbfgs") {
      rml::LbfgsSettings ls;
      ls.history = s.optimizer.history;
      ls.in_memory_limit = s.optimizer.in_memory_limit.value_or(0);
      ls.scratch_dir = scratchDirectory(s);
      ls.float_history = s.optimizer.history_precision == "float";
      ls.line_search = lineSearch(s.optimizer.line_search, ls.line_search);
      ls.positivity = project_positive && mapping == rml::ImageMapping::Identity;
      ls.stop = stop;
      result = rml::minimizeLbfgs(recorder, x0, ls);
    } else if (method.rfind("cg-", 0) == 0) {
      rml::CgSettings cs;
      cs.beta = betaOf(method);
      cs.line_search = lineSearch(s.optimizer.line_search, cs.line_search);
      cs.stop = stop;
      result = rml::minimizeConjugateGradient(recorder, x0, cs);
    } else if (method == "fista") {
      rml::FistaSettings fs;
      fs.positivity = project_positive;
      fs.stop = stop;
      result = rml::minimizeFista(recorder, objective.proximalTerms(), x0, fs);
    } else if (method == "sdmm") {
      rml::SdmmSettings ss;
      ss.positivity = project_positive;
      ss.stop = stop;
      result = rml::minimizeSdmm(&recorder, objective.proximalTerms(), x0, ss);
    } else {
      // Validation let it through: a loaded plugin provides it (plugin_api.h).
      const plugin::OptimizerEntry entry = plugin::PluginRegistry::global().findOptimizer(method);
      if (!entry.api)
        throw InputError("optimizer.method", "no loaded plugin provides '" + method + "'");
      result = plugin::minimizeWithPlugin(
          entry, recorder, x0, stop, project_positive && mapping == rml::ImageMapping::Identity);
    }
    out.model.assign(npix, 0.0);
    mapped.toImage(result.x.data(), out.model.data());
    out.iterations = result.iterations;
    out.stop_reason = rml::toString(result.reason);
    publishImage(ctx, "model", result.iterations, out, out.model.data(), "Jy/pixel");
  });

  ctx.stage("restore", [&] {
    const rml::FitStatistics fit = rml::residualImage(*chi2, out.model.data(), out.residual);
    out.chi2_per_dof = fit.chi2_per_dof;
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
