#include "core/pipeline/objective_weights.h"

#include <algorithm>
#include <cmath>

#include "core/pipeline/cross_validation.h"
#include "core/pipeline/lambda_path.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/plugin/plugin_registry.h"
#include "core/util/number_text.h"

namespace apertura::pipeline {
namespace {

// Plugin terms have no declared degree: they are scaled like L1 (a flux, no beam power).
rml::TermNormalisation normalisationOf(const std::string& type) {
  if (const rml::RegularizerDescriptor* d = rml::findBuiltinRegularizer(type))
    return d->normalisation;
  // A plugin's term as its description declares it (L1-like when it declares nothing).
  const plugin::RegularizerEntry e = plugin::PluginRegistry::global().findRegularizer(type);
  if (e.api != nullptr) {
    const AperturaPluginV2& api = *e.plugin->api;
    const AperturaTermScaleV1 s =
        plugin::regularizerScale(api, std::size_t(e.api - api.regularizers));
    return {s.flux_power, s.beam_power};
  }
  return {};
}

}  // namespace

double reducedChi2(const ImagingProducts& out, const ObjectiveWeights& w) {
  if (out.metrics.empty())
    return INFINITY;
  const double per_dof = out.metrics.back().chi2_per_dof;
  return w.normalised ? per_dof : per_dof / w.weight_scale;
}

void setLambdas(rml::ObjectiveFunction& objective, const std::vector<AutoTerm>& terms,
                double lambda) {
  for (const AutoTerm& a : terms)
    objective.setLambda(a.entry, lambda * a.scale);
}

double ObjectiveWeights::fixedScale(const std::string& type) const {
  return normalised ? scales.term(normalisationOf(type)) : 1.0;
}

double ObjectiveWeights::normalisedScale(const std::string& type) const {
  // Unnormalised, the objective is the normalised one divided by scales.data.
  const double s = scales.term(normalisationOf(type));
  return normalised ? s : s / scales.data;
}

rml::DataTotals totalsOverRanks(ChunkSequence& chunks, const RunData& data) {
  rml::DataTotals t = rml::countDataTotals(chunks);
  if (const SumOverProcesses sum = data.sumOverRanks()) {
    double v[2] = {double(t.valid_samples), t.sum_weights};
    sum(v, 2);
    t.valid_samples = std::size_t(std::llround(v[0]));
    t.sum_weights = v[1];
  }
  return t;
}

double uvCellWavelengths(const imaging::ImageGeometry& g) {
  const double field =
      std::min(std::fabs(double(g.nx) * g.cell_l), std::fabs(double(g.ny) * g.cell_m));
  return field > 0.0 ? 1.0 / field : 1.0;
}

ObjectiveWeights objectiveWeights(const project::ProjectSettings& s, const RunData& data,
                                  std::size_t samples, double image_weights,
                                  double beam_area_pixels) {
  ObjectiveWeights w;
  w.normalised = s.regularization.scaling == project::ObjectiveScaling::Normalised;
  w.weight_scale = data.weight_scale;
  w.scales = rml::normalisedScales(
      {samples, image_weights, data.weight_scale, beam_area_pixels, data.duplicate_fraction});
  w.data = w.normalised ? w.scales.data : 1.0;
  w.dof = w.normalised ? 1.0 : 2.0 * double(std::max<std::size_t>(1, samples));
  return w;
}

std::vector<AutoTerm> addRegularizers(rml::ObjectiveFunction& objective,
                                      const project::ProjectSettings& s,
                                      const ObjectiveWeights& weights, const RegularizerMaker& make,
                                      double share) {
  std::vector<AutoTerm> auto_terms;
  for (std::size_t i = 0; i < s.regularizers.size(); ++i) {
    const auto& r = s.regularizers[i];
    if (r.lambda == 0.0)
      continue;
    rml::TermOptions options;
    std::shared_ptr<rml::ObjectiveTerm> term = make(i, options);
    // Every positivity setting (projection, log, softplus) keeps the image >= 0.
    if (s.optimizer.positivity != project::Positivity::None)
      term->restrictToNonNegative();
    options.lambda = share * r.lambda.value_or(0.0) * weights.fixedScale(r.type);
    if (!r.lambda)
      auto_terms.push_back({objective.numTerms(), share * weights.normalisedScale(r.type)});
    objective.add(std::move(term), options);
  }
  return auto_terms;
}

namespace {

// The discrepancy path (solveWithLambdas); `image` ends at the path's last model.
double discrepancyLambda(engine::RunContext& ctx, const RunData& data,
                         rml::ObjectiveFunction& objective, const std::vector<AutoTerm>& auto_terms,
                         const ObjectiveWeights& weights, const std::vector<double>& mask,
                         double lambda_max, std::vector<double>& image, ImagingProducts& out,
                         SolverPass& pass, const std::function<void(const double*)>& anchor) {
  const project::RegularizationSettings& r = ctx.settings().regularization;
  double t = lambda_max;
  double previous_t = 0.0, previous_chi2 = 0.0;
  double chosen = 0.0;
  // Steps that stop at once (the image already optimal: empty under an L1 above the dirty peak)
  // cost nothing and do not count; 64 halvings bound the walk through them.
  for (int step = 0, tried = 0; step < r.path_steps && tried < 64; ++tried) {
    setLambdas(objective, auto_terms, t);
    if (anchor)
      anchor(image.data());
    const std::size_t reported = out.metrics.size();
    runSolver(ctx, data, objective, mask, std::move(image), weights.dof, out, pass);
    image = out.model;
    // A step that stopped before its first iteration (the image already optimal, e.g. empty
    // under a strong L1) reports nothing: its fit is unknown, so it cannot end the path.
    if (out.metrics.size() == reported) {
      t /= r.path_factor;
      continue;
    }
    ++step;
    pass.iteration_offset = out.iterations;
    const double chi2 = reducedChi2(out, weights);
    out.lambda_path.push_back({t, chi2, 0.0, {}, {}});
    if (keepsPathModel(out.lambda_path.size() - 1, image.size()))
      out.lambda_path.back().model.assign(image.begin(), image.end());
    ctx.observer().progress(double(step) / double(r.path_steps),
                            "lambda path: lambda " + significantDigits(t) + ", reduced chi2 " +
                                significantDigits(chi2) + " (target " +
                                significantDigits(r.target_chi2) + ")");
    if (chi2 <= r.target_chi2) {
      chosen = t;
      if (previous_t > 0.0 && std::isfinite(previous_chi2) && previous_chi2 > chi2 && chi2 > 0.0) {
        // Where the target lies between the two steps, linear in log lambda and log chi2.
        const double f = std::log(previous_chi2 / r.target_chi2) / std::log(previous_chi2 / chi2);
        chosen = std::exp(std::log(previous_t) + f * (std::log(t) - std::log(previous_t)));
      }
      break;
    }
    previous_t = t;
    previous_chi2 = chi2;
    t /= r.path_factor;
  }
  if (chosen == 0.0) {
    // No step reported a fit (every one stopped at once): the last lambda tried.
    chosen = out.lambda_path.empty() ? t * r.path_factor : out.lambda_path.back().lambda;
    const std::string reached = out.lambda_path.empty()
                                    ? std::string("no step reported a fit")
                                    : "it reached " +
                                          significantDigits(out.lambda_path.back().chi2_reduced) +
                                          " at lambda " + significantDigits(chosen);
    const std::string w =
        "automatic lambda: the fit never reached reduced chi2 " + significantDigits(r.target_chi2) +
        " (" + reached +
        "); the weakest lambda of the path is used. Calibration errors, or a model the image "
        "cannot hold (field of view, w-term), keep the residuals above the noise.";
    out.warnings.push_back(w);
    ctx.observer().warning(w);
  }
  return chosen;
}

}  // namespace

void solveWithLambdas(engine::RunContext& ctx, const RunData& data, const ObjectiveRecipe& recipe,
                      rml::ObjectiveFunction& objective, const std::vector<AutoTerm>& auto_terms,
                      const ObjectiveWeights& weights, const std::vector<double>& mask,
                      std::vector<double> image, ImagingProducts& out,
                      const std::function<void(const double*)>& anchor) {
  out.weight_scale = weights.weight_scale;
  out.image_noise = weights.scales.image_noise;
  const auto& regularizers = ctx.settings().regularizers;
  if (std::none_of(regularizers.begin(), regularizers.end(),
                   [](const project::RegularizerSettings& r) { return r.lambda != 0.0; })) {
    const std::string w =
        "no regularizer: the image is a plain maximum-likelihood fit, which fits the noise; add "
        "one, e.g. {\"type\": \"l1\", \"lambda\": \"auto\"} in regularizers";
    out.warnings.push_back(w);
    ctx.observer().warning(w);
  }
  if (auto_terms.empty()) {
    if (anchor)
      anchor(image.data());
    runSolver(ctx, data, objective, mask, std::move(image), weights.dof, out);
    return;
  }
  const project::RegularizationSettings& r = ctx.settings().regularization;
  double dirty_peak = 0.0;
  for (float v : out.dirty)
    dirty_peak = std::max(dirty_peak, double(v));
  const double lambda_max =
      r.lambda_max.value_or(std::max(1.0, dirty_peak / weights.scales.true_noise));
  SolverPass pass;
  pass.max_iterations = r.path_iterations;
  rml::LbfgsWorkspace workspace;  // shared by the discrepancy path's steps and the final run
  pass.lbfgs_workspace = &workspace;
  double chosen = 0.0;
  if (r.method == project::LambdaMethod::Cv) {
    std::vector<double> warm_start;
    chosen =
        crossValidatedLambda(ctx, data, recipe, weights, mask, lambda_max, image, warm_start, out);
    if (chosen > 0.0)
      image = std::move(warm_start);
    pass.iteration_offset = out.iterations;
  }
  if (chosen == 0.0)
    chosen = discrepancyLambda(ctx, data, objective, auto_terms, weights, mask, lambda_max, image,
                               out, pass, anchor);
  out.auto_lambda = chosen;
  setLambdas(objective, auto_terms, chosen);
  ctx.observer().progress(1.0, "automatic lambda " + significantDigits(chosen) +
                                   " (regularization.method " + project::choiceName(r.method) +
                                   ")");
  pass.max_iterations = -1;
  if (anchor)
    anchor(image.data());
  runSolver(ctx, data, objective, mask, std::move(image), weights.dof, out, pass);
}

}  // namespace apertura::pipeline
