#pragma once
// The resident solver tests' shared fixture: an imaging objective whose chi2 goes through a CPU
// operator standing in for an accelerator (resident or not), and the bit-for-bit comparison of
// two runs.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>

#include "core/rml/chunk_chi2_term.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "tests/rml/host_resident_operator.h"
#include "tests/support/chunk_fixtures.h"

namespace apertura::rml::test {

inline bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// b took a's iterations and evaluations and ended at a's objective and iterate, bit for bit.
inline void compareRuns(const OptimizerResult& a, const OptimizerResult& b) {
  QCOMPARE(b.iterations, a.iterations);
  QCOMPARE(b.evaluations, a.evaluations);
  QCOMPARE(int(b.reason), int(a.reason));
  QCOMPARE(b.objective, a.objective);
  QVERIFY(sameBits(a.x, b.x));
}

// An imaging objective: chi2 through an operator that forms residuals (resident or not) and a
// regularizer of every kind, some masked.
struct Imaging {
  imaging::ImageGeometry g = imaging::ImageGeometry::fromCell(48, 40, M_PI / 180.0 / 3600.0);
  std::vector<VisibilityChunk> chunks;
  std::unique_ptr<HostResidentOperator<float>> op;
  std::unique_ptr<HeldChunks> held;
  std::unique_ptr<ObjectiveFunction> objective;

  // `sum`: the chi2 term's sum over the processes of a distributed run.
  Imaging(bool resident, bool with_entropy, SumOverProcesses sum = nullptr) {
    std::mt19937 rng(11);
    chunks.push_back(apertura::test::randomChunk(rng, g, 700, {1.4e9}));
    chunks.push_back(apertura::test::randomChunk(rng, g, 250, {1.0e9, 1.2e9}));
    imaging::OperatorSettings s;
    s.epsilon = 1e-6;
    s.threads = 2;
    op = std::make_unique<HostResidentOperator<float>>(imaging::makeCpuOperator<float>(g, s),
                                                       resident);
    held = std::make_unique<HeldChunks>(chunks);
    const int nx = g.nx, ny = g.ny;
    std::vector<double> mask(g.numPixels());
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (double& m : mask)
      m = u(rng) < 0.2 ? 0.0 : u(rng);
    objective = std::make_unique<ObjectiveFunction>(g.numPixels());
    objective->add(makeChunkChi2Term(*op, *held, std::nullopt, std::move(sum)));
    auto tsv = std::make_shared<TotalSquaredVariation>(nx, ny);
    tsv->setMask(mask);
    objective->add(tsv, {0.3});
    objective->add(std::make_shared<L1Regularizer>(nx, ny, 1e-3), {0.05});
    objective->add(std::make_shared<TotalVariation>(nx, ny, TvKind::Isotropic, 1e-3), {0.02});
    objective->add(std::make_shared<TotalVariation>(nx, ny, TvKind::Anisotropic, 1e-3), {0.01});
    objective->add(std::make_shared<HuberRegularizer>(nx, ny, 0.01), {0.02});
    auto laplacian = std::make_shared<LaplacianRegularizer>(nx, ny);
    laplacian->setMask(mask);
    objective->add(laplacian, {0.01});
    objective->add(std::make_shared<L2Regularizer>(nx, ny, std::vector<double>(g.numPixels(), 0.1)),
                   {0.02});
    if (with_entropy)
      objective->add(std::make_shared<EntropyRegularizer>(nx, ny, std::vector<double>{0.01}),
                     {0.05});
  }
};

// Weights of 1 with a hole of zeros and a band of 0.4.
inline std::vector<double> holedMask(std::size_t n) {
  std::vector<double> m(n, 1.0);
  for (std::size_t p = n / 4; p < n / 4 + 60; ++p)
    m[p] = 0.0;
  for (std::size_t p = n / 2; p < n / 2 + 90; ++p)
    m[p] = 0.4;
  return m;
}

}  // namespace apertura::rml::test
