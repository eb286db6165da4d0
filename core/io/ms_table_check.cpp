#include "core/io/ms_table_check.h"

#include <casacore/tables/Tables/TableDesc.h>
#include <casacore/tables/Tables/TableUtil.h>
#include <cctype>
#include <exception>
#include <filesystem>
#include <vector>

#include "core/io/casacore_lock.h"
#include "core/io/stman_header_check.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

namespace cc = casacore;
namespace fs = std::filesystem;

// A Measurement Set nests its subtables one level deep; the limit ends a loop of folder links.
constexpr int kMaxDepth = 4;

bool isDigits(const std::string& s, std::size_t from, std::size_t to) {
  if (from >= to || to > s.size())
    return false;
  for (std::size_t i = from; i < to; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i])))
      return false;
  }
  return true;
}

// What casacore keeps in a file of its own and reads with open() and read(): table.dat,
// table.info, table.lock, table.f<N>, table.f<N>i and table.f<N>_TSM<k>. Empty if `name` is
// none of these.
std::string casacoreFileRole(const std::string& name) {
  if (name == "table.dat")
    return "the table description";
  if (name == "table.info")
    return "the table information";
  if (name == "table.lock")
    return "casacore's lock file";
  const std::string prefix = "table.f";
  if (name.compare(0, prefix.size(), prefix) != 0)
    return "";
  std::size_t end = prefix.size();
  while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end])))
    ++end;
  if (end == prefix.size())
    return "";
  const bool header = end == name.size();
  const bool arrays = end + 1 == name.size() && name[end] == 'i';
  const bool tiles = name.compare(end, 4, "_TSM") == 0 && isDigits(name, end + 4, name.size());
  return header || arrays || tiles ? "a storage-manager file" : "";
}

std::string kindOf(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::block:
    case fs::file_type::character:
      return "a device";
    default:
      return "of an unknown kind";
  }
}

// FIFOs and devices can block open() or read() for ever; sockets cannot be opened at all.
bool isSpecialFile(fs::file_type type) {
  return type == fs::file_type::fifo || type == fs::file_type::socket ||
         type == fs::file_type::block || type == fs::file_type::character;
}

void checkEntry(const fs::path& entry) {
  const std::string name = entry.filename().string();
  if (name.compare(0, 6, "table.") != 0)
    return;
  std::error_code ec;
  const fs::file_status status = fs::status(entry, ec);  // follows symbolic links
  if (status.type() == fs::file_type::not_found || ec) {
    // A dangling link or a loop of links: there is nothing for casacore to read.
    const std::string why = ec ? ec.message() : "a symbolic link to nothing";
    throw InputError(entry.string(),
                     "cannot be resolved (" + why + "); expected a regular file or nothing");
  }
  const std::string role = casacoreFileRole(name);
  if (!role.empty() && !fs::is_regular_file(status)) {
    throw InputError(entry.string(), "is not a regular file but " + kindOf(status.type()) +
                                         " (expected " + role + ")");
  }
  if (isSpecialFile(status.type())) {
    throw InputError(entry.string(), "is " + kindOf(status.type()) +
                                         "; a casacore table holds only regular files and folders");
  }
  if (!role.empty())
    checkStorageManagerFile(entry.string());
}

// casacore 3.5 meets a column type it does not know in table.dat with a bare `throw;`
// (ColumnDesc::getCtor), which calls std::terminate when no exception is being handled. Reading
// the description inside the handler of this marker makes that `throw;` rethrow the marker.
struct UnknownColumnType {};

void checkDescription(const fs::path& table) {
  const std::string dat = (table / "table.dat").string();
  try {
    try {
      throw UnknownColumnType{};
    } catch (const UnknownColumnType&) {
      cc::TableDesc desc;
      cc::TableUtil::getLayout(desc, table.string());
    }
  } catch (const UnknownColumnType&) {
    throw InputError(dat, "damaged table description: a column has a type casacore does not know");
  } catch (const std::exception& e) {  // casacore's AipsError, or bad_alloc for a garbled length
    throw InputError(dat, std::string("damaged table description: ") + e.what());
  }
}

bool holdsTableDat(const fs::path& folder) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(folder / "table.dat", ec));
}

void checkTable(const fs::path& table, int depth) {
  std::error_code ec;
  std::vector<fs::path> subtables;
  for (fs::directory_iterator it(table, ec), end; !ec && it != end; it.increment(ec)) {
    checkEntry(it->path());
    std::error_code kind_ec;
    if (depth < kMaxDepth && fs::is_directory(it->path(), kind_ec) && holdsTableDat(it->path()))
      subtables.push_back(it->path());
  }
  if (ec)
    throw InputError(table.string(), "cannot list the table's folder (" + ec.message() + ")");
  checkDescription(table);
  for (const auto& sub : subtables)
    checkTable(sub, depth + 1);
}

}  // namespace

void checkTableTree(const std::string& path) {
  if (!holdsTableDat(path))
    return;
  const auto lock = lockCasacore();
  checkTable(fs::path(path), 0);
}

}  // namespace apertura
