// A cube's RML iteration on the CUDA operator (label gpu): three planes, each with its own data
// through one operator, plane-wise TSV and both across-channel terms; 20 L-BFGS iterations, and
// FISTA with a plane-wise L1 by its prox, CUDA against CPU, the CUDA runs with the solver's state
// resident on the device (the planes copied to plane vectors there). Without a device it exits
// 77 (skipped).
#include <cmath>
#include <complex>
#include <memory>
#include <random>
#include <vector>

#include "core/data/chunk_sequence.h"
#include "core/imaging/operator_factory.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/plane_wise_term.h"
#include "core/rml/spectral_difference.h"
#include "tests/gpu/cuda_check_support.h"
#include "tests/gpu/twenty_iterations.h"

using namespace apertura;
using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

constexpr int kPlanes = 3;

// Plane k: two point sources with a spectral slope, degridded on the fixture's samples, plus
// noise of 1% (its own per plane).
std::vector<std::vector<VisibilityChunk>> planeChunks(const Fixture& f) {
  OperatorSettings s;
  s.epsilon = 1e-9;
  auto sky = makeCpuOperator<double>(f.g, s);
  sky->setSamples(f.views);
  std::vector<std::vector<VisibilityChunk>> planes(kPlanes);
  for (int k = 0; k < kPlanes; ++k) {
    std::vector<std::complex<double>> truth(f.g.numPixels());
    truth[std::size_t(f.g.ny / 2) * f.g.nx + f.g.nx / 2] = 1.0 - 0.2 * k;
    truth[std::size_t(f.g.ny / 3) * f.g.nx + f.g.nx / 4] = 0.3 + 0.1 * k;
    std::vector<std::vector<std::complex<double>>> model(f.blocks.size());
    std::vector<std::complex<double>*> out;
    for (std::size_t b = 0; b < f.blocks.size(); ++b) {
      model[b].resize(f.blocks[b].samples());
      out.push_back(model[b].data());
    }
    sky->degrid(truth.data(), out);
    std::mt19937 rng(40 + unsigned(k));
    std::normal_distribution<float> noise(0.0f, 0.01f);
    for (std::size_t b = 0; b < f.blocks.size(); ++b) {
      VisibilityChunk c;
      c.frequencies_hz = f.blocks[b].freq;
      c.uvw_m = f.blocks[b].uvw;
      for (const auto& m : model[b])
        c.visibilities.emplace_back(float(m.real()) + noise(rng), float(m.imag()) + noise(rng));
      c.weights = f.weights[b];
      planes[std::size_t(k)].push_back(std::move(c));
    }
  }
  return planes;
}

template <typename T>
void cubeIterations(const Fixture& f, double eps, double tolerance, Solver solver) {
  const std::vector<std::vector<VisibilityChunk>> chunks = planeChunks(f);
  std::vector<std::unique_ptr<HeldChunks>> held;
  for (const auto& c : chunks)
    held.push_back(std::make_unique<HeldChunks>(c));
  const int nx = f.g.nx, ny = f.g.ny;
  const std::size_t n = f.g.numPixels();
  OperatorSettings s;
  s.epsilon = eps;

  auto solve = [&](ImagingOperator<T>& op) {
    std::vector<std::shared_ptr<rml::ObjectiveTerm>> chi2, tsv, l1;
    for (int k = 0; k < kPlanes; ++k) {
      chi2.push_back(rml::makeChunkChi2Term(op, *held[std::size_t(k)]));
      tsv.push_back(std::make_shared<rml::TotalSquaredVariation>(nx, ny));
      l1.push_back(std::make_shared<rml::L1Regularizer>(nx, ny));
    }
    rml::ObjectiveFunction objective(n, kPlanes);
    objective.add(std::make_shared<rml::PlaneWiseTerm>(chi2, n), {1.0, 0, false, kPlanes});
    objective.add(std::make_shared<rml::PlaneWiseTerm>(tsv, n), {1e-2, 0, false, kPlanes});
    objective.add(std::make_shared<rml::SpectralDifference>(
                      nx, ny, kPlanes, rml::SpectralKind::TotalVariation, 1e-3),
                  {1e-2, 0, false, kPlanes});
    objective.add(std::make_shared<rml::SpectralDifference>(
                      nx, ny, kPlanes, rml::SpectralKind::TotalSquaredVariation),
                  {1e-2, 0, false, kPlanes});
    if (solver == Solver::Fista)
      objective.add(std::make_shared<rml::PlaneWiseTerm>(l1, n), {1e-3, 0, true, kPlanes});
    if (op.describe().rfind("backend=cuda", 0) == 0)
      expect(
          op.vectorSpace() != nullptr && objective.smoothPart().residentSpace() == op.vectorSpace(),
          "%s cube: solver state on the device", precision<T>());
    return twentyIterations(solver, objective, std::vector<double>(n * kPlanes, 0.0));
  };
  auto cpu = makeCpuOperator<T>(f.g, s);
  auto gpu = cudaOperator<T>(f.g, s);
  const rml::OptimizerResult a = solve(*cpu), b = solve(*gpu);
  expect(sameRun(a, b, tolerance),
         "%s cube of %d planes: %d / %d %s iterations, images %.3g apart, objective %.10g vs "
         "%.10g",
         precision<T>(), kPlanes, b.iterations, a.iterations, solverName(solver),
         relativeL2(b.x, a.x), b.objective, a.objective);
}

}  // namespace

int main(int argc, char** argv) {
  const Fixture f;
  return runChecks(argc, argv,
                   {{"lbfgs",
                     [&] {
                       cubeIterations<float>(f, 1e-4, 1e-3, Solver::Lbfgs);
                       cubeIterations<double>(f, 1e-9, 1e-6, Solver::Lbfgs);
                     }},
                    {"fista", [&] { cubeIterations<double>(f, 1e-9, 1e-6, Solver::Fista); }}});
}
