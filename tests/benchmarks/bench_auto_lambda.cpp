// What an automatic lambda costs: `apertura-cli run` with "lambda": "auto" (k-fold
// cross-validation on a lambda path, then the final run) against the same project with a fixed
// lambda, on simulated observations of a given size. Issue #31's target: an auto run at 512² on
// ~1e5 visibilities within 4x a fixed-lambda run. Covers 1 and 64 channels per row, high and low
// SNR; prints the median wall time and peak RSS of each (every run a child process, measured by
// wait4) and their ratio.
// Usage: bench_auto_lambda [image_size=512] [visibilities=1e5] [repeats=3] [method=cv|discrepancy]
//                          [operator=auto|visibilities|psf (imaging.operator of both projects)]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/sim/simulation_request.h"

namespace fs = std::filesystem;
using namespace apertura;

namespace {

struct Measured {
  double seconds = 0.0;
  double peak_rss_mib = 0.0;
};

// Runs `apertura-cli run project` quietly; its wall time and its own peak RSS.
Measured runCli(const std::string& project) {
  std::fflush(nullptr);  // else the child's freopen writes this process's buffer again
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen((project + ".log").c_str(), "w", stderr);
    execl(APERTURA_CLI, APERTURA_CLI, "run", project.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "apertura-cli run %s failed (status %d; see %s.log)\n", project.c_str(),
                 status, project.c_str());
    std::exit(1);
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
          usage.ru_maxrss / 1024.0};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

void writeProject(const std::string& path, const std::string& ms, int size, const char* lambda,
                  const std::string& method, const std::string& op, const std::string& prefix) {
  std::ofstream(path) << R"({"schema_version": 2, "data": {"path": ")" << ms
                      << R"("}, "imaging": {"nx": )" << size << R"(, "ny": )" << size
                      << R"(, "operator": ")" << op
                      << R"("}, "regularizers": [{"type": "l1", "lambda": )" << lambda
                      << R"(}], "regularization": {"method": ")" << method
                      << R"("}, "output": {"prefix": ")" << prefix << R"("}})"
                      << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 512;
  const double visibilities = argc > 2 ? std::atof(argv[2]) : 1e5;
  const int repeats = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  const std::string method = argc > 4 ? argv[4] : "cv";
  const std::string op = argc > 5 ? argv[5] : "auto";
  const fs::path dir =
      fs::temp_directory_path() / ("bench_auto_lambda-" + std::to_string(getpid()));
  fs::create_directories(dir);
  constexpr int kAntennas = 40;
  const double baselines = kAntennas * (kAntennas - 1) / 2.0;

  std::printf(
      "auto (%s) vs fixed lambda, %d x %d, ~%.3g visibilities, imaging.operator %s, median of %d "
      "runs each\n",
      method.c_str(), size, size, visibilities, op.c_str(), repeats);
  std::printf("%-8s %-6s %10s %10s %8s %12s %12s\n", "chan/row", "SNR", "fixed s", "auto s",
              "ratio", "fixed MiB", "auto MiB");
  for (int nchan : {1, 64}) {
    for (const char* snr : {"high", "low"}) {
      const double integrations = std::ceil(visibilities / (baselines * nchan));
      sim::SimulationRequest r;
      r.points = {"1,0,0", "0.5,1.5,1", "0.3,-2,-1"};
      r.gaussians = {"2,0.5,-0.5,1.2,0.8,30"};
      r.array = "random:3000:" + std::to_string(kAntennas) + ":12";
      r.hours = 2.0;
      r.integration_s = 7200.0 / integrations;
      r.nchan = nchan;
      r.chan_width_hz = 100e6 / nchan;
      r.sigma_jy = std::string(snr) == "high" ? 0.02 : 1.0;
      r.output = (dir / ("obs-" + std::to_string(nchan) + snr + ".ms")).string();
      sim::runSimulation(r);
      const std::string fixed = (dir / "fixed.apertura").string();
      const std::string automatic = (dir / "auto.apertura").string();
      writeProject(fixed, r.output, size, "1", method, op, (dir / "f").string());
      writeProject(automatic, r.output, size, "\"auto\"", method, op, (dir / "a").string());
      std::vector<double> tf, ta, mf, ma;
      for (int k = 0; k < repeats; ++k) {
        const Measured f = runCli(fixed), a = runCli(automatic);
        tf.push_back(f.seconds);
        ta.push_back(a.seconds);
        mf.push_back(f.peak_rss_mib);
        ma.push_back(a.peak_rss_mib);
      }
      std::printf("%-8d %-6s %10.2f %10.2f %8.2f %12.0f %12.0f\n", nchan, snr, median(tf),
                  median(ta), median(ta) / median(tf), median(mf), median(ma));
      std::fflush(stdout);
      fs::remove_all(r.output);
    }
  }
  fs::remove_all(dir);
  return 0;
}
