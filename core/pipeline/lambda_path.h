#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/pipeline/imaging_products.h"

namespace apertura::pipeline {

// Whether an automatic lambda's path (ImagingProducts::lambda_path) was cross-validated: its steps
// carry held-out errors per fold. A discrepancy path has none, and neither has a cv run that fell
// back to the discrepancy method (too few uv cells for the folds).
inline bool isCrossValidatedPath(const std::vector<ImagingProducts::LambdaStep>& path) {
  return std::any_of(path.begin(), path.end(), [](const ImagingProducts::LambdaStep& s) {
    return !s.fold_validation.empty();
  });
}

// The models kept along a path (LambdaStep::model, floats) stay within this many bytes: a path
// of 512^2 images keeps every step, a large cube its first steps only.
inline constexpr std::size_t kPathModelBudgetBytes = std::size_t(256) << 20;

// Whether step `step` (0-based) of a path of `numbers`-value images keeps its model.
inline bool keepsPathModel(std::size_t step, std::size_t numbers) {
  return (step + 1) * numbers * sizeof(float) <= kPathModelBudgetBytes;
}

}  // namespace apertura::pipeline
