#include "core/util/output_set.h"

#include <cstdio>
#include <filesystem>

#include "core/util/input_error.h"
#include "core/util/temporary_names.h"

namespace apertura {

OutputSet::~OutputSet() {
  for (std::size_t i = committed_; i < files_.size(); ++i)
    std::remove(files_[i].first.c_str());
}

void OutputSet::write(const std::string& final_path,
                      const std::function<void(const std::string&)>& write) {
  files_.emplace_back(temporarySiblingPath(final_path), final_path);
  try {
    write(files_.back().first);
  } catch (const ResourceError& e) {
    throw ResourceError(final_path, e.problem());
  } catch (const InputError& e) {
    throw InputError(final_path, e.problem());
  }
}

void OutputSet::commit() {
  namespace fs = std::filesystem;
  // Checked before the first rename, so the likely refusal (a folder in the way) leaves no mix.
  for (const auto& [staged, final_path] : files_) {
    std::error_code ec;
    if (fs::is_directory(fs::symlink_status(final_path, ec)))
      throw InputError(final_path, "is a folder; cannot replace it with an output file");
  }
  for (; committed_ < files_.size(); ++committed_) {
    const auto& [staged, final_path] = files_[committed_];
    std::error_code ec;
    fs::rename(staged, final_path, ec);
    if (ec)
      throw InputError(final_path, "could not move the finished file into place: " + ec.message());
  }
}

std::vector<std::string> OutputSet::finalPaths() const {
  std::vector<std::string> paths;
  for (const auto& f : files_)
    paths.push_back(f.second);
  return paths;
}

}  // namespace apertura
