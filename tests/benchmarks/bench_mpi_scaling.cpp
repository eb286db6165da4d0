// Strong scaling of a distributed run on one machine: the whole pipeline (read, weighting, dirty,
// RML, restore) on a simulated data set, with the wall time of each stage, the time per RML
// iteration and the time spent in the reductions (every Communicator::sum) per iteration.
// Usage: for n in 1 2 4; do mpirun -np $n bench_mpi_scaling [HOURS] [SIZE] [ITERATIONS]
//   [deterministic] [float-grid]; done
//   HOURS of a 32-antenna ALMA-like observation at 10 s integrations (default 2: ~1.4e6
//   visibilities), SIZE^2 image (default 1024), ITERATIONS of L-BFGS (default 10);
//   "deterministic": the deterministic reduction (exact per-chunk sums, one FFT per chunk);
//   "float-grid": imaging.grid_accumulation float (the default sums the chunks in a double grid).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "core/engine/engine.h"
#include "core/engine/mpi_communicator.h"
#include "core/engine/mpi_session.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/sim/array_layout.h"
#include "core/sim/simulator.h"

using namespace apertura;

namespace {

using Clock = std::chrono::steady_clock;

// Times every collective of the wrapped communicator.
class TimedCommunicator final : public engine::Communicator {
 public:
  explicit TimedCommunicator(engine::Communicator& inner) : inner_(inner) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  void sum(double* d, std::size_t n) override {
    timed([&] { inner_.sum(d, n); });
  }
  void sum(float* d, std::size_t n) override {
    timed([&] { inner_.sum(d, n); });
  }
  void broadcast(void* d, std::size_t bytes, int root) override {
    timed([&] { inner_.broadcast(d, bytes, root); });
  }
  bool any(bool flag) override {
    bool r = false;
    timed([&] { r = inner_.any(flag); });
    return r;
  }
  void barrier() override {
    timed([&] { inner_.barrier(); });
  }
  bool deterministic() const override { return inner_.deterministic(); }
  double seconds() const { return seconds_; }

 private:
  template <typename F>
  void timed(F f) {
    const auto start = Clock::now();
    f();
    seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
  }
  engine::Communicator& inner_;
  double seconds_ = 0.0;
};

// Stage wall times, and the time in collectives during each stage (the engine calls the observer
// on the thread that runs the stages, the one that makes the collectives).
struct StageTimes : engine::RunObserver {
  explicit StageTimes(const TimedCommunicator& c) : comm(c) {}
  void stageStarted(const std::string&) override { collectives_at_start = comm.seconds(); }
  void stageFinished(const std::string& stage, double seconds) override {
    std::lock_guard<std::mutex> lock(mutex);
    stages[stage] = seconds;
    collectives[stage] = comm.seconds() - collectives_at_start;
  }
  const TimedCommunicator& comm;
  double collectives_at_start = 0.0;
  std::mutex mutex;
  std::map<std::string, double> stages, collectives;
};

}  // namespace

int main(int argc, char** argv) {
  engine::MpiSessionOptions session_options;
  session_options.serialized = true;
  engine::MpiSession session(argc, argv, session_options);
  const double hours = argc > 1 ? std::atof(argv[1]) : 2.0;
  const int size = argc > 2 ? std::atoi(argv[2]) : 1024;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 10;
  bool deterministic = false, float_grid = false;
  for (int a = 4; a < argc; ++a) {
    deterministic = deterministic || std::string(argv[a]) == "deterministic";
    float_grid = float_grid || std::string(argv[a]) == "float-grid";
  }
  engine::MpiCommunicator mpi(deterministic);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("bench_mpi_scaling_" + std::to_string(hours) + ".ms"))
                               .string();
  if (mpi.rank() == 0 && !std::filesystem::exists(path)) {
    sim::SkyModel sky;
    sky.reference_frequency_hz = 230e9;
    sky.points.push_back({1.0, 0.3e-6, 0.2e-6, 0.0});
    sim::ObservationSpec spec;
    spec.dec_rad = -0.5;
    spec.duration_h = hours;
    spec.integration_s = 10.0;
    spec.spectral_windows = {sim::SpectralWindowSpec{230e9, 100e6, 1}};
    spec.sigma_jy = 0.05;
    sim::simulateMeasurementSet(sky, sim::almaCompactLayout(), spec, path, false);
  }
  mpi.barrier();

  project::ProjectSettings s = project::defaultProject();
  s.data.path = path;
  s.weighting.scheme = apertura::imaging::WeightingScheme::Briggs;
  s.imaging.nx = s.imaging.ny = size;
  s.imaging.threads = 1;  // one core per rank: ranks, not threads, are what scales here
  if (float_grid)
    s.imaging.grid_accumulation = apertura::project::Precision::Float;
  s.optimizer.max_iterations = iterations;
  s.optimizer.relative_tolerance = 0.0;
  s.optimizer.gradient_tolerance = 0.0;
  TimedCommunicator comm(mpi);
  auto products = std::make_shared<pipeline::ImagingProducts>();
  auto observer = std::make_shared<StageTimes>(comm);
  engine::Engine engine;
  const auto start = Clock::now();
  engine.start(s, pipeline::makeImagingPipeline(products, comm), observer);
  const engine::RunOutcome outcome = engine.wait();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  if (outcome.state != engine::RunState::Finished) {
    std::fprintf(stderr, "rank %d: %s\n", mpi.rank(), outcome.message.c_str());
    return 1;
  }
  // Each rank's time in collectives per iteration of the optimize stage (a fast rank also waits
  // there for the slowest one).
  std::vector<double> all(std::size_t(mpi.size()), 0.0);
  all[std::size_t(mpi.rank())] =
      observer->collectives["optimize"] / std::max(1, products->iterations);
  mpi.sum(all.data(), all.size());
  if (mpi.rank() == 0) {
    std::printf("ranks %d, %zu visibilities, %d^2 image, %d iterations%s: wall %.2f s\n",
                mpi.size(), products->samples, size, products->iterations,
                deterministic ? ", deterministic reduction" : "", wall);
    for (const auto& [stage, seconds] : observer->stages)
      std::printf("  %-9s %8.3f s\n", stage.c_str(), seconds);
    const double optimize = observer->stages.count("optimize") ? observer->stages["optimize"] : 0.0;
    std::printf("  per iteration %.3f s; in collectives per iteration, by rank: ",
                optimize / std::max(1, products->iterations));
    for (double t : all)
      std::printf("%.3f ", t);
    std::printf("s\n");
  }
  return 0;
}
