#pragma once

// What the GPU check programs share: PASS/FAIL lines, the three-block fixture with weights, the
// CUDA operator through the factory, and comparisons. Plain C++ (no Qt).
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/imaging/operator_factory.h"
#include "tests/imaging/dft_reference.h"

namespace apertura::imaging::test {

inline int failures = 0;

inline void expect(bool ok, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::printf("%s: ", ok ? "PASS" : "FAIL");
  std::vprintf(format, args);
  std::printf("\n");
  std::fflush(stdout);
  va_end(args);
  if (!ok)
    ++failures;
}

inline double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

constexpr double kArcsec = M_PI / 180.0 / 3600.0;

// Three blocks (1, 3 and 2 channels per row) with weights, about 5% of them zero.
struct Fixture {
  ImageGeometry g;
  std::vector<TestBlock> blocks;
  std::vector<UvwBlock> views;
  std::vector<std::vector<float>> weights;

  Fixture() : g(ImageGeometry::fromCell(256, 192, 1.0 * kArcsec)) {
    std::mt19937 rng(5);
    blocks.push_back(randomBlock(rng, g, 20000, {1.4e9}));
    blocks.push_back(randomBlock(rng, g, 4000, {1.0e9, 1.2e9, 1.4e9}));
    blocks.push_back(randomBlock(rng, g, 3000, {1.3e9, 1.35e9}));
    addViewsAndWeights(rng);
  }

 protected:
  explicit Fixture(const ImageGeometry& geometry) : g(geometry) {}
  // The views of `blocks` and their weights (about 5% zero, the rest in [0.5, 2.5)).
  void addViewsAndWeights(std::mt19937& rng) {
    std::uniform_real_distribution<float> d(0.0f, 1.0f);
    for (const TestBlock& b : blocks) {
      views.push_back(b.view());
      std::vector<float> w(b.samples());
      for (float& x : w)
        x = d(rng) < 0.05f ? 0.0f : 0.5f + 2.0f * d(rng);
      weights.push_back(std::move(w));
    }
  }
};

template <typename T>
std::vector<std::complex<T>> cast(const std::vector<cd>& x) {
  return std::vector<std::complex<T>>(x.begin(), x.end());
}

template <typename T>
double relativeL2(const std::vector<std::complex<T>>& a, const std::vector<std::complex<T>>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    num += std::norm(std::complex<double>(a[i]) - std::complex<double>(b[i]));
    den += std::norm(std::complex<double>(b[i]));
  }
  return std::sqrt(num / den);
}

inline double relativeL2(const std::vector<double>& a, const std::vector<double>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return std::sqrt(num / den);
}

// A solver's run on the device against the same run on the CPU: as many iterations (more than
// 10), the iterates within `tolerance` (relative L2) and the objectives too.
template <typename Result>
bool sameRun(const Result& cpu, const Result& gpu, double tolerance) {
  return cpu.iterations > 10 && gpu.iterations == cpu.iterations &&
         relativeL2(gpu.x, cpu.x) < tolerance &&
         std::abs(gpu.objective - cpu.objective) < tolerance * std::abs(cpu.objective);
}

template <typename T>
bool sameBits(const std::vector<std::complex<T>>& a, const std::vector<std::complex<T>>& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(std::complex<T>)) == 0;
}

template <typename T>
std::unique_ptr<ImagingOperator<T>> cudaOperator(const ImageGeometry& g,
                                                 const OperatorSettings& s) {
  std::string report;
  auto op = makeOperator<T>(g, s, BackendRequest{Backend::Cuda, 0}, &report);
  return op;
}

template <typename T>
const char* precision() {
  return std::is_same_v<T, float> ? "float" : "double";
}

// The main of a check program: argv[1] names one of `checks`. Without a CUDA device it prints
// SKIPPED and returns 77 (CTest's skip code); an exception is a failure.
inline int runChecks(int argc, char** argv,
                     const std::map<std::string, std::function<void()>>& checks) {
  const std::string check = argc > 1 ? argv[1] : "";
  const GpuInventory inventory = queryGpuDevices();
  if (!inventory.built_with_cuda || inventory.devices.empty()) {
    std::printf("SKIPPED: %s\n", inventory.describe().c_str());
    return 77;
  }
  std::printf("%s\n", inventory.describe().c_str());
  const auto found = checks.find(check);
  if (found == checks.end()) {
    std::string names;
    for (const auto& [name, run] : checks)
      names += (names.empty() ? "" : "|") + name;
    std::printf("usage: %s %s\n", argv[0], names.c_str());
    return 2;
  }
  try {
    found->second();
  } catch (const std::exception& e) {
    std::printf("FAIL: exception: %s\n", e.what());
    return 1;
  }
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace apertura::imaging::test
