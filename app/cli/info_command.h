#pragma once

#include <string>

namespace apertura::cli {

struct InfoOptions {
  std::string path;
  bool json = false;
};

// Prints the data set summary; returns the process exit code.
int runInfo(const InfoOptions& options);

}  // namespace apertura::cli
