#include "core/pipeline/cross_validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "core/data/uv_folds.h"
#include "core/pipeline/lambda_path.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/rml/lbfgs_history.h"
#include "core/util/number_text.h"

namespace apertura::pipeline {
namespace {

// One fold's objective over the other folds' samples, and its held-out samples' data term.
struct Fold {
  std::vector<std::unique_ptr<FoldSelection>> selections;  // read by the two terms
  SelectedData train, held_out;
  ObjectiveWeights weights;
  std::unique_ptr<rml::ObjectiveFunction> objective;
  std::vector<AutoTerm> auto_terms;

  bool usable() const { return train.samples > 0 && held_out.samples > 0; }
};

std::unique_ptr<Fold> makeFold(const project::ProjectSettings& s, const RunData& data,
                               const ObjectiveRecipe& recipe, const UvFolds& folds, int index,
                               std::size_t numbers) {
  auto fold = std::make_unique<Fold>();
  auto select = [&](bool held_out) -> SelectChunks {
    return [&fold, &folds, index, held_out](ChunkSequence& run_chunks) -> ChunkSequence& {
      fold->selections.push_back(
          std::make_unique<FoldSelection>(run_chunks, folds, index, held_out));
      return *fold->selections.back();
    };
  };
  fold->train =
      recipe.training_data ? recipe.training_data(select(false)) : recipe.data(select(false));
  fold->held_out = recipe.data(select(true));
  fold->weights = objectiveWeights(s, data, fold->train.samples, fold->train.image_weights,
                                   recipe.beam_area_pixels);
  fold->objective =
      std::make_unique<rml::ObjectiveFunction>(numbers / std::size_t(recipe.planes), recipe.planes);
  fold->objective->add(fold->train.term, {fold->weights.data, 0, false, recipe.planes});
  fold->auto_terms = addRegularizers(*fold->objective, s, fold->weights, recipe.regularizer,
                                     recipe.regularizer_share);
  return fold;
}

// chi2 over 2 N s: the reduced chi-squared of `samples` samples at the run's weight scale.
double reduced(rml::ObjectiveTerm& term, std::size_t samples, const std::vector<double>& image,
               double weight_scale) {
  const double chi2 = term.evaluate(image.data(), nullptr, 1.0);
  return chi2 / (2.0 * double(samples) * weight_scale);
}

// The first fold's path ends after two rising steps (past its least error).
bool pastTheMinimum(const std::vector<double>& error) {
  const std::size_t n = error.size();
  return n >= 3 && error[n - 1] > error[n - 2] && error[n - 2] > error[n - 3];
}

}  // namespace

double parabolicMinimum(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t j = std::size_t(std::min_element(y.begin(), y.end()) - y.begin());
  if (j == 0 || j + 1 >= y.size())
    return x[j];
  const double x0 = x[j - 1], x1 = x[j], x2 = x[j + 1];
  const double y0 = y[j - 1], y1 = y[j], y2 = y[j + 1];
  const double denominator = (x1 - x0) * (y1 - y2) - (x1 - x2) * (y1 - y0);
  if (!(std::fabs(denominator) > 0.0))
    return x1;
  const double numerator = (x1 - x0) * (x1 - x0) * (y1 - y2) - (x1 - x2) * (x1 - x2) * (y1 - y0);
  const double vertex = x1 - 0.5 * numerator / denominator;
  if (!std::isfinite(vertex))
    return x1;
  return std::clamp(vertex, std::min(x0, x2), std::max(x0, x2));
}

double crossValidatedLambda(engine::RunContext& ctx, const RunData& data,
                            const ObjectiveRecipe& recipe, const ObjectiveWeights& weights,
                            const std::vector<double>& mask, double lambda_max,
                            const std::vector<double>& image, std::vector<double>& warm_start,
                            ImagingProducts& out) {
  const auto& s = ctx.settings();
  const project::RegularizationSettings& r = s.regularization;
  const UvFolds folds(r.folds, recipe.uv_cell_wavelengths);
  const double scale = weights.weight_scale;

  std::vector<double> lambdas;
  std::vector<std::vector<double>> error;     // [fold][step]
  std::vector<double> train_sum;              // per step, over the usable folds
  std::vector<std::vector<float>> model_sum;  // per step, over the usable folds (kept ones)
  std::vector<double> best_sum(image.size(), 0.0);
  int usable = 0;
  SolverPass pass;
  pass.max_iterations = r.path_iterations;
  rml::LbfgsWorkspace workspace;  // shared by the steps of a fold
  pass.lbfgs_workspace = &workspace;
  for (int f = 0; f < r.folds; ++f) {
    std::unique_ptr<Fold> fold = makeFold(s, data, recipe, folds, f, image.size());
    if (!fold->usable())
      continue;
    ++usable;
    std::vector<double> model = image, best_model = image;
    std::vector<double> fold_error;
    double best = std::numeric_limits<double>::infinity();
    const bool first = lambdas.empty();
    for (std::size_t j = 0, ran_steps = 0;; ++j) {
      if (first) {
        if (ran_steps >= std::size_t(r.path_steps) || j >= 64 || pastTheMinimum(fold_error) ||
            (!lambdas.empty() && lambdas.back() <= r.lambda_min))
          break;
        // The path ends at lambda_min: a step of its own where the path passes it, or instead of
        // a step that would land within sqrt(path_factor) above it (1.04 then 1 wastes a step).
        double lambda = lambda_max / std::pow(r.path_factor, double(j));
        if (lambda < r.lambda_min * std::sqrt(r.path_factor))
          lambda = r.lambda_min;
        lambdas.push_back(lambda);
        train_sum.push_back(0.0);
        model_sum.emplace_back(keepsPathModel(j, image.size()) ? image.size() : 0, 0.0f);
      } else if (j >= lambdas.size()) {
        break;
      }
      setLambdas(*fold->objective, fold->auto_terms, lambdas[j]);
      if (fold->train.anchor)
        fold->train.anchor(model.data());
      const std::size_t reported = out.metrics.size();
      runSolver(ctx, data, *fold->objective, mask, std::move(model), fold->weights.dof, out, pass);
      model = out.model;
      pass.iteration_offset = out.iterations;
      // A step that stopped before its first iteration (an image already optimal: empty under
      // a strong L1) costs nothing and does not count against path_steps.
      const bool ran = out.metrics.size() > reported;
      ran_steps += ran ? 1 : 0;
      const double fit = ran ? reducedChi2(out, fold->weights)
                             : reduced(*fold->train.term, fold->train.samples, model, scale);
      const double held = reduced(*fold->held_out.term, fold->held_out.samples, model, scale);
      train_sum[j] += fit;
      for (std::size_t p = 0; p < model_sum[j].size(); ++p)
        model_sum[j][p] += float(model[p]);
      fold_error.push_back(held);
      if (held < best) {
        best = held;
        best_model = model;
      }
      ctx.observer().progress(
          double(f) / double(r.folds),
          "cross-validation fold " + std::to_string(f + 1) + "/" + std::to_string(r.folds) +
              ": lambda " + significantDigits(lambdas[j]) + ", held-out reduced chi2 " +
              significantDigits(held) + " (training " + significantDigits(fit) + ")");
    }
    for (std::size_t p = 0; p < best_model.size(); ++p)
      best_sum[p] += best_model[p];
    error.push_back(std::move(fold_error));
    // Freed between folds: the next fold grids its PSF on the doubled image (a moment of four
    // times the grids), which would otherwise add to the history in the peak.
    workspace.history.reset();
  }
  if (usable < 2) {
    const std::string w = "automatic lambda: the data hold too few uv cells for " +
                          std::to_string(r.folds) +
                          " cross-validation folds; the discrepancy method is used instead";
    out.warnings.push_back(w);
    ctx.observer().warning(w);
    return 0.0;
  }

  std::vector<double> log_lambda, mean(lambdas.size(), 0.0);
  for (std::size_t j = 0; j < lambdas.size(); ++j) {
    ImagingProducts::LambdaStep step;
    step.lambda = lambdas[j];
    step.chi2_reduced = train_sum[j] / double(usable);
    for (const auto& e : error) {
      step.fold_validation.push_back(e[j]);
      mean[j] += e[j] / double(usable);
    }
    step.validation = mean[j];
    step.model = std::move(model_sum[j]);
    for (float& v : step.model)
      v /= float(usable);
    out.lambda_path.push_back(std::move(step));
    log_lambda.push_back(std::log(lambdas[j]));
  }
  const double chosen = std::exp(parabolicMinimum(log_lambda, mean));
  if (std::min_element(mean.begin(), mean.end()) == mean.end() - 1 &&
      lambdas.back() > r.lambda_min) {
    const std::string w =
        "automatic lambda: the held-out error still falls at the path's weakest "
        "lambda " +
        significantDigits(lambdas.back()) +
        "; more steps (regularization.path_steps) may find a weaker one";
    out.warnings.push_back(w);
    ctx.observer().warning(w);
  }
  warm_start.resize(image.size());
  for (std::size_t p = 0; p < image.size(); ++p)
    warm_start[p] = best_sum[p] / double(usable);
  return chosen;
}

}  // namespace apertura::pipeline
