#include "core/io/ms_copy.h"

#include <filesystem>

#include "core/io/replaceable_output.h"
#include "core/util/input_error.h"
#include "core/util/temporary_names.h"

namespace apertura {
namespace fs = std::filesystem;
namespace {

void makeOwnerWritable(const fs::path& root) {
  const auto add = fs::perms::owner_read | fs::perms::owner_write;
  fs::permissions(root, add, fs::perm_options::add);
  if (fs::is_directory(root))
    for (const auto& entry : fs::recursive_directory_iterator(root))
      fs::permissions(entry.path(), add, fs::perm_options::add);
}

}  // namespace

void writeIntoCopy(const std::string& input, const std::string& output, bool replace_existing,
                   const std::string& what, const std::function<void(const std::string&)>& write) {
  fs::path out(output);
  if (!out.has_filename())
    out = out.parent_path();
  std::error_code ec;
  const bool exists = fs::exists(out, ec) || fs::is_symlink(out, ec);
  if (exists && !replace_existing) {
    throw InputError(out.string(), "already exists; refusing to overwrite it with a copy of " +
                                       input + " " + what);
  }
  if (exists && fs::equivalent(out, input, ec))
    throw InputError(out.string(), "is the input itself; give another output");
  // A Measurement Set is a folder, a UVFITS file a file: only the same kind is replaced.
  if (fs::is_directory(input, ec))
    requireReplaceableMeasurementSet(out.string());
  else
    requireReplaceableFits(out.string());
  removeStaleTemporariesBeside(out.string());
  const fs::path tmp = temporarySiblingPath(out.string());
  try {
    fs::copy(input, tmp, fs::copy_options::recursive);
    makeOwnerWritable(tmp);  // a read-only input (an archive's copy) gives read-only files
    write(tmp.string());
    if (exists)
      fs::remove_all(out);
    fs::rename(tmp, out);
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(tmp, ec);
    throw InputError(out.string(), "cannot copy " + input + " " + what + " (" + e.what() + ")");
  } catch (const InputError& e) {
    fs::remove_all(tmp, ec);
    throw InputError(out.string(), e.problem());  // the temporary name means nothing to users
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
}

}  // namespace apertura
