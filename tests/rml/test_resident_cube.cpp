// A cube's objective where its images are resident (a CPU operator standing in for the CUDA
// backend, images in a host space): the plane-wise terms (each plane copied to a plane's vector
// and back), the across-channel terms, and whole L-BFGS and FISTA runs against the host's.
#include <QtTest>

#include <cmath>
#include <memory>
#include <random>

#include "core/rml/chunk_chi2_term.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/host_vector_space.h"
#include "core/rml/image_mapping.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/plane_wise_term.h"
#include "core/rml/proximal_solvers.h"
#include "core/rml/resident_lbfgs.h"
#include "core/rml/spectral_difference.h"
#include "tests/rml/host_resident_operator.h"
#include "tests/rml/resident_imaging.h"
#include "tests/support/chunk_fixtures.h"
#include "tests/support/relative_difference.h"

using namespace apertura;
using namespace apertura::rml;
using apertura::test::maxRelativeDifference;
using rml::test::holedMask;

namespace {

constexpr int kPlanes = 3;

// Plane k: its own samples at its own frequency, chi2 through one shared operator (as a cube run
// has it), a masked TSV on every plane, an L1 on planes 0 and 2 (the prox of FISTA runs), and
// both across-channel terms.
struct Cube {
  imaging::ImageGeometry g = imaging::ImageGeometry::fromCell(40, 32, M_PI / 180.0 / 3600.0);
  std::vector<std::vector<VisibilityChunk>> chunks;
  std::unique_ptr<rml::test::HostResidentOperator<float>> op;
  std::vector<std::unique_ptr<HeldChunks>> held;
  std::unique_ptr<ObjectiveFunction> objective;

  Cube(bool resident, bool proximal_l1) {
    std::mt19937 rng(5);
    imaging::OperatorSettings s;
    s.epsilon = 1e-6;
    s.threads = 2;
    op = std::make_unique<rml::test::HostResidentOperator<float>>(
        imaging::makeCpuOperator<float>(g, s), resident);
    const std::size_t n = g.numPixels();
    std::vector<std::shared_ptr<ObjectiveTerm>> chi2, tsv, l1;
    chunks.resize(kPlanes);
    for (int k = 0; k < kPlanes; ++k) {
      chunks[k].push_back(apertura::test::randomChunk(rng, g, 300 + 50 * k, {1.0e9 + 1e8 * k}));
      held.push_back(std::make_unique<HeldChunks>(chunks[k]));
      chi2.push_back(makeChunkChi2Term(*op, *held.back()));
      auto t = std::make_shared<TotalSquaredVariation>(g.nx, g.ny);
      t->setMask(holedMask(n));
      tsv.push_back(t);
      if (k != 1)
        l1.push_back(std::make_shared<L1Regularizer>(g.nx, g.ny, proximal_l1 ? 0.0 : 1e-3));
    }
    objective = std::make_unique<ObjectiveFunction>(n, kPlanes);
    objective->add(std::make_shared<PlaneWiseTerm>(chi2, n), {1.0, 0, false, kPlanes});
    objective->add(std::make_shared<PlaneWiseTerm>(tsv, n), {0.3, 0, false, kPlanes});
    objective->add(std::make_shared<PlaneWiseTerm>(l1, n, std::vector<int>{0, 2}, kPlanes),
                   {0.05, 0, proximal_l1, kPlanes});
    auto smooth = std::make_shared<SpectralDifference>(g.nx, g.ny, kPlanes,
                                                       SpectralKind::TotalSquaredVariation);
    smooth->setMask(holedMask(n));
    objective->add(smooth, {0.5, 0, false, kPlanes});
    objective->add(std::make_shared<SpectralDifference>(g.nx, g.ny, kPlanes,
                                                        SpectralKind::TotalVariation, 1e-3),
                   {0.1, 0, false, kPlanes});
  }
};

std::vector<double> randomCube(std::size_t n, unsigned seed, double low) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(low, 1.0);
  std::vector<double> x(n);
  for (double& v : x)
    v = u(rng);
  return x;
}

// The term's resident value and gradient (added to 0.25 with scale 0.7) against its host ones.
void compareEvaluation(ObjectiveTerm& term, const std::vector<double>& x, double tolerance) {
  HostVectorSpace space;
  QVERIFY(term.residentIn(space));
  std::vector<double> host_gradient(x.size(), 0.25), gradient(x.size());
  const double host = term.evaluate(x.data(), host_gradient.data(), 0.7);
  auto rx = space.create(x.size()), rg = space.create(x.size());
  space.upload(x.data(), *rx);
  space.fill(0.25, *rg);
  const double resident = term.evaluateIn(space, *rx, rg.get(), 0.7);
  space.download(*rg, gradient.data());
  QVERIFY2(std::abs(resident - host) <= tolerance * std::abs(host),
           qPrintable(QString("%1 vs %2").arg(resident, 0, 'g', 17).arg(host, 0, 'g', 17)));
  QVERIFY(host != 0.0);
  const double g = maxRelativeDifference(gradient, host_gradient);
  QVERIFY2(g <= tolerance, qPrintable(QString("gradient differs by %1").arg(g)));
  QCOMPARE(term.evaluateIn(space, *rx, nullptr, 0.7), resident);
}

}  // namespace

class TestResidentCube : public QObject {
  Q_OBJECT

 private slots:
  void copyRangeChecksItsRanges() {
    HostVectorSpace space;
    auto a = space.create(10), b = space.create(4);
    const std::vector<double> x{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    space.upload(x.data(), *a);
    space.copyRange(*a, 6, *b, 0, 4);
    space.copyRange(*b, 1, *a, 0, 2);
    std::vector<double> got(10);
    space.download(*a, got.data());
    QCOMPARE(got, (std::vector<double>{7, 8, 2, 3, 4, 5, 6, 7, 8, 9}));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, space.copyRange(*a, 7, *b, 0, 4));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, space.copyRange(*a, 0, *b, 1, 4));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, space.copyRange(*a, 0, *a, 3, 4));  // overlap
    space.copyRange(*a, 0, *a, 5, 5);  // adjacent halves do not overlap
    space.download(*a, got.data());
    QCOMPARE(got, (std::vector<double>{7, 8, 2, 3, 4, 7, 8, 2, 3, 4}));
  }

  // Both kinds, every plane or some (pairs 0-2 and 2-3 of four), with a mask.
  void spectralDifferenceResidentMatchesTheHost_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<bool>("some_planes");
    QTest::newRow("tv") << 0 << 1e-3 << false;
    QTest::newRow("tv, eps 0, planes 0 2 3") << 0 << 0.0 << true;
    QTest::newRow("tsv") << 1 << 0.0 << false;
    QTest::newRow("tsv, planes 0 2 3") << 1 << 0.0 << true;
  }
  void spectralDifferenceResidentMatchesTheHost() {
    QFETCH(int, kind);
    QFETCH(double, epsilon);
    QFETCH(bool, some_planes);
    const int nx = 24, ny = 20, planes = 4;
    SpectralDifference term(
        nx, ny, planes,
        kind == 0 ? SpectralKind::TotalVariation : SpectralKind::TotalSquaredVariation, epsilon);
    term.setMask(holedMask(std::size_t(nx * ny)));
    if (some_planes)
      term.setPlanes({3, 0, 2});
    compareEvaluation(term, randomCube(std::size_t(nx * ny * planes), 3, -1.0), 1e-13);
  }

  void planeWiseTermResidentMatchesTheHost() {
    const int nx = 24, ny = 20;
    const std::size_t n = std::size_t(nx * ny);
    std::vector<std::shared_ptr<ObjectiveTerm>> tv, l1;
    for (int k = 0; k < 2; ++k) {
      tv.push_back(std::make_shared<TotalVariation>(nx, ny, TvKind::Isotropic, 1e-3));
      l1.push_back(std::make_shared<L1Regularizer>(nx, ny, 0.0));
    }
    // Planes 2 and 0 of three (listed out of order); plane 1 has no term.
    PlaneWiseTerm smooth(tv, n, {2, 0}, 3);
    const std::vector<double> x = randomCube(3 * n, 7, -1.0);
    compareEvaluation(smooth, x, 1e-14);

    PlaneWiseTerm sparse(l1, n, {2, 0}, 3);
    HostVectorSpace space;
    QVERIFY(sparse.residentProx(space));
    auto v = space.create(3 * n), out = space.create(3 * n);
    space.upload(x.data(), *v);
    std::vector<double> host(3 * n), got(3 * n);
    QCOMPARE(sparse.proxValueIn(space, *v), sparse.proxValue(x.data()));
    sparse.prox(x.data(), 0.3, host.data());
    sparse.proxIn(space, *v, 0.3, *out);
    space.download(*out, got.data());
    QVERIFY(rml::test::sameBits(got, host));
    QVERIFY(got[n + 5] == x[n + 5]);  // plane 1 passes through
    QVERIFY(got[5] != x[5]);
    // Over x >= 0: plane 1 projected, the others their prox clipped.
    sparse.proxNonNegative(x.data(), 0.3, host.data());
    sparse.proxNonNegativeIn(space, *v, 0.3, *out);
    space.download(*out, got.data());
    QVERIFY(rml::test::sameBits(got, host));
    QCOMPARE(*std::min_element(got.begin(), got.end()), 0.0);
    // In place.
    sparse.proxIn(space, *v, 0.3, *v);
    space.download(*v, got.data());
    sparse.prox(x.data(), 0.3, host.data());
    QVERIFY(rml::test::sameBits(got, host));
  }

  void cubeObjectiveIsResidentWhereEveryPlaneIs() {
    Cube host(false, false), resident(true, false);
    QVERIFY(host.objective->residentSpace() == nullptr);
    compute::VectorSpace* space = resident.objective->residentSpace();
    QVERIFY(space != nullptr);
    const std::vector<double> x = randomCube(resident.objective->dimension(), 9, 0.0);
    std::vector<double> host_gradient(x.size()), gradient(x.size());
    const double a = host.objective->evaluate(x.data(), host_gradient.data());
    auto rx = space->create(x.size()), rg = space->create(x.size());
    space->upload(x.data(), *rx);
    const double b = resident.objective->evaluateIn(*rx, rg.get());
    space->download(*rg, gradient.data());
    QCOMPARE(resident.op->resident_calls, kPlanes);  // each plane's chi2 on the "device"
    QVERIFY2(std::abs(b - a) <= 1e-13 * a,
             qPrintable(QString("%1 vs %2").arg(b, 0, 'g', 17).arg(a, 0, 'g', 17)));
    QVERIFY(maxRelativeDifference(gradient, host_gradient) <= 1e-12);
    // A term on one plane's slice would need views of the space's vectors: not resident. Given
    // to the prox, it leaves the smooth part resident.
    const std::size_t n = resident.g.numPixels();
    std::vector<std::shared_ptr<ObjectiveTerm>> chi2;
    for (int k = 0; k < kPlanes; ++k)
      chi2.push_back(makeChunkChi2Term(*resident.op, *resident.held[std::size_t(k)]));
    for (bool proximal : {false, true}) {
      ObjectiveFunction sliced(n, kPlanes);
      sliced.add(std::make_shared<PlaneWiseTerm>(chi2, n), {1.0, 0, false, kPlanes});
      sliced.add(std::make_shared<L1Regularizer>(resident.g.nx, resident.g.ny), {0.1, 1, proximal});
      QVERIFY(sliced.residentSpace() == nullptr);
      QCOMPARE(sliced.smoothPart().residentSpace() != nullptr, proximal);
    }
  }

  void cubeLbfgsRunsResident() {
    Cube host(false, false), resident(true, false);
    MappedObjective host_mapped(*host.objective, ImageMapping::Identity);
    MappedObjective resident_mapped(*resident.objective, ImageMapping::Identity);
    LbfgsSettings s;
    s.history = 5;
    s.stop.max_iterations = 15;
    s.stop.relative_tolerance = 0.0;
    s.positivity = true;
    QVERIFY(lbfgsRunsResident(resident_mapped, s));
    const std::vector<double> x0(host.objective->dimension(), 0.0);
    const OptimizerResult a = minimizeLbfgs(host_mapped, x0, s);
    const OptimizerResult b = minimizeLbfgs(resident_mapped, x0, s);
    QCOMPARE(host.op->resident_calls, 0);
    QCOMPARE(resident.op->resident_calls, kPlanes * b.evaluations);
    QCOMPARE(b.iterations, a.iterations);
    QVERIFY(a.iterations >= 10);
    // The across-channel terms' sums are formed in another order: rounding only.
    QVERIFY2(std::abs(b.objective - a.objective) <= 1e-10 * a.objective,
             qPrintable(QString("%1 vs %2").arg(b.objective, 0, 'g', 17).arg(a.objective)));
    QVERIFY(maxRelativeDifference(b.x, a.x) <= 1e-7);
    QVERIFY(a.objective < 0.5 * host.objective->evaluate(x0.data(), nullptr));
  }

  void cubeFistaRunsResident() {
    Cube host(false, true), resident(true, true);
    FistaSettings s;
    s.stop.max_iterations = 12;
    s.stop.relative_tolerance = 0.0;
    s.positivity = true;
    QVERIFY(fistaRunsResident(resident.objective->smoothPart(), resident.objective->proximalTerms(),
                              s));
    const std::vector<double> x0(host.objective->dimension(), 0.02);
    const OptimizerResult a =
        minimizeFista(host.objective->smoothPart(), host.objective->proximalTerms(), x0, s);
    const OptimizerResult b =
        minimizeFista(resident.objective->smoothPart(), resident.objective->proximalTerms(), x0, s);
    QCOMPARE(host.op->resident_calls, 0);
    QVERIFY(resident.op->resident_calls >= kPlanes * b.iterations);
    QCOMPARE(b.iterations, a.iterations);
    QVERIFY2(std::abs(b.objective - a.objective) <= 1e-10 * a.objective,
             qPrintable(QString("%1 vs %2").arg(b.objective, 0, 'g', 17).arg(a.objective)));
    QVERIFY(maxRelativeDifference(b.x, a.x) <= 1e-7);
    QCOMPARE(*std::min_element(b.x.begin(), b.x.end()), 0.0);
  }
};

QTEST_GUILESS_MAIN(TestResidentCube)
#include "test_resident_cube.moc"
