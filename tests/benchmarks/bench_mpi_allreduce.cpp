// Cost of the image-sized reductions of a distributed run: MpiCommunicator::sum over float arrays
// of n x n pixels, in allreduce and in deterministic (gather to rank 0, sum, broadcast) mode.
// Prints the median of 7 calls and the bus bandwidth 2 (N-1)/N bytes / t of a ring allreduce, the
// figure docs/mpi.md's scaling model uses.
// Usage: mpirun -np N bench_mpi_allreduce [n1 n2 ...]   (default 512 1024 2048 4096)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/engine/mpi_communicator.h"
#include "core/engine/mpi_session.h"

using namespace apertura::engine;

namespace {

double medianSeconds(MpiCommunicator& c, std::vector<float>& data) {
  std::vector<double> t;
  for (int k = 0; k < 7; ++k) {
    c.barrier();
    const auto start = std::chrono::steady_clock::now();
    c.sum(data.data(), data.size());
    c.barrier();  // until the slowest rank has its result
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MpiSession session(argc, argv);
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty())
    sizes = {512, 1024, 2048, 4096};
  MpiCommunicator fast(false), exact(true);
  if (session.rank() == 0) {
    std::printf("MpiCommunicator::sum on %d ranks (float images)\n", session.size());
    std::printf("%8s %10s %14s %12s %16s\n", "n", "MiB", "allreduce[s]", "bus GB/s",
                "deterministic[s]");
  }
  for (int n : sizes) {
    std::vector<float> data(static_cast<std::size_t>(n) * static_cast<std::size_t>(n),
                            1.0f + static_cast<float>(session.rank()));
    const double t_fast = medianSeconds(fast, data);
    const double t_exact = medianSeconds(exact, data);
    const double bytes = double(data.size()) * sizeof(float);
    const double p = session.size();
    const double bus = p > 1 ? 2.0 * (p - 1) / p * bytes / t_fast / 1e9 : 0.0;
    if (session.rank() == 0) {
      std::printf("%8d %10.1f %14.5f %12.2f %16.5f\n", n, bytes / (1 << 20), t_fast, bus, t_exact);
    }
  }
  return 0;
}
