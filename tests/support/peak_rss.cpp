#include "tests/support/peak_rss.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>

namespace apertura::testing {
namespace {

// The fixed-size part of the child's report; `output` and `error` follow as raw bytes.
struct Header {
  std::uint64_t ok = 0;
  std::uint64_t start_bytes = 0;
  std::uint64_t peak_bytes = 0;
  std::uint64_t output_size = 0;
  std::uint64_t error_size = 0;
};

std::uint64_t currentRssBytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident))
    return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

bool writeAll(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

std::string readAll(int fd) {
  std::string out;
  char buf[1 << 14];
  for (;;) {
    const ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return out;
    out.append(buf, static_cast<std::size_t>(r));
  }
}

[[noreturn]] void childMain(int fd, const std::function<std::string()>& workload) {
  // The high-water mark is the parent's at the fork; "5" resets it to the current RSS.
  if (std::ofstream clear("/proc/self/clear_refs"); clear)
    clear << "5";
  Header h;
  std::string output, error;
  h.start_bytes = currentRssBytes();
  try {
    output = workload();
    h.ok = 1;
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "unknown exception";
  }
  h.peak_bytes = procFieldKib("/proc/self/status", "VmHWM:") * 1024;
  h.output_size = output.size();
  h.error_size = error.size();
  std::fflush(nullptr);  // what the workload printed; the parent flushed its own before the fork
  const bool sent = writeAll(fd, &h, sizeof h) && writeAll(fd, output.data(), output.size()) &&
                    writeAll(fd, error.data(), error.size());
  ::_exit(sent ? 0 : 1);  // no atexit handlers or static destructors of the parent's state
}

}  // namespace

ChildPeakRss runWithPeakRss(const std::function<std::string()>& workload) {
  ChildPeakRss result;
  int fds[2];
  if (::pipe(fds) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  std::fflush(nullptr);  // else the child would inherit, and print again, unflushed output
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    childMain(fds[1], workload);
  }
  ::close(fds[1]);
  if (pid < 0) {
    result.error = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    return result;
  }
  const std::string report = readAll(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  Header h;
  if (report.size() >= sizeof h)
    std::memcpy(&h, report.data(), sizeof h);
  if (report.size() < sizeof h || report.size() != sizeof h + h.output_size + h.error_size) {
    result.error = WIFSIGNALED(status)
                       ? "the child was killed by signal " + std::to_string(WTERMSIG(status))
                       : "the child exited with status " + std::to_string(WEXITSTATUS(status)) +
                             " without a complete report";
    return result;
  }
  result.ok = h.ok != 0;
  result.start_bytes = h.start_bytes;
  result.peak_bytes = h.peak_bytes;
  result.output = report.substr(sizeof h, h.output_size);
  result.error = report.substr(sizeof h + h.output_size, h.error_size);
  return result;
}

std::uint64_t procFieldKib(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  std::string k;
  while (in >> k) {
    if (k == key) {
      std::uint64_t v = 0;
      in >> v;
      return v;
    }
    in.ignore(1 << 16, '\n');
  }
  return 0;
}

}  // namespace apertura::testing
