#pragma once

#include <filesystem>
#include <string>

// The L-BFGS spill files this process holds open in `dir`: their names are removed as soon as
// they are open (core/rml/lbfgs_history.cpp), so they show only among the open descriptors.
inline std::size_t spillFilesOpenIn(const std::string& dir) {
  namespace fs = std::filesystem;
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    const std::string target = fs::read_symlink(e.path(), ec).string();
    if (!ec && target.rfind(dir + "/apertura-lbfgs-", 0) == 0 &&
        target.find(" (deleted)") != std::string::npos)
      ++n;
  }
  return n;
}
