#include "core/util/address_space_guard.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace apertura {
namespace {

constexpr std::size_t kLargeAllocation = std::size_t(1) << 20;
constexpr std::size_t kAddressSpaceMargin = std::size_t(64) << 20;

std::atomic<bool> g_installed{false};

// The process's mapped address space (VmSize), from /proc/self/statm: no allocation here.
std::size_t mappedBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr)
    return 0;
  unsigned long pages = 0;
  const int got = std::fscanf(f, "%lu", &pages);
  std::fclose(f);
  return got == 1 ? std::size_t(pages) * std::size_t(sysconf(_SC_PAGESIZE)) : 0;
}

bool leavesMargin(std::size_t n) {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return true;
  const std::size_t used = mappedBytes();
  return used + n + kAddressSpaceMargin <= std::size_t(limit.rlim_cur);
}

}  // namespace

void installAddressSpaceGuard() {
  g_installed.store(true, std::memory_order_relaxed);
}

}  // namespace apertura

// Replaces the global operator new (C++17 [new.delete.single]): the default operator delete frees
// with free(), which matches the malloc below. The array and nothrow forms of libstdc++ call this
// one.
void* operator new(std::size_t n) {
  if (n >= apertura::kLargeAllocation && apertura::g_installed.load(std::memory_order_relaxed) &&
      !apertura::leavesMargin(n))
    throw std::bad_alloc();
  for (;;) {
    if (void* p = std::malloc(n == 0 ? 1 : n))
      return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr)
      throw std::bad_alloc();
    handler();
  }
}
