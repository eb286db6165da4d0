#pragma once

// Internal to core/pipeline: automatic lambda by k-fold cross-validation (regularization.method
// "cv", docs/regularization.md).
#include <vector>

#include "core/pipeline/objective_weights.h"

namespace apertura::pipeline {

// The normalised lambda (shared by every automatic term) whose fits predict held-out
// visibilities best. The samples are split into regularization.folds folds by uv cell (UvFolds,
// cells of recipe.uv_cell_wavelengths). For each fold, the objective over the other folds runs a
// path from `lambda_max` down by path_factor per step of path_iterations iterations, warm
// started, and after each step the held-out fold's reduced chi-squared is measured. The first
// fold sets the path's length: it ends two rising steps past its least error, at lambda_min, or
// after path_steps steps that ran. The lambda of least mean error over the folds, refined by a
// parabola in log lambda, is returned; `warm_start` becomes the mean of the folds' models at
// their own least error. Fills out.lambda_path. Returns 0 when the data hold too few uv cells for
// the folds (the caller falls back to the discrepancy path).
double crossValidatedLambda(engine::RunContext& ctx, const RunData& data,
                            const ObjectiveRecipe& recipe, const ObjectiveWeights& weights,
                            const std::vector<double>& mask, double lambda_max,
                            const std::vector<double>& image, std::vector<double>& warm_start,
                            ImagingProducts& out);

// The minimum of a sampled curve: the abscissa of the vertex of the parabola through the least
// sample and its two neighbours (the least sample's own abscissa at an end, or when the three are
// not convex), kept between the neighbours.
double parabolicMinimum(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace apertura::pipeline
