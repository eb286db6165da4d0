#include "core/util/open_files.h"

#include <sys/resource.h>

#include <filesystem>
#include <limits>

#include "core/util/input_error.h"

namespace apertura {
namespace {

long openDescriptors() {
  std::error_code ec;
  long n = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ++n;
  return ec ? 0 : n - 1;  // less the descriptor of the iteration itself
}

}  // namespace

long freeFileDescriptors() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return std::numeric_limits<long>::max();
  return long(limit.rlim_cur) - openDescriptors();
}

void requireFreeFileDescriptors(long needed, const std::string& path, const std::string& what) {
  if (freeFileDescriptors() >= needed)
    return;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    if (freeFileDescriptors() >= needed)
      return;
  }
  getrlimit(RLIMIT_NOFILE, &limit);
  throw ResourceError(path, "too few open files allowed (ulimit -n " +
                                std::to_string(limit.rlim_cur) + ", " +
                                std::to_string(std::max(0L, freeFileDescriptors())) +
                                " free): " + what + " needs about " + std::to_string(needed));
}

}  // namespace apertura
