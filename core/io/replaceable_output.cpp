#include "core/io/replaceable_output.h"

#include <casacore/casa/Exceptions/Error.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableInfo.h>
#include <casacore/tables/Tables/TableUtil.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/io/casacore_lock.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

namespace cc = casacore;
namespace fs = std::filesystem;

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

}  // namespace

bool isMeasurementSetDirectory(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec))
    return false;
  const auto lock = lockCasacore();
  try {
    return cc::Table::isReadable(path) && cc::TableUtil::tableInfo(path).type() ==
                                              cc::TableInfo::type(cc::TableInfo::MEASUREMENTSET);
  } catch (const cc::AipsError&) {
    return false;
  }
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

void requireOutputApartFromInputs(const std::string& output,
                                  const std::vector<std::pair<std::string, std::string>>& inputs) {
  std::error_code ec;
  if (output.empty() || !exists(output))
    return;
  fs::path out = fs::weakly_canonical(output, ec);
  if (!out.has_filename())  // "x.ms/": compare the folder's own name
    out = out.parent_path();
  for (const auto& [option, input] : inputs) {
    if (input.empty() || !exists(input))
      continue;
    const fs::path in = fs::weakly_canonical(input, ec);
    // Within: `out` is a prefix of `in` component by component (a/b.ms holds a/b.ms/x).
    const auto mismatch = std::mismatch(out.begin(), out.end(), in.begin(), in.end());
    if (fs::equivalent(output, input, ec) || mismatch.first == out.end()) {
      throw InputError(output, "is the input given by " + option + " (" + input +
                                   "); replacing it would destroy what is being read: choose "
                                   "another output");
    }
  }
}

}  // namespace apertura
