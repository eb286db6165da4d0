#pragma once

#include <cstdint>

namespace apertura::engine {

// Resident set size of this process now and at its peak, and its CPU time (user + system).
std::uint64_t currentRssBytes();
std::uint64_t peakRssBytes();
double processCpuSeconds();
// Physical memory of the machine (for "auto" memory budgets).
std::uint64_t physicalMemoryBytes();

}  // namespace apertura::engine
