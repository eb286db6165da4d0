#include "core/util/temporary_names.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>

namespace apertura {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMarker = ".tmp-";

// FNV-1a of the host name, as 8 hex digits: short, and the same for every process on the host.
const std::string& hostTag() {
  static const std::string tag = [] {
    char name[256] = {};
    if (::gethostname(name, sizeof(name) - 1) != 0)
      name[0] = '\0';
    std::uint32_t h = 2166136261u;
    for (const char* c = name; *c != '\0'; ++c)
      h = (h ^ std::uint8_t(*c)) * 16777619u;
    char text[9];
    std::snprintf(text, sizeof(text), "%08x", h);
    return std::string(text);
  }();
  return tag;
}

bool allDigits(const std::string& s, std::size_t from, std::size_t to) {
  if (to <= from)
    return false;
  for (std::size_t i = from; i < to; ++i) {
    if (s[i] < '0' || s[i] > '9')
      return false;
  }
  return true;
}

bool processRuns(long pid) {
  // EPERM: it exists but belongs to someone else.
  return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

std::string temporarySiblingPath(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + kMarker + hostTag() + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter++);
}

bool isStaleTemporaryName(const std::string& name) {
  const std::size_t at = name.rfind(kMarker);
  if (at == std::string::npos || at == 0)
    return false;
  std::size_t p = at + std::char_traits<char>::length(kMarker);
  if (name.compare(p, 8, hostTag()) != 0 || name.size() < p + 9 || name[p + 8] != '-')
    return false;
  p += 9;
  const std::size_t pid_end = name.find('-', p);
  if (pid_end == std::string::npos || !allDigits(name, p, pid_end) || pid_end - p > 9)
    return false;
  std::size_t end = name.find('.', pid_end);
  const std::string suffix = end == std::string::npos ? "" : name.substr(end);
  if (end == std::string::npos)
    end = name.size();
  if (!allDigits(name, pid_end + 1, end) ||
      (!suffix.empty() && suffix != ".old" && suffix != ".probe"))
    return false;
  const long pid = std::stol(name.substr(p, pid_end - p));
  return pid > 0 && !processRuns(pid);
}

std::vector<std::string> removeStaleTemporaries(const std::string& folder) {
  std::vector<std::string> removed;
  std::error_code ec;
  fs::directory_iterator it(folder.empty() ? "." : folder, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    if (!isStaleTemporaryName(p.filename().string()))
      continue;
    std::error_code rm;
    // A symbolic link is removed itself, never followed.
    if (fs::remove_all(p, rm) > 0 && !rm)
      removed.push_back(p.string());
  }
  return removed;
}

std::vector<std::string> removeStaleTemporariesBeside(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return removeStaleTemporaries(parent.empty() ? "." : parent.string());
}

}  // namespace apertura
