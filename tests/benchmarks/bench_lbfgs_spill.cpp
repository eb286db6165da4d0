// Peak RSS and time per iteration of L-BFGS with part of its history spilled to disk: m = 10 pairs
// with in_memory_limit 10 (all in RAM), 5 and 2, pairs in double then in float, on a cheap
// separable quadratic over an N x N image. Each configuration runs in a forked child so its peak
// RSS (VmHWM) is its own; the time per iteration is the mean over the iterations after the history
// has filled (steady state). A configuration whose predicted RSS exceeds a fraction (default 0.7)
// of MemAvailable is skipped: 8192^2 all in RAM needs about 12.5 GiB. Usage:
//   bench_lbfgs_spill [sizes=4096,8192] [iterations=16] [scratch_dir=$TMPDIR or /tmp]
//                     [max_fraction_of_available=0.7]
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/rml/lbfgs.h"
#include "tests/support/peak_rss.h"

using namespace apertura::rml;

namespace {

constexpr int kHistory = 10;

// 1/2 sum_p w_p (x_p - 1)^2 with w_p in (1e-3, 1]: two passes over the image per evaluation, so
// the optimizer's own vector work (and the spill I/O) dominates.
class CheapQuadratic final : public DifferentiableFunction {
 public:
  explicit CheapQuadratic(std::size_t n) : n_(n) {}
  std::size_t dimension() const override { return n_; }
  double evaluate(const double* x, double* g) override {
    double f = 0.0;
    for (std::size_t p = 0; p < n_; ++p) {
      const double w = 1e-3 + double((p * 2654435761u) % 1024) / 1024.0;
      const double r = x[p] - 1.0;
      f += 0.5 * w * r * r;
      if (g != nullptr)
        g[p] = w * r;
    }
    return f;
  }

 private:
  std::size_t n_;
};

struct Result {
  std::uint64_t peak_bytes = 0;
  double seconds_per_iteration = 0.0;
  int iterations = 0;
  bool ok = false;
};

Result runChild(int side, int in_memory_limit, bool float_history, int iterations,
                const std::string& scratch) {
  const apertura::testing::ChildPeakRss child = apertura::testing::runWithPeakRss([&] {
    const std::size_t n = std::size_t(side) * std::size_t(side);
    CheapQuadratic f(n);
    LbfgsSettings s;
    s.history = kHistory;
    s.in_memory_limit = in_memory_limit;
    s.float_history = float_history;
    s.scratch_dir = scratch;
    s.stop.max_iterations = iterations;
    s.stop.relative_tolerance = -1.0;
    double total = 0.0;
    int counted = 0;
    s.stop.observer = [&](const IterationReport& rep) {
      if (rep.iteration > kHistory + 1) {  // history full: every push spills and drops
        total += rep.iteration_seconds;
        ++counted;
      }
    };
    const OptimizerResult res = minimizeLbfgs(f, Vector(n, 0.0), s);
    char line[64];
    std::snprintf(line, sizeof line, "%d %.9g", res.iterations,
                  counted > 0 ? total / counted : 0.0);
    return std::string(line);
  });
  Result r;
  if (!child.ok) {
    std::fprintf(stderr, "error: %s\n", child.error.c_str());
    return r;
  }
  std::istringstream(child.output) >> r.iterations >> r.seconds_per_iteration;
  r.peak_bytes = child.peak_bytes;
  r.ok = true;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  {
    std::stringstream list(argc > 1 ? argv[1] : "4096,8192");
    std::string item;
    while (std::getline(list, item, ','))
      sizes.push_back(std::atoi(item.c_str()));
  }
  const int iterations = argc > 2 ? std::atoi(argv[2]) : kHistory + 6;
  std::string scratch = argc > 3 ? argv[3] : "";
  const double max_fraction = argc > 4 ? std::atof(argv[4]) : 0.7;
  if (scratch.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    scratch = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  std::printf("L-BFGS history spill: m = %d, %d iterations, scratch %s\n", kHistory, iterations,
              scratch.c_str());
  std::printf("%6s %6s %6s %12s %12s %12s %10s %8s\n", "image", "in_mem", "pairs", "peak RSS MiB",
              "spill MiB", "s/iteration", "vs in-RAM", "iters");
  for (int side : sizes) {
    const double vector_mib = double(side) * side * 8.0 / 1048576.0;
    double reference = 0.0;
    struct Config {
      int limit;
      bool float_history;
    };
    for (const Config c : {Config{10, false}, Config{5, false}, Config{2, false}, Config{10, true},
                           Config{5, true}, Config{2, true}}) {
      const int limit = c.limit;
      const double element = c.float_history ? 0.5 : 1.0;  // of a double vector
      // x, g, the trial point and its gradient (double) + the direction and 2 x limit history
      // (+ the mapped spilled pair) in the history's precision.
      const double predicted_mib =
          vector_mib * (4 + element * (1 + 2 * limit + (limit < kHistory ? 2 : 0)));
      const double available_mib =
          apertura::testing::procFieldKib("/proc/meminfo", "MemAvailable:") / 1024.0;
      const double spill_mib = 2.0 * (kHistory - limit) * vector_mib * element;
      if (predicted_mib > max_fraction * available_mib) {
        std::printf("%6d %6d   skipped: needs ~%.0f MiB, %.0f MiB available\n", side, limit,
                    predicted_mib, available_mib);
        continue;
      }
      const Result r = runChild(side, limit, c.float_history, iterations, scratch);
      if (!r.ok) {
        std::printf("%6d %6d   failed\n", side, limit);
        continue;
      }
      if (limit == kHistory)
        reference = r.seconds_per_iteration;  // each precision against its own all-in-RAM run
      std::printf(
          "%6d %6d %6s %12.0f %12.0f %12.3f %10s %8d\n", side, limit,
          c.float_history ? "float" : "double", r.peak_bytes / 1048576.0, spill_mib,
          r.seconds_per_iteration,
          reference > 0.0
              ? (std::to_string(std::lround(100.0 * r.seconds_per_iteration / reference)) + "%")
                    .c_str()
              : "-",
          r.iterations);
      std::fflush(stdout);
    }
  }
  return 0;
}
