// The chi2 data term on the CUDA operator (label gpu): the fused residual pass (residualBlock)
// against the host's pass through the CPU operator, the double accumulation of float operators,
// ChunkChi2Term's value and gradient, and 20 L-BFGS or CG iterations of a regularized objective,
// CUDA against CPU. One program, one check per CTest entry; without a device it exits 77 (skipped).
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/data/chunk_sequence.h"
#include "core/imaging/device_gridding.h"
#include "core/imaging/operator_factory.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/resident_lbfgs.h"
#include "tests/gpu/cuda_check_support.h"
#include "tests/gpu/twenty_iterations.h"

using namespace apertura;
using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

using Planned = std::vector<std::unique_ptr<PlannedBlock>>;

// Random data for the fixture's samples and a random real image.
template <typename T>
struct Chi2Data {
  std::vector<std::vector<std::complex<float>>> vis;  // float, as chunks hold them
  std::vector<std::complex<T>> image;

  Chi2Data(const Fixture& f, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> nd;
    for (const TestBlock& b : f.blocks) {
      vis.emplace_back();
      for (std::size_t i = 0; i < b.samples(); ++i)
        vis.back().emplace_back(float(nd(rng)), float(nd(rng)));
    }
    for (std::size_t p = 0; p < f.g.numPixels(); ++p)
      image.emplace_back(T(nd(rng)), T(0));
  }
};

// The pass a backend without residuals makes: degrid, chi2Residual on the host, grid.
template <typename T>
double hostPass(ImagingOperator<T>& op, const Planned& plans, const Fixture& f,
                const Chi2Data<T>& d, std::vector<std::complex<double>>& gradient) {
  op.prepareDegrid(d.image.data());
  op.beginGrid();
  double chi2 = 0.0;
  for (std::size_t b = 0; b < plans.size(); ++b) {
    std::vector<std::complex<T>> model(d.vis[b].size()), residual(model.size());
    op.degridBlock(*plans[b], model.data());
    for (std::size_t k = 0; k < model.size(); ++k) {
      T rr, ri;
      chi2 += chi2Residual<T>(model[k].real(), model[k].imag(), d.vis[b][k].real(),
                              d.vis[b][k].imag(), f.weights[b][k], rr, ri);
      residual[k] = {rr, ri};
    }
    op.gridBlock(*plans[b], residual.data(), nullptr);
  }
  gradient.resize(f.g.numPixels());
  op.endGridDouble(gradient.data());
  return chi2;
}

// The fused pass of the CUDA operator; with `grid` false no gradient is formed.
template <typename T>
double devicePass(ImagingOperator<T>& op, const Planned& plans, const Fixture& f,
                  const Chi2Data<T>& d, bool grid, std::vector<std::complex<double>>* gradient) {
  op.prepareDegrid(d.image.data());
  if (grid)
    op.beginGrid();
  double chi2 = 0.0;
  for (std::size_t b = 0; b < plans.size(); ++b)
    chi2 += op.residualBlock(*plans[b], d.vis[b].data(), f.weights[b].data(), grid);
  if (grid && gradient) {
    gradient->resize(f.g.numPixels());
    op.endGridDouble(gradient->data());
  }
  return chi2;
}

template <typename T>
void residualPass(const Fixture& f, double eps) {
  OperatorSettings s;
  s.epsilon = eps;
  auto cpu = makeCpuOperator<T>(f.g, s);
  auto gpu = cudaOperator<T>(f.g, s);
  expect(gpu->formsResiduals() && !cpu->formsResiduals(), "%s: only CUDA forms residuals",
         precision<T>());
  const Planned cpu_plans = cpu->planBlocks(f.views);
  const Planned gpu_plans = gpu->planBlocks(f.views);
  const Chi2Data<T> d(f, 3);
  std::vector<std::complex<double>> cpu_grad, gpu_grad, other;
  const double chi2_cpu = hostPass(*cpu, cpu_plans, f, d, cpu_grad);
  const std::uint64_t before = gpu->deviceBytes();
  const double chi2_gpu = devicePass(*gpu, gpu_plans, f, d, true, &gpu_grad);
  const double chi2_diff = std::abs(chi2_gpu - chi2_cpu) / chi2_cpu;
  expect(chi2_diff < eps, "%s eps %.0e: chi2 CUDA %.10g CPU %.10g, relative %.3g", precision<T>(),
         eps, chi2_gpu, chi2_cpu, chi2_diff);
  const double grad_diff = relativeL2(gpu_grad, cpu_grad);
  expect(grad_diff < eps, "%s: gridded residuals relative L2 %.3g", precision<T>(), grad_diff);

  std::uint64_t samples = 0;
  for (const auto& v : d.vis)
    samples += v.size() * (sizeof(std::complex<float>) + sizeof(float));
  expect(gpu->deviceBytes() >= before + samples,
         "%s: visibilities and weights kept with the plans (%llu -> %llu bytes, %llu needed)",
         precision<T>(), (unsigned long long)before, (unsigned long long)gpu->deviceBytes(),
         (unsigned long long)samples);

  expect(devicePass(*gpu, gpu_plans, f, d, false, nullptr) == chi2_gpu,
         "%s: chi2 without spreading has the same bits", precision<T>());
  expect(devicePass(*gpu, gpu_plans, f, d, true, &other) == chi2_gpu,
         "%s: a second pass has the same chi2 bits", precision<T>());
  Planned streamed;
  for (const UvwBlock& v : f.views)
    streamed.push_back(gpu->planBlock(v));
  expect(devicePass(*gpu, streamed, f, d, true, &other) == chi2_gpu,
         "%s: blocks planned one at a time (staged) give the same chi2 bits", precision<T>());

  // Other arrays (another chunk in the caller's buffers): the resident copy follows them.
  Chi2Data<T> moved = d;
  for (auto& v : moved.vis)
    for (auto& z : v)
      z = z * 2.0f + std::complex<float>(0.5f, 0.0f);
  const double moved_cpu = hostPass(*cpu, cpu_plans, f, moved, cpu_grad);
  const double moved_gpu = devicePass(*gpu, gpu_plans, f, moved, true, &gpu_grad);
  expect(std::abs(moved_gpu - moved_cpu) / moved_cpu < eps && relativeL2(gpu_grad, cpu_grad) < eps,
         "%s: new data arrays are copied again: chi2 %.10g vs %.10g", precision<T>(), moved_gpu,
         moved_cpu);
}

// Float operators with double accumulation: the describe() text, the double grid's device
// bytes, agreement with the CPU's double accumulation, and a sum that does not depend on how the
// samples are cut into blocks (double atomics), which a float grid could not give.
void doubleAccumulation(const Fixture& f) {
  OperatorSettings s;
  s.epsilon = 1e-4;
  auto plain = cudaOperator<float>(f.g, s);
  s.double_accumulation = true;
  auto cpu = makeCpuOperator<float>(f.g, s);
  auto gpu = cudaOperator<float>(f.g, s);
  expect(gpu->describe().find("accumulation=double") != std::string::npos, "describe(): %s",
         gpu->describe().c_str());
  const std::uint64_t cells = std::uint64_t(gpu->gridCellsX()) * gpu->gridCellsY();
  expect(gpu->deviceBytes() >= plain->deviceBytes() + cells * 8 + f.g.numPixels() * 16,
         "the double grid and image are counted: %llu vs %llu bytes without",
         (unsigned long long)gpu->deviceBytes(), (unsigned long long)plain->deviceBytes());

  const Chi2Data<float> d(f, 9);
  const Planned cpu_plans = cpu->planBlocks(f.views);
  const Planned gpu_plans = gpu->planBlocks(f.views);
  std::vector<std::complex<double>> cpu_grad, gpu_grad;
  const double chi2_cpu = hostPass(*cpu, cpu_plans, f, d, cpu_grad);
  const double chi2_gpu = devicePass(*gpu, gpu_plans, f, d, true, &gpu_grad);
  expect(std::abs(chi2_gpu - chi2_cpu) / chi2_cpu < 1e-4 && relativeL2(gpu_grad, cpu_grad) < 1e-4,
         "residual pass into the double grid: chi2 %.10g vs %.10g, gradient %.3g", chi2_gpu,
         chi2_cpu, relativeL2(gpu_grad, cpu_grad));

  std::vector<const std::complex<float>*> vis;  // Chi2Data<float>: the operator's own type
  std::vector<const float*> weights;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    vis.push_back(d.vis[b].data());
    weights.push_back(f.weights[b].data());
  }
  cpu->setSamples(f.views);
  gpu->setSamples(f.views);
  std::vector<std::complex<double>> whole_cpu(f.g.numPixels()), whole_gpu(f.g.numPixels());
  cpu->gridDouble(vis, weights, whole_cpu.data());
  gpu->gridDouble(vis, weights, whole_gpu.data());
  expect(relativeL2(whole_gpu, whole_cpu) < 1e-4, "gridDouble against the CPU: %.3g",
         relativeL2(whole_gpu, whole_cpu));

  // Block 0 cut in two halves: the same samples in other blocks.
  const UvwBlock& b0 = f.views[0];
  const std::size_t half = b0.num_rows / 2;
  std::vector<UvwBlock> cut{b0, b0};
  cut[0].num_rows = half;
  cut[1].uvw_m = b0.uvw_m + 3 * half;
  cut[1].num_rows = b0.num_rows - half;
  auto gridCut = [&](ImagingOperator<float>& op, bool split) {
    std::vector<std::complex<double>> image(f.g.numPixels());
    op.beginGrid();
    Planned plans;
    if (split) {
      for (const UvwBlock& v : cut)
        plans.push_back(op.planBlock(v));
      op.gridBlock(*plans[0], d.vis[0].data(), f.weights[0].data());
      op.gridBlock(*plans[1], d.vis[0].data() + half, f.weights[0].data() + half);
    } else {
      plans.push_back(op.planBlock(b0));
      op.gridBlock(*plans[0], d.vis[0].data(), f.weights[0].data());
    }
    op.endGridDouble(image.data());
    return image;
  };
  const double cut_wide = relativeL2(gridCut(*gpu, true), gridCut(*gpu, false));
  const double cut_float = relativeL2(gridCut(*plain, true), gridCut(*plain, false));
  expect(cut_wide < 1e-12, "cut into two blocks: double grid %.3g apart (float grid: %.3g)",
         cut_wide, cut_float);
}

// The held chunks of the fixture with its weights and random data.
std::vector<VisibilityChunk> fixtureChunks(const Fixture& f, const Chi2Data<float>& d) {
  std::vector<VisibilityChunk> chunks;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    VisibilityChunk c;
    c.frequencies_hz = f.blocks[b].freq;
    c.uvw_m = f.blocks[b].uvw;
    c.visibilities = d.vis[b];
    c.weights = f.weights[b];
    chunks.push_back(std::move(c));
  }
  return chunks;
}

// ChunkChi2Term, value and gradient, on the CUDA and the CPU operator.
template <typename T>
void chunkTerm(const Fixture& f, double eps) {
  OperatorSettings s;
  s.epsilon = eps;
  auto cpu = makeCpuOperator<T>(f.g, s);
  auto gpu = cudaOperator<T>(f.g, s);
  const Chi2Data<float> d(f, 13);
  const std::vector<VisibilityChunk> chunks = fixtureChunks(f, d);
  HeldChunks held(chunks);
  auto term_cpu = rml::makeChunkChi2Term(*cpu, held);
  auto term_gpu = rml::makeChunkChi2Term(*gpu, held);
  std::vector<double> image(f.g.numPixels());
  for (std::size_t p = 0; p < image.size(); ++p)
    image[p] = std::real(d.vis[0][p % d.vis[0].size()]);
  std::vector<double> g_cpu(image.size(), 0.0), g_gpu(image.size(), 0.0);
  const double v_cpu = term_cpu->evaluate(image.data(), g_cpu.data(), 1.0);
  const double v_gpu = term_gpu->evaluate(image.data(), g_gpu.data(), 1.0);
  double num = 0, den = 0;
  for (std::size_t p = 0; p < image.size(); ++p) {
    num += (g_gpu[p] - g_cpu[p]) * (g_gpu[p] - g_cpu[p]);
    den += g_cpu[p] * g_cpu[p];
  }
  expect(std::abs(v_gpu - v_cpu) / v_cpu < eps && std::sqrt(num / den) < eps,
         "%s ChunkChi2Term: value %.10g vs %.10g, gradient relative L2 %.3g", precision<T>(), v_gpu,
         v_cpu, std::sqrt(num / den));
}

// The regularizers added to chi2 in an L-BFGS check, with their weights, and the start image.
struct Regularization {
  std::string name;
  std::vector<std::pair<std::shared_ptr<rml::ObjectiveTerm>, double>> terms;
  double start = 0.0;
};

// 20 iterations of projected L-BFGS (or of CG, unprojected, or of FISTA with every regularizer
// by its prox) on chi2 + the regularizers from a
// flat image, data from three point sources: CUDA and CPU take the same number of iterations and
// end at the same image, the CUDA run with the solver's state resident on the device.
template <typename T>
void lbfgsIterations(const Fixture& f, double eps, double tolerance, const Regularization& r,
                     Solver solver = Solver::Lbfgs) {
  OperatorSettings s;
  s.epsilon = eps;
  auto sky = makeCpuOperator<T>(f.g, s);
  sky->setSamples(f.views);
  std::vector<std::complex<T>> truth(f.g.numPixels());
  truth[std::size_t(f.g.ny / 2) * f.g.nx + f.g.nx / 2] = T(1.0);
  truth[std::size_t(f.g.ny / 3) * f.g.nx + f.g.nx / 4] = T(0.5);
  truth[std::size_t(2 * f.g.ny / 3) * f.g.nx + 3 * f.g.nx / 5] = T(0.25);
  Chi2Data<float> d(f, 21);
  std::vector<std::vector<std::complex<T>>> model(f.blocks.size());
  std::vector<std::complex<T>*> ptr;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    model[b].resize(f.blocks[b].samples());
    ptr.push_back(model[b].data());
  }
  sky->degrid(truth.data(), ptr);
  for (std::size_t b = 0; b < f.blocks.size(); ++b)
    for (std::size_t k = 0; k < model[b].size(); ++k)
      d.vis[b][k] = std::complex<float>(model[b][k]) + 0.01f * d.vis[b][k];
  const std::vector<VisibilityChunk> chunks = fixtureChunks(f, d);
  HeldChunks held(chunks);

  auto solve = [&](ImagingOperator<T>& op) {
    rml::ObjectiveFunction objective(f.g.numPixels());
    objective.add(rml::makeChunkChi2Term(op, held));
    for (const auto& [term, lambda] : r.terms)
      objective.add(term, {lambda, 0, solver == Solver::Fista});  // FISTA: every term by its prox
    // On the device the whole iteration is resident (the CPU operator keeps no images).
    const bool device = op.describe().rfind("backend=cuda", 0) == 0;
    if (device)
      expect(
          op.vectorSpace() != nullptr && objective.smoothPart().residentSpace() == op.vectorSpace(),
          "%s chi2 + %s: solver state on %s", precision<T>(), r.name.c_str(),
          objective.residentSpace() ? objective.residentSpace()->describe().c_str() : "host");
    if (device && solver == Solver::LbfgsFloatPairs)
      expect(rml::lbfgsRunsResident(objective, twentyLbfgsIterations(true)),
             "%s chi2 + %s: L-BFGS with float pairs resident on the device", precision<T>(),
             r.name.c_str());
    if (device && solver == Solver::Fista) {
      for (rml::ProximableFunction* term : objective.proximalTerms())
        expect(term->residentIn(*op.vectorSpace()), "%s chi2 + %s: %s's prox on the device",
               precision<T>(), r.name.c_str(), term->name().c_str());
    }
    return twentyIterations(solver, objective, std::vector<double>(f.g.numPixels(), r.start));
  };
  auto cpu = makeCpuOperator<T>(f.g, s);
  auto gpu = cudaOperator<T>(f.g, s);
  const rml::OptimizerResult a = solve(*cpu), b = solve(*gpu);
  expect(sameRun(a, b, tolerance),
         "%s chi2 + %s: %d / %d %s iterations, images %.3g apart, objective %.10g vs %.10g",
         precision<T>(), r.name.c_str(), b.iterations, a.iterations, solverName(solver),
         relativeL2(b.x, a.x), b.objective, a.objective);
}

Regularization tsvAndL1(const ImageGeometry& g) {
  return {"TSV + L1",
          {{std::make_shared<rml::TotalSquaredVariation>(g.nx, g.ny), 1e-2},
           {std::make_shared<rml::L1Regularizer>(g.nx, g.ny, 1e-6), 1e-2}}};
}

// Each gradient regularizer alone with chi2 (smoothed where it is not differentiable).
std::vector<Regularization> eachRegularizer(const ImageGeometry& g) {
  const int nx = g.nx, ny = g.ny;
  const std::vector<double> flat(g.numPixels(), 1e-4);
  using rml::TvKind;
  return {
      {"isotropic TV",
       {{std::make_shared<rml::TotalVariation>(nx, ny, TvKind::Isotropic, 1e-4), 1e-3}}},
      {"anisotropic TV",
       {{std::make_shared<rml::TotalVariation>(nx, ny, TvKind::Anisotropic, 1e-4), 1e-3}}},
      {"Huber", {{std::make_shared<rml::HuberRegularizer>(nx, ny, 1e-3), 1e-3}}},
      {"TSV", {{std::make_shared<rml::TotalSquaredVariation>(nx, ny), 1e-2}}},
      {"Laplacian", {{std::make_shared<rml::LaplacianRegularizer>(nx, ny), 1e-2}}},
      {"L1", {{std::make_shared<rml::L1Regularizer>(nx, ny, 1e-6), 1e-2}}},
      {"L2", {{std::make_shared<rml::L2Regularizer>(nx, ny), 1e-2}}},
      {"entropy", {{std::make_shared<rml::EntropyRegularizer>(nx, ny, flat), 1e-3}}, 1e-4},
  };
}

// The proximal terms FISTA (with positivity) keeps on the device: the pixel proxes, TV and
// Huber by their own prox over x >= 0, and two terms by an inner SDMM.
std::vector<Regularization> eachProx(const ImageGeometry& g) {
  const int nx = g.nx, ny = g.ny;
  const std::vector<double> flat(g.numPixels(), 1e-4);
  using rml::TvKind;
  return {
      {"L1", {{std::make_shared<rml::L1Regularizer>(nx, ny), 1e-2}}},
      {"L2", {{std::make_shared<rml::L2Regularizer>(nx, ny), 1e-2}}},
      {"entropy", {{std::make_shared<rml::EntropyRegularizer>(nx, ny, flat), 1e-3}}, 1e-4},
      {"isotropic TV", {{std::make_shared<rml::TotalVariation>(nx, ny, TvKind::Isotropic), 1e-3}}},
      {"anisotropic TV",
       {{std::make_shared<rml::TotalVariation>(nx, ny, TvKind::Anisotropic), 1e-3}}},
      {"Huber", {{std::make_shared<rml::HuberRegularizer>(nx, ny, 1e-3), 1e-3}}},
      // Two terms: their joint prox with positivity by the inner SDMM on the device.
      {"isotropic TV + L1",
       {{std::make_shared<rml::TotalVariation>(nx, ny, TvKind::Isotropic), 1e-3},
        {std::make_shared<rml::L1Regularizer>(nx, ny), 1e-2}}},
  };
}

}  // namespace

int main(int argc, char** argv) {
  const Fixture f;
  return runChecks(
      argc, argv,
      {{"residual",
        [&] {
          residualPass<float>(f, 1e-4);
          residualPass<double>(f, 1e-9);
        }},
       {"accumulation", [&] { doubleAccumulation(f); }},
       {"chi2term",
        [&] {
          chunkTerm<float>(f, 1e-4);
          chunkTerm<double>(f, 1e-9);
        }},
       {"lbfgs",
        [&] {
          lbfgsIterations<float>(f, 1e-4, 1e-3, tsvAndL1(f.g));
          lbfgsIterations<double>(f, 1e-9, 1e-6, tsvAndL1(f.g));
          // Float pairs: a pair element an ulp apart on the two sides may round to neighbouring
          // floats, so the runs drift apart faster than with double pairs.
          lbfgsIterations<double>(f, 1e-9, 1e-4, tsvAndL1(f.g), Solver::LbfgsFloatPairs);
        }},
       {"cg",
        [&] {
          lbfgsIterations<float>(f, 1e-4, 1e-3, tsvAndL1(f.g), Solver::ConjugateGradient);
          lbfgsIterations<double>(f, 1e-9, 1e-6, tsvAndL1(f.g), Solver::ConjugateGradient);
        }},
       {"fista",
        [&] {
          for (const Regularization& r : eachProx(f.g))
            lbfgsIterations<double>(f, 1e-9, 1e-6, r, Solver::Fista);
        }},
       {"regularizers", [&] {
          for (const Regularization& r : eachRegularizer(f.g))
            lbfgsIterations<double>(f, 1e-9, 1e-6, r);
        }}});
}
