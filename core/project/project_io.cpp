#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/project/project_file.h"
#include "core/util/atomic_file.h"
#include "core/util/input_error.h"

namespace apertura::project {

namespace fs = std::filesystem;

ProjectSettings defaultProject() {
  ProjectSettings s;
  // L1 at a threshold of one image noise: within 10 % of the best lambda of a sweep on every
  // high-SNR case of bench_fidelity (docs/fidelity.md).
  s.regularizers = {{"l1", 1.0, false, {}}};
  return s;
}

void saveProject(const ProjectSettings& settings, const std::string& path) {
  validateProject(settings);
  const std::string base = fs::absolute(path).parent_path().string();
  writeFileAtomically(path, projectToJson(settings, base));
}

ProjectSettings loadProject(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(path, fs::exists(path) ? "cannot be read" : "no such file or directory");
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::string base = fs::absolute(path).parent_path().string();
  ProjectSettings s = projectFromJson(text.str(), base, path);
  if (!s.data.path.empty() && !fs::exists(s.data.path)) {
    throw InputError(path, "data.path: data set " + s.data.path + " does not exist");
  }
  return s;
}

}  // namespace apertura::project
