#pragma once

#include <string>

#include "core/project/project_settings.h"

namespace apertura::project {

// JSON text of a project: sorted keys (clean diffs), schema version, data path relative to
// `base_dir` when it lies below it.
std::string projectToJson(const ProjectSettings& settings, const std::string& base_dir);

// Parses and validates. Throws InputError naming `source` and the offending field (unknown key,
// wrong type, value out of range, newer schema). Nothing is returned on error: no partial loads.
// Relative data paths are resolved against `base_dir`.
ProjectSettings projectFromJson(const std::string& text, const std::string& base_dir,
                                const std::string& source);

// File round trip. Saving is atomic (temporary sibling, then rename). Loading also checks that the
// data set exists.
void saveProject(const ProjectSettings& settings, const std::string& path);
ProjectSettings loadProject(const std::string& path);

// Range and vocabulary checks shared by loading, the CLI's --set and the GUI's validation.
// Throws InputError with the field path (e.g. "regularizers[1].lambda") as its `path()`.
void validateProject(const ProjectSettings& settings);

}  // namespace apertura::project
