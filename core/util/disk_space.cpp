#include "core/util/disk_space.h"

#include <sys/statvfs.h>

#include <filesystem>

namespace apertura {

std::string noSpaceHint(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(path).parent_path();  // the folder the output (or its temporary) is in
  std::error_code ec;
  while (!dir.empty() && !fs::is_directory(dir, ec))
    dir = dir.parent_path();
  if (dir.empty())
    dir = ".";
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0)
    return "";
  const unsigned long long free_bytes =
      static_cast<unsigned long long>(st.f_bavail) * static_cast<unsigned long long>(st.f_frsize);
  constexpr unsigned long long kNearlyFull = 4ull << 20;
  if (free_bytes >= kNearlyFull)
    return "";
  return "no space left on device (" + std::to_string(free_bytes / 1024) + " KiB free in " +
         dir.string() + ")";
}

}  // namespace apertura
