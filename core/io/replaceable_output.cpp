#include "core/io/replaceable_output.h"

#include <casacore/casa/Exceptions/Error.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableInfo.h>
#include <casacore/tables/Tables/TableUtil.h>

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

}  // namespace apertura
