#include <cstdint>
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
  // L1 with its lambda chosen by cross-validation (regularization.method cv): within 10 % of the
  // best lambda of a sweep, or better, on most cases of bench_fidelity, and at low SNR it keeps
  // the image from fitting the noise where a fixed lambda of 1 does not (docs/fidelity.md).
  s.regularizers = {{"l1", std::nullopt, false, {}}};
  // A wide band's spectral slopes leave rings in a flat MFS model (docs/regularization.md).
  s.imaging.mfs_spectrum = MfsSpectrum::Auto;
  // Iterations whose cost does not grow with the data where that is faster (docs/performance.md).
  s.imaging.data_operator = OperatorMode::Auto;
  return s;
}

void saveProject(const ProjectSettings& settings, const std::string& path) {
  validateProject(settings);
  const std::string base = fs::absolute(path).parent_path().string();
  writeFileAtomically(path, projectToJson(settings, base));
}

ProjectSettings loadProject(const std::string& path) {
  // A FIFO would block and /dev/zero would fill the memory: only plain files of project size.
  constexpr std::uintmax_t kMaxProjectBytes = 16u << 20;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st))
    throw InputError(path, "no such file or directory");
  if (!fs::is_regular_file(st)) {
    throw InputError(path, fs::is_directory(st)
                               ? "is a folder; expected a project file (.apertura)"
                               : "is not a regular file (a FIFO, device or socket); expected a "
                                 "project file (.apertura)");
  }
  if (fs::file_size(path, ec) > kMaxProjectBytes) {
    throw InputError(path,
                     "is larger than 16 MiB; a project file is a few kilobytes of JSON "
                     "(is this a data set? open it with File > Open data, or put its "
                     "path in data.path)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, "cannot be read");
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
