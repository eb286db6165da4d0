#include "core/util/atomic_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/util/disk_space.h"
#include "core/util/input_error.h"
#include "core/util/temporary_names.h"

namespace apertura {

void writeFileAtomically(const std::string& path, const std::string& content) {
  const std::string tmp = temporarySiblingPath(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      const std::string full = noSpaceHint(path);
      if (!full.empty())
        throw ResourceError(path, full);
      throw InputError(path, "cannot write here (temporary file could not be created)");
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();  // a full disk may show only when the last block is written out
    if (out.fail()) {
      std::remove(tmp.c_str());
      const std::string full = noSpaceHint(path);
      if (!full.empty())
        throw ResourceError(path, full + " while writing");
      throw InputError(path, "writing failed");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw InputError(path, "could not replace the file: " + ec.message());
  }
}

}  // namespace apertura
