#include "core/util/atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/util/input_error.h"

namespace apertura {

std::string temporarySiblingPath(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

void writeFileAtomically(const std::string& path, const std::string& content) {
  const std::string tmp = temporarySiblingPath(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw InputError(path, "cannot write here (temporary file could not be created)");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      out.close();
      std::remove(tmp.c_str());
      throw InputError(path, "writing failed (disk full?)");
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
