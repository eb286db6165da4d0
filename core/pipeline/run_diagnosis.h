#pragma once

#include <string>
#include <vector>

#include "core/pipeline/imaging_products.h"
#include "core/project/project_settings.h"

namespace apertura::pipeline {

// What a radio astronomer would check on seeing a run's result, each with its likely cause and
// the next step: an empty model (a mask covering no pixel, a dirty image without positive
// emission under positivity, a lambda above what the data support), a fit that stopped before its
// first iteration, a reduced chi-squared far from the noise. Empty when the run looks sound.
// Reads the finished products only (model, dirty, image noise, chi2/dof, iterations).
std::vector<std::string> diagnoseRun(const project::ProjectSettings& s, const ImagingProducts& out);

}  // namespace apertura::pipeline
