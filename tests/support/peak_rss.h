#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace apertura::testing {

// What a workload run in a forked child reported (runWithPeakRss).
struct ChildPeakRss {
  bool ok = false;                // the workload returned and the child reported back
  std::uint64_t start_bytes = 0;  // the child's RSS when the workload started
  std::uint64_t peak_bytes = 0;   // the child's peak RSS (VmHWM) when the workload returned
  std::string output;             // what the workload returned
  std::string error;              // why not ok: the workload's exception, a crash, a failed fork

  std::uint64_t growthBytes() const {
    return peak_bytes > start_bytes ? peak_bytes - start_bytes : 0;
  }
};

// Runs `workload` in a forked child and returns the child's peak RSS with the workload's result.
// Peak RSS is per process and never falls, so every measurement needs a process of its own; the
// child's high-water mark starts at its RSS at the fork (reset through /proc/self/clear_refs).
// fork() copies only the calling thread: call it while the process runs no other threads whose
// locks or pools the workload would need (FFTW's thread pool, a running engine).
ChildPeakRss runWithPeakRss(const std::function<std::string()>& workload);

// A "Key: value kB" field of a /proc file (/proc/self/status "VmHWM:", /proc/meminfo
// "MemAvailable:"), in KiB; 0 when the file or the key is missing.
std::uint64_t procFieldKib(const std::string& file, const std::string& key);

}  // namespace apertura::testing
