#include "core/util/replaceable_output.h"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/util/input_error.h"

namespace apertura {
namespace {

namespace fs = std::filesystem;

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

}  // namespace

bool isMeasurementSetDirectory(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec) || !fs::is_regular_file(path + "/table.dat", ec))
    return false;
  std::ifstream info(path + "/table.info");
  std::string line;
  while (std::getline(info, line)) {
    if (line.rfind("Type", 0) == 0) {
      const auto eq = line.find('=');
      if (eq == std::string::npos)
        return false;
      const auto start = line.find_first_not_of(' ', eq + 1);
      return start != std::string::npos && line.compare(start, 15, "Measurement Set") == 0;
    }
  }
  return false;
}

bool isFitsFile(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return false;
  char card[10] = {0};
  std::ifstream in(path, std::ios::binary);
  in.read(card, sizeof card - 1);
  return in.gcount() == 9 && std::memcmp(card, "SIMPLE  =", 9) == 0;
}

void requireReplaceableMeasurementSet(const std::string& path) {
  if (exists(path) && !isMeasurementSetDirectory(path)) {
    throw InputError(path,
                     "exists and is not a Measurement Set; refusing to replace it (give a "
                     "new name, or remove it yourself)");
  }
}

void requireReplaceableFits(const std::string& path) {
  if (exists(path) && !isFitsFile(path)) {
    throw InputError(path,
                     "exists and is not a FITS file; refusing to replace it (give a new "
                     "name, or remove it yourself)");
  }
}

}  // namespace apertura
