// Time of one RML iteration (objective value + gradient, and a full L-BFGS iteration) against one
// dirty-image pass (grid + degrid, FFTs included) of the gridding operator, on the CPU or a CUDA
// device (with the CUDA backend the iteration's state stays on the device where it can); then the
// same objective with chi2 in its PSF mode (imaging.operator psf: no pass over the visibilities
// per evaluation; CPU, no w-term).
// Usage: bench_rml_iteration [image_size=1024] [visibilities=1e6] [iterations=5] [float|double]
//        [grid accumulation of the float data term: double|float (default double, as a project)]
//        [backend: cpu|cuda|auto (default cpu)]
//        [w_max: |w| up to this many wavelengths and w-stacking on a field of 10 arcsec cells,
//         its data term over whole calls as the engine's (default 0: no w, 1 arcsec cells)]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/imaging/imaging_operator.h"
#include "core/imaging/operator_factory.h"
#include "core/pipeline/psf_data_term.h"
#include "core/project/setting_choices.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/held_chi2_term.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/util/random.h"

using namespace apertura;
using namespace apertura::rml;

namespace {

double seconds(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

// The objective without its resident evaluation: L-BFGS then keeps its state on the host.
class HostOnly final : public DifferentiableFunction {
 public:
  explicit HostOnly(DifferentiableFunction& f) : f_(f) {}
  std::size_t dimension() const override { return f_.dimension(); }
  double evaluate(const double* x, double* g) override { return f_.evaluate(x, g); }
  std::vector<StageTime> takeStageTimes() override { return f_.takeStageTimes(); }

 private:
  DifferentiableFunction& f_;
};

void runLbfgs(DifferentiableFunction& f, int iterations, double pass, const char* state) {
  LbfgsSettings ls;
  ls.positivity = true;
  ls.stop.max_iterations = iterations;
  ls.stop.relative_tolerance = 0.0;
  std::map<std::string, double> stages;
  double total = 0.0;
  int evaluations = 0;
  std::vector<double> each;
  ls.stop.observer = [&](const IterationReport& r) {
    total += r.iteration_seconds;
    each.push_back(r.iteration_seconds);
    evaluations += r.evaluations;
    for (const auto& s : r.stages)
      stages[s.stage] += s.seconds;
  };
  const OptimizerResult r = minimizeLbfgs(f, std::vector<double>(f.dimension(), 0.0), ls);
  if (r.iterations == 0)
    return;
  std::printf(
      "L-BFGS, state on %s: %d iterations, %.3f s per iteration (%.2f evaluations, "
      "%.2f dirty passes); split:\n",
      state, r.iterations, total / r.iterations, double(evaluations) / r.iterations,
      total / r.iterations / pass);
  for (const auto& [stage, s] : stages)
    std::printf("  %-10s %.3f s\n", stage.c_str(), s / r.iterations);
  // Iterations after the first `history` run the two-loop recursion over all pairs.
  std::vector<double> full(each.begin() + std::min<std::ptrdiff_t>(ls.history, each.size()),
                           each.end());
  std::sort(each.begin(), each.end());
  std::printf("L-BFGS iteration: median %.3f s", each[each.size() / 2]);
  if (!full.empty()) {
    double sum = 0.0;
    for (double t : full)
      sum += t;
    std::printf(", %.3f s mean of the %zu with a full history (%d pairs)", sum / full.size(),
                full.size(), ls.history);
  }
  std::printf("\n");
}

template <typename T>
int run(int n, std::size_t nvis, int iterations, bool double_accumulation,
        const std::string& backend, double w_max) {
  const bool wstack = w_max > 0.0;
  const auto geometry =
      imaging::ImageGeometry::fromCell(n, n, (wstack ? 10.0 : 1.0) / 3600.0 * M_PI / 180.0);
  // Random baselines over 90% of the uv range the image supports, one channel at 1 GHz.
  const std::vector<double> freq = {1.0e9};
  const double umax = 0.9 / (2.0 * std::abs(geometry.cell_l)) * imaging::kSpeedOfLight / 1.0e9;
  std::vector<double> uvw(3 * nvis);
  for (std::size_t r = 0; r < nvis; ++r) {
    uvw[3 * r] = (2.0 * counterUniform(1, 2 * r) - 1.0) * umax;
    uvw[3 * r + 1] = (2.0 * counterUniform(1, 2 * r + 1) - 1.0) * umax;
    uvw[3 * r + 2] =
        (2.0 * counterUniform(3, r) - 1.0) * w_max * imaging::kSpeedOfLight / freq.front();
  }
  const std::vector<imaging::UvwBlock> blocks{{uvw.data(), nvis, freq.data(), 1}};
  imaging::OperatorSettings settings;
  settings.w_stacking = wstack;
  auto start = std::chrono::steady_clock::now();
  const auto kind = project::parseChoice<imaging::Backend>(backend);
  if (!kind)
    throw std::invalid_argument("backend '" + backend + "': expected " +
                                project::choiceList<imaging::Backend>());
  const imaging::BackendRequest request{*kind, 0};
  std::string report;
  auto op = imaging::makeOperator<T>(geometry, settings, request, &report);
  op->setSamples(blocks);
  std::printf("operator: %s; %s\nsetSamples: %.3f s\n", report.c_str(), op->describe().c_str(),
              seconds(start));

  // One dirty-image pass: degrid (image -> vis) and grid (vis -> image), FFTs included.
  std::vector<std::complex<T>> image(geometry.numPixels(), T(0)), vis(nvis);
  image[geometry.numPixels() / 2 + n / 2] = T(1);
  std::vector<double> degrid_s, grid_s;
  for (int k = 0; k < 3; ++k) {
    start = std::chrono::steady_clock::now();
    op->degrid(image.data(), {vis.data()});
    degrid_s.push_back(seconds(start));
    start = std::chrono::steady_clock::now();
    op->grid({vis.data()}, {nullptr}, image.data());
    grid_s.push_back(seconds(start));
  }
  std::sort(degrid_s.begin(), degrid_s.end());
  std::sort(grid_s.begin(), grid_s.end());
  const double pass = degrid_s[1] + grid_s[1];
  std::printf("dirty pass (median of 3): degrid %.3f s + grid %.3f s = %.3f s\n", degrid_s[1],
              grid_s[1], pass);

  // The RML objective: chi2 + TSV + smoothed L1, double precision outside the operator. The data
  // term is the engine's: chunk by chunk through the gridder's streaming calls, chunks held (with
  // w-stacking: whole calls over every chunk, one pass per w plane).
  VisibilityChunk chunk;
  chunk.frequencies_hz = freq;
  chunk.uvw_m = uvw;
  chunk.visibilities.resize(nvis);
  chunk.weights.assign(nvis, 1.0f);
  for (std::size_t k = 0; k < nvis; ++k) {
    const NormalPair z = counterNormalPair(2, k);
    chunk.visibilities[k] = std::complex<float>(float(1.0 + 0.1 * z.a), float(0.1 * z.b));
  }
  const std::vector<VisibilityChunk> chunks{chunk};
  HeldChunks held(chunks);
  imaging::OperatorSettings data_settings = settings;
  data_settings.double_accumulation = double_accumulation;
  auto data_op = imaging::makeOperator<T>(geometry, data_settings, request);
  ObjectiveFunction objective(geometry.numPixels());
  const std::shared_ptr<DataTerm> exact =
      wstack ? makeHeldChi2Term(*data_op, chunks) : makeChunkChi2Term(*data_op, held);
  objective.add(exact);
  std::printf("data term: %s\n", data_op->describe().c_str());  // w planes set by now
  objective.add(std::make_shared<TotalSquaredVariation>(n, n), {1.0});
  objective.add(std::make_shared<L1Regularizer>(n, n, 1e-6), {1.0});
  std::vector<double> x(geometry.numPixels(), 0.0), g(x.size());
  objective.takeStageTimes();
  start = std::chrono::steady_clock::now();
  for (int k = 0; k < iterations; ++k)
    objective.evaluate(x.data(), g.data());
  const double eval = seconds(start) / iterations;
  std::printf("objective value + gradient: %.3f s per evaluation (%.2f dirty passes); split:\n",
              eval, eval / pass);
  for (const auto& s : objective.takeStageTimes())
    std::printf("  %-10s %.3f s\n", s.stage.c_str(), s.seconds / iterations);

  // L-BFGS with its state where the objective keeps images (resident: on the device with the
  // CUDA backend) and, for comparison, with the same objective seen as a host-only function.
  HostOnly host_only(objective);
  runLbfgs(objective, iterations, pass,
           objective.residentSpace() ? objective.residentSpace()->describe().c_str() : "host");
  if (objective.residentSpace() != nullptr)
    runLbfgs(host_only, iterations, pass, "host (image and gradient copied per evaluation)");
  if (wstack || data_op->vectorSpace() != nullptr)
    return 0;

  // The PSF mode: the PSF gridded once on the doubled image, then two FFTs per evaluation.
  start = std::chrono::steady_clock::now();
  pipeline::PsfCost cost;
  const auto psf = pipeline::psfTerm<T>(exact, geometry, data_settings, request, held, nullptr,
                                        pipeline::PsfUse::Always, &cost);
  std::printf("\nPSF mode: set up in %.3f s (PSF gridded on %dx%d, an exact pass at the anchor)\n",
              seconds(start), 2 * n, 2 * n);
  ObjectiveFunction psf_objective(geometry.numPixels());
  psf_objective.add(psf);
  psf_objective.add(std::make_shared<TotalSquaredVariation>(n, n), {1.0});
  psf_objective.add(std::make_shared<L1Regularizer>(n, n, 1e-6), {1.0});
  psf_objective.takeStageTimes();
  start = std::chrono::steady_clock::now();
  for (int k = 0; k < iterations; ++k)
    psf_objective.evaluate(x.data(), g.data());
  const double psf_eval = seconds(start) / iterations;
  std::printf(
      "PSF mode objective value + gradient: %.3f s per evaluation (%.2f dirty passes, %.3gx the "
      "visibility mode)\n",
      psf_eval, psf_eval / pass, psf_eval / eval);
  runLbfgs(psf_objective, iterations, pass, "host, chi2 through the PSF");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const std::size_t nvis = argc > 2 ? std::size_t(std::atof(argv[2])) : 1000000;
  const int iterations = argc > 3 ? std::max(1, std::atoi(argv[3])) : 5;
  const bool use_double = argc > 4 && std::strcmp(argv[4], "double") == 0;
  const bool double_accumulation = !(argc > 5 && std::strcmp(argv[5], "float") == 0);
  const std::string backend = argc > 6 ? argv[6] : "cpu";
  const double w_max = argc > 7 ? std::max(0.0, std::atof(argv[7])) : 0.0;
  std::printf(
      "RML iteration benchmark: image %dx%d, %zu visibilities, operator in %s, backend %s\n", n, n,
      nvis, use_double ? "double" : "float", backend.c_str());
  if (w_max > 0.0)
    std::printf("w-stacking, |w| <= %.0f wavelengths, 10 arcsec cells\n", w_max);
  try {
    return use_double ? run<double>(n, nvis, iterations, true, backend, w_max)
                      : run<float>(n, nvis, iterations, double_accumulation, backend, w_max);
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
