#include "core/util/output_probe.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/util/input_error.h"
#include "core/util/temporary_names.h"

namespace apertura {

void requireWritablePrefix(const std::string& prefix, const std::string& key) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(prefix).parent_path();
  if (dir.empty())
    dir = ".";
  std::error_code ec;
  if (!fs::exists(dir, ec))
    throw InputError(key, "the output folder " + dir.string() + " does not exist");
  if (!fs::is_directory(dir, ec))
    throw InputError(key, "the output folder " + dir.string() + " is not a folder");
  // The probe takes the prefix's own name, so characters cfitsio would parse ('(', '[', '!')
  // are tried as well.
  const std::string probe = temporarySiblingPath(prefix) + ".probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    throw InputError(key, "cannot write in " + dir.string() + " (" + std::strerror(err) + ")");
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace apertura
