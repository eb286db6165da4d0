// The CUDA operator's w-stacking on a device (label gpu): a wide field whose samples reach
// |w| = 1000 wavelengths (tens of w planes), against the CPU operator with w-stacking and the
// direct Fourier sums with the w-term, the tiled gridder against the simple one, adjointness, the
// streaming calls refused ("wstack"); the w-stacked data term resident on the device (value,
// gradient, 20 L-BFGS iterations) against the CPU's ("wstack_chi2"). Without a CUDA device it
// prints SKIPPED and exits 77. Plain C++ (no Qt).
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/compute/vector_space.h"
#include "core/imaging/operator_factory.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/held_chi2_term.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/util/input_error.h"
#include "tests/gpu/cuda_check_support.h"
#include "tests/imaging/dft_reference.h"

using namespace apertura;
using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

// 2 arcmin cells on 256 x 192 pixels (a 8.5 x 6.4 degree field), two blocks (1 and 3 channels).
struct WideField : Fixture {
  WideField() : Fixture(ImageGeometry::fromCell(256, 192, 120.0 * kArcsec)) {
    std::mt19937 rng(37);
    blocks.push_back(randomBlock(rng, g, 20000, {1.4e9}, 0.95, 1000.0));
    blocks.push_back(randomBlock(rng, g, 4000, {1.0e9, 1.2e9, 1.4e9}, 0.95, 1000.0));
    addViewsAndWeights(rng);
  }
};

int planesOf(const std::string& description) {
  const std::size_t at = description.find("wstack_planes=");
  return at == std::string::npos ? -1 : std::stoi(description.substr(at + 14));
}

template <typename T>
struct Buffers {
  std::vector<std::vector<std::complex<T>>> vis;
  std::vector<std::complex<T>*> out;
  std::vector<const std::complex<T>*> in;

  explicit Buffers(const Fixture& f) : vis(f.blocks.size()) {
    for (std::size_t b = 0; b < f.blocks.size(); ++b) {
      vis[b].resize(f.blocks[b].samples());
      out.push_back(vis[b].data());
      in.push_back(vis[b].data());
    }
  }
  std::vector<std::complex<T>> joined() const {
    std::vector<std::complex<T>> all;
    for (const auto& v : vis)
      all.insert(all.end(), v.begin(), v.end());
    return all;
  }
};

template <typename T>
void againstCpu(const WideField& f, double eps, bool double_accumulation) {
  using C = std::complex<T>;
  OperatorSettings s;
  s.epsilon = eps;
  s.w_stacking = true;
  s.double_accumulation = double_accumulation;
  auto cpu = makeCpuOperator<T>(f.g, s);
  auto gpu = cudaOperator<T>(f.g, s);
  cpu->setSamples(f.views);
  gpu->setSamples(f.views);
  const std::string name = std::string(precision<T>()) + " eps " + std::to_string(eps) +
                           (double_accumulation ? " (double accumulation)" : "");
  const int planes = planesOf(gpu->describe());
  expect(planes > 8 && planes == planesOf(cpu->describe()), "%s: %d w planes (CPU %d)",
         name.c_str(), planes, planesOf(cpu->describe()));

  std::mt19937 rng(41);
  const std::vector<cd> image_d = randomComplex(rng, f.g.numPixels());
  const std::vector<C> image = cast<T>(image_d);
  Buffers<T> vc(f), vg(f);
  cpu->degrid(image.data(), vc.out);
  auto t0 = std::chrono::steady_clock::now();
  gpu->degrid(image.data(), vg.out);
  const double t_degrid = secondsSince(t0);
  const double degrid_diff = relativeL2(vg.joined(), vc.joined());
  expect(degrid_diff <= eps, "%s: w-stacked degrid CUDA vs CPU relative L2 %.3g (<= %.g; %.3f s)",
         name.c_str(), degrid_diff, eps, t_degrid);

  TestBlock head = f.blocks[0];
  head.uvw.resize(3 * 200);
  const std::vector<cd> exact = directDegrid(f.g, image_d, head, true);
  const std::vector<C> gpu_head(vg.vis[0].begin(), vg.vis[0].begin() + 200);
  const std::vector<cd> flat = directDegrid(f.g, image_d, head, false);
  const double dft = l2RelativeError(gpu_head, exact), dft_flat = l2RelativeError(gpu_head, flat);
  expect(dft <= 2 * eps && dft_flat > 1e-2,
         "%s: w-stacked degrid CUDA vs direct sum with the w-term %.3g (<= 2 eps; without it "
         "%.3g)",
         name.c_str(), dft, dft_flat);

  std::vector<const float*> weights;
  for (const auto& w : f.weights)
    weights.push_back(w.data());
  std::vector<C> ic(f.g.numPixels()), ig(f.g.numPixels());
  cpu->grid(vg.in, weights, ic.data());
  t0 = std::chrono::steady_clock::now();
  gpu->grid(vg.in, weights, ig.data());
  const double t_grid = secondsSince(t0);
  const double grid_diff = relativeL2(ig, ic);
  expect(grid_diff <= eps, "%s: w-stacked grid CUDA vs CPU relative L2 %.3g (<= %.g; %.3f s)",
         name.c_str(), grid_diff, eps, t_grid);
  if (std::is_same_v<T, float> && double_accumulation) {
    std::vector<cd> dc(f.g.numPixels()), dg(f.g.numPixels());
    cpu->gridDouble(vg.in, weights, dc.data());
    gpu->gridDouble(vg.in, weights, dg.data());
    const double d = relativeL2(dg, dc);
    expect(d <= eps, "%s: w-stacked gridDouble CUDA vs CPU relative L2 %.3g", name.c_str(), d);
  }

  // The tiled gridder (the default) against one thread per sample: degridding in its order gives
  // the same bits (each sample adds its planes in the same order), gridding differs only by the
  // order of the additions.
  expect(gpu->describe().find("gridder=tiled") != std::string::npos, "%s: %s", name.c_str(),
         gpu->describe().c_str());
  setenv("APERTURA_CUDA_GRIDDER", "simple", 1);
  auto simple = cudaOperator<T>(f.g, s);
  unsetenv("APERTURA_CUDA_GRIDDER");
  simple->setSamples(f.views);
  Buffers<T> vs(f);
  simple->degrid(image.data(), vs.out);
  expect(vs.joined() == vg.joined(), "%s: w-stacked degrid, tiled order and sample order equal",
         name.c_str());
  std::vector<C> is(f.g.numPixels());
  t0 = std::chrono::steady_clock::now();
  simple->grid(vg.in, weights, is.data());
  const double t_simple = secondsSince(t0);
  const double tolerance = std::is_same_v<T, double> ? 1e-13 : (double_accumulation ? 1e-7 : 1e-5);
  const double tiled_diff = relativeL2(ig, is);
  expect(tiled_diff <= tolerance,
         "%s: w-stacked grid tiled vs simple relative L2 %.3g (<= %.g; %.3f s vs %.3f s)",
         name.c_str(), tiled_diff, tolerance, t_grid, t_simple);
}

// <A x, y> = <x, A^H y> with w-stacking on the device.
template <typename T>
void adjointness(const WideField& f, double eps, double tolerance) {
  using C = std::complex<T>;
  OperatorSettings s;
  s.epsilon = eps;
  s.w_stacking = true;
  auto op = cudaOperator<T>(f.g, s);
  op->setSamples(f.views);
  std::mt19937 rng(43);
  const std::vector<C> x = cast<T>(randomComplex(rng, f.g.numPixels()));
  Buffers<T> ax(f), y(f);
  for (auto& v : y.vis)
    v = cast<T>(randomComplex(rng, v.size()));
  op->degrid(x.data(), ax.out);
  std::vector<C> ahy(f.g.numPixels());
  op->grid(y.in, std::vector<const float*>(f.blocks.size(), nullptr), ahy.data());
  cd lhs = 0, rhs = 0;
  double nax = 0, ny = 0;
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    for (std::size_t k = 0; k < y.vis[b].size(); ++k) {
      lhs += cd(ax.vis[b][k]) * std::conj(cd(y.vis[b][k]));
      nax += std::norm(cd(ax.vis[b][k]));
      ny += std::norm(cd(y.vis[b][k]));
    }
  for (std::size_t p = 0; p < x.size(); ++p)
    rhs += cd(x[p]) * std::conj(cd(ahy[p]));
  const double err = std::abs(lhs - rhs) / std::sqrt(nax * ny);
  expect(err <= tolerance, "%s w-stacked adjointness %.3g (<= %.g)", precision<T>(), err,
         tolerance);
}

// The streaming and resident calls need one pass per plane: refused, naming the setting, and the
// whole calls still work afterwards.
void streamingRefused(const WideField& f) {
  using C = std::complex<float>;
  OperatorSettings s;
  s.w_stacking = true;
  auto op = cudaOperator<float>(f.g, s);
  op->setSamples(f.views);
  std::vector<C> image(f.g.numPixels(), C(1.0f, 0.0f));
  int refused = 0;
  auto expectRefused = [&](auto call) {
    try {
      call();
    } catch (const InputError& e) {
      refused += std::string(e.what()).find("imaging.w_stacking") != std::string::npos;
    }
  };
  expectRefused([&] { op->prepareDegrid(image.data()); });
  expectRefused([&] { op->beginGrid(); });
  expectRefused([&] { op->planBlocks(f.views); });
  expectRefused([&] { op->planBlock(f.views[0]); });
  expect(refused == 4, "w-stacking: %d of 4 streaming calls refused naming imaging.w_stacking",
         refused);
  Buffers<float> v(f);
  op->degrid(image.data(), v.out);
  double power = 0.0;
  for (const C& z : v.joined())
    power += std::norm(z);
  expect(std::isfinite(power) && power > 0.0, "w-stacking: degrid works after the refusals");
}

// The fixture's samples as chunks: three point sources seen through the CPU operator with the
// w-term, plus noise of 1% (in float, as chunks hold them).
std::vector<VisibilityChunk> wideChunks(const WideField& f) {
  OperatorSettings s;
  s.epsilon = 1e-9;
  s.w_stacking = true;
  auto sky = makeCpuOperator<double>(f.g, s);
  sky->setSamples(f.views);
  std::vector<cd> truth(f.g.numPixels());
  truth[std::size_t(f.g.ny / 2) * f.g.nx + f.g.nx / 2] = 1.0;
  truth[std::size_t(f.g.ny / 6) * f.g.nx + f.g.nx / 8] = 0.5;  // far out: the w-term matters
  truth[std::size_t(5 * f.g.ny / 6) * f.g.nx + 7 * f.g.nx / 8] = 0.25;
  Buffers<double> model(f);
  sky->degrid(truth.data(), model.out);
  std::mt19937 rng(47);
  std::normal_distribution<double> noise;
  std::vector<VisibilityChunk> chunks;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    VisibilityChunk c;
    c.frequencies_hz = f.blocks[b].freq;
    c.uvw_m = f.blocks[b].uvw;
    for (const cd& m : model.vis[b])
      c.visibilities.emplace_back(m + 0.01 * cd(noise(rng), noise(rng)));
    c.weights = f.weights[b];
    chunks.push_back(std::move(c));
  }
  return chunks;
}

// The w-stacked data term on the device: value and gradient where the image is resident against
// the CPU term's, then 20 L-BFGS iterations (chi2 + TSV, positivity) with every evaluation on the
// device against the CPU run (with `iterate`).
template <typename T>
void heldChi2(const WideField& f, const std::vector<VisibilityChunk>& chunks, double eps,
              bool double_accumulation, double tolerance, bool iterate = true) {
  OperatorSettings s;
  s.epsilon = eps;
  s.w_stacking = true;
  s.double_accumulation = double_accumulation;
  const std::string name = std::string(precision<T>()) + " eps " + std::to_string(eps) +
                           (double_accumulation ? " (double accumulation)" : "");
  auto cpu = makeCpuOperator<T>(f.g, s);
  auto gpu = cudaOperator<T>(f.g, s);
  auto term_cpu = rml::makeHeldChi2Term(*cpu, chunks);
  auto term_gpu = rml::makeHeldChi2Term(*gpu, chunks);
  compute::VectorSpace* space = term_gpu->dataSpace();
  expect(space != nullptr && space == gpu->vectorSpace() && term_cpu->dataSpace() == nullptr,
         "%s: the w-stacked data term is resident on the device", name.c_str());
  if (!space)
    return;
  const std::size_t n = f.g.numPixels();
  std::vector<double> image(n);
  for (std::size_t p = 0; p < n; ++p)
    image[p] = 0.1 * std::real(chunks[0].visibilities[p % chunks[0].visibilities.size()]);
  std::vector<double> g_cpu(n, 0.0), g_gpu(n);
  const double v_cpu = term_cpu->evaluate(image.data(), g_cpu.data(), 1.0);
  auto x = space->create(n), g = space->create(n);
  space->upload(image.data(), *x);
  space->fill(0.0, *g);
  auto t0 = std::chrono::steady_clock::now();
  const double v_gpu = term_gpu->evaluateIn(*space, *x, g.get(), 1.0);
  const double t_pass = secondsSince(t0);
  space->download(*g, g_gpu.data());
  double num = 0.0, den = 0.0;
  for (std::size_t p = 0; p < n; ++p) {
    num += (g_gpu[p] - g_cpu[p]) * (g_gpu[p] - g_cpu[p]);
    den += g_cpu[p] * g_cpu[p];
  }
  const double grad_diff = std::sqrt(num / den);
  expect(std::abs(v_gpu - v_cpu) <= tolerance * v_cpu && grad_diff <= tolerance,
         "%s: resident w-stacked chi2 %.12g vs CPU %.12g, gradient %.3g apart (<= %.g; %.3f s)",
         name.c_str(), v_gpu, v_cpu, grad_diff, tolerance, t_pass);
  if (!iterate)
    return;

  auto solve = [&](ImagingOperator<T>& op, const std::shared_ptr<rml::DataTerm>& term,
                   double& seconds) {
    rml::ObjectiveFunction objective(n);
    objective.add(term);
    objective.add(std::make_shared<rml::TotalSquaredVariation>(f.g.nx, f.g.ny), {1e-2});
    const bool device = &op == gpu.get();
    if (device)
      expect(objective.residentSpace() == op.vectorSpace(), "%s: L-BFGS state on %s", name.c_str(),
             objective.residentSpace() ? objective.residentSpace()->describe().c_str() : "host");
    rml::LbfgsSettings ls;
    ls.positivity = true;
    ls.stop.max_iterations = 20;
    ls.stop.relative_tolerance = 0.0;
    const auto start = std::chrono::steady_clock::now();
    rml::OptimizerResult r = rml::minimizeLbfgs(objective, std::vector<double>(n, 0.0), ls);
    seconds = secondsSince(start);
    return r;
  };
  double t_cpu = 0.0, t_gpu = 0.0;
  const rml::OptimizerResult a = solve(*cpu, term_cpu, t_cpu);
  const rml::OptimizerResult b = solve(*gpu, term_gpu, t_gpu);
  num = den = 0.0;
  for (std::size_t p = 0; p < n; ++p) {
    num += (b.x[p] - a.x[p]) * (b.x[p] - a.x[p]);
    den += a.x[p] * a.x[p];
  }
  const double diff = std::sqrt(num / den);
  expect(a.iterations > 10 && b.iterations == a.iterations && diff < 10 * tolerance &&
             std::abs(b.objective - a.objective) < 10 * tolerance * std::abs(a.objective),
         "%s: w-stacked L-BFGS %d / %d iterations, images %.3g apart, objective %.10g vs %.10g "
         "(%.2f s vs %.2f s on the CPU)",
         name.c_str(), b.iterations, a.iterations, diff, b.objective, a.objective, t_gpu, t_cpu);
}

}  // namespace

int main(int argc, char** argv) {
  const WideField f;
  return runChecks(argc, argv,
                   {{"wstack",
                     [&] {
                       againstCpu<float>(f, 1e-4, false);
                       againstCpu<float>(f, 1e-4, true);
                       againstCpu<double>(f, 1e-9, false);
                       adjointness<float>(f, 1e-5, 1e-5);
                       adjointness<double>(f, 1e-9, 1e-12);
                       streamingRefused(f);
                     }},
                    {"wstack_chi2",
                     [&] {
                       const std::vector<VisibilityChunk> chunks = wideChunks(f);
                       heldChi2<float>(f, chunks, 1e-4, false, 1e-3);
                       heldChi2<float>(f, chunks, 1e-4, true, 1e-3);
                       heldChi2<double>(f, chunks, 1e-9, false, 1e-7);
                     }},
                    // The evaluation alone (run under compute-sanitizer).
                    {"wstack_term", [&] {
                       const std::vector<VisibilityChunk> chunks = wideChunks(f);
                       heldChi2<float>(f, chunks, 1e-4, true, 1e-3, false);
                       heldChi2<double>(f, chunks, 1e-9, false, 1e-7, false);
                     }}});
}
