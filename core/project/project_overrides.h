#pragma once

#include <string>
#include <vector>

#include "core/project/project_settings.h"

namespace apertura::project {

// Applies "key=value" overrides (e.g. "imaging.nx=1024", "weighting.robust=-0.5",
// "regularizers[0].lambda=1e-3", "imaging.cell_arcsec=auto") on top of `settings`. Values are JSON
// literals when they parse as such, strings otherwise. The result is validated like a loaded
// project; errors name the override. `base_dir` resolves a relative data.path.
ProjectSettings applyOverrides(const ProjectSettings& settings,
                               const std::vector<std::string>& overrides,
                               const std::string& base_dir);

}  // namespace apertura::project
