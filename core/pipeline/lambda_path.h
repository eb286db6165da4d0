#pragma once

#include <algorithm>
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

}  // namespace apertura::pipeline
