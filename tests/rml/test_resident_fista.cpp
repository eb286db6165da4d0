// FISTA's resident path (its iteration, the proxes and the inner SDMM of several terms in the
// smooth part's space) on the host space against the host path: the same iteration, so the same
// bits; and the cases that must stay on the host.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/rml/gradient_regularizers.h"
#include "core/rml/host_vector_space.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/proximal_solvers.h"
#include "tests/rml/resident_imaging.h"

using namespace apertura;
using namespace apertura::rml;
using rml::test::Imaging;

namespace {

struct Runs {
  OptimizerResult host, resident;
  double start_objective = 0.0;  // the host objective at x0
};

// FISTA from a flat 0.02 on the objective build(false) makes and on build(true)'s, resident: every
// resident evaluation in the space and none on the host, the same bits.
template <typename Build>
Runs runBoth(Build build, const FistaSettings& s) {
  auto host = build(false), resident = build(true);
  const std::vector<double> x0(host->g.numPixels(), 0.02);
  Runs runs;
  runs.start_objective = host->objective->evaluate(x0.data(), nullptr);
  [&] {
    QVERIFY(fistaRunsResident(resident->objective->smoothPart(),
                              resident->objective->proximalTerms(), s));
  }();
  runs.host = minimizeFista(host->objective->smoothPart(), host->objective->proximalTerms(), x0, s);
  runs.resident =
      minimizeFista(resident->objective->smoothPart(), resident->objective->proximalTerms(), x0, s);
  [&] {
    QVERIFY(resident->op->resident_calls > 0);
    QCOMPARE(host->op->resident_calls, 0);
  }();
  rml::test::compareRuns(runs.host, runs.resident);
  return runs;
}

// w |x|_1 with its prox on host pointers only (as a plugin's term).
class HostOnlyL1 final : public ProximableFunction {
 public:
  HostOnlyL1(std::size_t n, double w) : n_(n), w_(w) {}
  std::string name() const override { return "host l1"; }
  double value(const double* x) override {
    double v = 0.0;
    for (std::size_t k = 0; k < n_; ++k)
      v += w_ * std::abs(x[k]);
    return v;
  }
  void prox(const double* v, double step, double* out) override {
    for (std::size_t k = 0; k < n_; ++k)
      out[k] = std::copysign(std::max(std::abs(v[k]) - step * w_, 0.0), v[k]);
  }
  bool isSeparable() const override { return true; }

 private:
  std::size_t n_;
  double w_;
};

}  // namespace

class TestResidentFista : public QObject {
  Q_OBJECT
 private slots:
  void fistaResidentGivesTheHostBits_data() {
    QTest::addColumn<bool>("positivity");
    // 0: L1, 1: L2, 2: entropy, 3: masked isotropic TV, 4: anisotropic TV, 5: Huber, 6: TSV,
    // 7: masked Laplacian
    QTest::addColumn<int>("prox");
    QTest::newRow("L1") << false << 0;
    QTest::newRow("L1 projected") << true << 0;
    QTest::newRow("L2 projected") << true << 1;
    QTest::newRow("entropy") << false << 2;
    QTest::newRow("TV") << false << 3;
    QTest::newRow("TV projected") << true << 3;
    QTest::newRow("TV anisotropic projected") << true << 4;
    QTest::newRow("Huber") << false << 5;
    QTest::newRow("Huber projected") << true << 5;
    QTest::newRow("TSV") << false << 6;
    QTest::newRow("Laplacian") << false << 7;
  }
  void fistaResidentGivesTheHostBits() {
    QFETCH(bool, positivity);
    QFETCH(int, prox);
    auto build = [&](bool resident) {
      auto im = std::make_unique<Imaging>(resident, false);
      const int nx = im->g.nx, ny = im->g.ny;
      std::shared_ptr<ObjectiveTerm> term;
      if (prox == 0) {
        term = std::make_shared<L1Regularizer>(nx, ny);
      } else if (prox == 1) {
        term =
            std::make_shared<L2Regularizer>(nx, ny, std::vector<double>(im->g.numPixels(), 0.01));
      } else if (prox == 2) {
        term = std::make_shared<EntropyRegularizer>(nx, ny, std::vector<double>{0.01});
      } else if (prox == 3 || prox == 4) {
        auto tv = std::make_shared<TotalVariation>(
            nx, ny, prox == 3 ? TvKind::Isotropic : TvKind::Anisotropic);
        if (prox == 3)
          tv->setMask(rml::test::holedMask(im->g.numPixels()));
        term = tv;
      } else if (prox == 5) {
        term = std::make_shared<HuberRegularizer>(nx, ny, 0.01);
      } else if (prox == 6) {
        term = std::make_shared<TotalSquaredVariation>(nx, ny);
      } else {
        auto laplacian = std::make_shared<LaplacianRegularizer>(nx, ny);
        laplacian->setMask(rml::test::holedMask(im->g.numPixels()));
        term = laplacian;
      }
      im->objective->add(term, {0.05, 0, true});
      return im;
    };
    FistaSettings s;
    s.positivity = positivity;
    s.stop.max_iterations = 12;
    s.stop.relative_tolerance = 0.0;
    const Runs runs = runBoth(build, s);
    QCOMPARE(runs.host.iterations, 12);
  }

  // The joint prox of several terms, and TSV's prox with positivity (no prox over x >= 0 of its
  // own), by an inner SDMM in the resident space: the host's iteration, bit for bit.
  void fistaWithSeveralProxesResidentGivesTheHostBits_data() {
    QTest::addColumn<bool>("positivity");
    QTest::addColumn<int>("terms");  // 0: TV + L1, 1: TSV, 2: TV + anisotropic TV + L1
    QTest::newRow("TV and L1") << false << 0;
    QTest::newRow("TV and L1 projected") << true << 0;
    QTest::newRow("TSV projected") << true << 1;
    QTest::newRow("TV, anisotropic TV and L1 projected") << true << 2;
  }
  void fistaWithSeveralProxesResidentGivesTheHostBits() {
    QFETCH(bool, positivity);
    QFETCH(int, terms);
    auto build = [&](bool resident) {
      auto im = std::make_unique<Imaging>(resident, false);
      const int nx = im->g.nx, ny = im->g.ny;
      if (terms == 1) {
        im->objective->add(std::make_shared<TotalSquaredVariation>(nx, ny), {0.05, 0, true});
        return im;
      }
      // TV's own dual iterations capped: the runs compare bits, not converged proxes.
      auto tv = std::make_shared<TotalVariation>(nx, ny, TvKind::Isotropic);
      tv->setMask(rml::test::holedMask(im->g.numPixels()));
      tv->setProxIterations(30, 1e-8);
      im->objective->add(tv, {0.02, 0, true});
      if (terms == 2) {
        auto aniso = std::make_shared<TotalVariation>(nx, ny, TvKind::Anisotropic);
        aniso->setProxIterations(30, 1e-8);
        im->objective->add(aniso, {0.01, 0, true});
      }
      im->objective->add(std::make_shared<L1Regularizer>(nx, ny), {0.03, 0, true});
      return im;
    };
    FistaSettings s;
    s.positivity = positivity;
    s.prox_iterations = 15;
    s.stop.max_iterations = 6;
    s.stop.relative_tolerance = 0.0;
    const Runs runs = runBoth(build, s);
    QCOMPARE(runs.host.iterations, 6);
    if (positivity)
      QVERIFY(*std::min_element(runs.resident.x.begin(), runs.resident.x.end()) >= 0.0);
    QVERIFY(runs.host.objective < runs.start_objective);
  }

  // A term whose prox runs on the host only, or an inner SDMM whose vectors do not fit in the
  // space's free memory, keeps FISTA on the host; the run completes there.
  void fistaWithAHostOnlyProxStaysOnTheHost_data() {
    QTest::addColumn<bool>("host_only_term");
    QTest::newRow("a host-only prox") << true;
    QTest::newRow("no room for the inner SDMM") << false;
  }
  void fistaWithAHostOnlyProxStaysOnTheHost() {
    QFETCH(bool, host_only_term);
    Imaging resident(true, false);
    const int nx = resident.g.nx, ny = resident.g.ny;
    const std::size_t n = resident.g.numPixels();
    auto tv = std::make_shared<TotalVariation>(nx, ny, TvKind::Isotropic);
    tv->setProxIterations(30, 1e-8);
    resident.objective->add(tv, {0.01, 0, true});
    if (!host_only_term)
      resident.objective->add(std::make_shared<L1Regularizer>(nx, ny), {0.01, 0, true});
    HostOnlyL1 host_l1(n, 0.01);
    std::vector<ProximableFunction*> terms = resident.objective->proximalTerms();
    FistaSettings s;
    s.positivity = true;
    s.stop.max_iterations = 3;
    s.prox_iterations = 10;
    DifferentiableFunction& smooth = resident.objective->smoothPart();
    if (host_only_term) {
      terms.push_back(&host_l1);
    } else {
      // FISTA's 5 vectors; the inner SDMM's of {quadratic, TV, L1, positivity}: 2 x 4 + 2.
      auto& space = dynamic_cast<HostVectorSpace&>(*smooth.residentSpace());
      const std::size_t needed = (5 + 10) * n * sizeof(double);
      space.limitAvailableBytes(needed);
      QVERIFY(fistaRunsResident(smooth, terms, s));
      space.limitAvailableBytes(needed - 1);
    }
    QVERIFY(!fistaRunsResident(smooth, terms, s));
    const OptimizerResult r = minimizeFista(smooth, terms, std::vector<double>(n, 0.02), s);
    QCOMPARE(r.iterations, 3);
    QCOMPARE(resident.op->resident_calls, 0);
    QVERIFY(*std::min_element(r.x.begin(), r.x.end()) >= 0.0);
  }
};

QTEST_APPLESS_MAIN(TestResidentFista)
#include "test_resident_fista.moc"
