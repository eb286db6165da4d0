// The resident RML path (VectorSpace, ObjectiveFunction::evaluateIn, the resident L-BFGS,
// conjugate gradients and FISTA) on the host space against the host path: the same iteration, so
// the same bits; and the cases that must stay on the host.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "core/pipeline/point_recorder.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/rml/conjugate_gradient.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/host_vector_space.h"
#include "core/rml/image_mapping.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/proximal_solvers.h"
#include "core/rml/resident_lbfgs.h"
#include "tests/rml/coupled_chain.h"
#include "tests/rml/host_resident_operator.h"
#include "tests/support/chunk_fixtures.h"

using namespace apertura;
using namespace apertura::rml;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// A badly conditioned non-quadratic chain (tests/rml/coupled_chain.h) of n variables.
rml::test::CoupledChain chain(std::size_t n) {
  Vector w(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    w[i] = 1.0 + 50.0 * double(i % 7);
    b[i] = std::cos(0.21 * double(i));
  }
  return rml::test::CoupledChain(std::move(w), std::move(b), 0.5, true);
}

// f seen resident in a host space (OnHostSpace), counting the resident evaluations.
class ResidentView final : public DifferentiableFunction {
 public:
  explicit ResidentView(DifferentiableFunction& f) : host_(f) {}
  std::size_t dimension() const override { return host_.dimension(); }
  double evaluate(const double* x, double* g) override { return host_.evaluate(x, g); }
  compute::VectorSpace* residentSpace() override { return host_.residentSpace(); }
  double evaluateIn(const compute::SpaceVector& x, compute::SpaceVector* g) override {
    ++resident_calls;
    return host_.evaluateIn(x, g);
  }
  int resident_calls = 0;

 private:
  OnHostSpace host_;
};

// b took a's iterations and evaluations and ended at a's objective and iterate, bit for bit.
void compareRuns(const OptimizerResult& a, const OptimizerResult& b) {
  QCOMPARE(b.iterations, a.iterations);
  QCOMPARE(b.evaluations, a.evaluations);
  QCOMPARE(int(b.reason), int(a.reason));
  QCOMPARE(b.objective, a.objective);
  QVERIFY(sameBits(a.x, b.x));
}

LbfgsSettings settings(int iterations, bool positivity, LineSearchKind kind) {
  LbfgsSettings s;
  s.history = 4;  // fewer pairs than iterations: the ring wraps
  s.positivity = positivity;
  s.line_search.kind = kind;
  s.stop.max_iterations = iterations;
  s.stop.relative_tolerance = 0.0;
  return s;
}

// An imaging objective: chi2 through an operator that forms residuals (resident or not) and a
// regularizer of every kind, some masked.
struct Imaging {
  imaging::ImageGeometry g = imaging::ImageGeometry::fromCell(48, 40, 1.0 * kArcsec);
  std::vector<VisibilityChunk> chunks;
  std::unique_ptr<rml::test::HostResidentOperator<float>> op;
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
    op = std::make_unique<rml::test::HostResidentOperator<float>>(
        imaging::makeCpuOperator<float>(g, s), resident);
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
std::vector<double> holedMask(std::size_t n) {
  std::vector<double> m(n, 1.0);
  for (std::size_t p = n / 4; p < n / 4 + 60; ++p)
    m[p] = 0.0;
  for (std::size_t p = n / 2; p < n / 2 + 90; ++p)
    m[p] = 0.4;
  return m;
}

// A support with a hole: the mapping's resident product.
std::vector<double> support(std::size_t n) {
  std::vector<double> s(n, 1.0);
  for (std::size_t p = n / 3; p < n / 3 + 50; ++p)
    s[p] = 0.0;
  return s;
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

class TestResidentSolvers : public QObject {
  Q_OBJECT
 private slots:
  void residentIterationGivesTheHostBits_data() {
    QTest::addColumn<bool>("positivity");
    QTest::addColumn<int>("kind");
    for (bool positivity : {false, true}) {
      for (auto kind : {LineSearchKind::StrongWolfe, LineSearchKind::Armijo,
                        LineSearchKind::MoreThuente, LineSearchKind::Brent}) {
        const QByteArray name =
            QByteArray(positivity ? "projected " : "free ") + QByteArray::number(int(kind));
        QTest::newRow(name.constData()) << positivity << int(kind);
      }
    }
  }
  void residentIterationGivesTheHostBits() {
    QFETCH(bool, positivity);
    QFETCH(int, kind);
    const LbfgsSettings s = settings(25, positivity, LineSearchKind(kind));
    std::vector<double> x0(300);
    for (std::size_t i = 0; i < x0.size(); ++i)
      x0[i] = 0.5 * std::sin(0.37 * double(i)) + (positivity ? 0.2 : -0.3);
    rml::test::CoupledChain host = chain(x0.size()), inner = chain(x0.size());
    ResidentView resident(inner);
    const OptimizerResult a = minimizeLbfgs(host, x0, s);
    QVERIFY(lbfgsRunsResident(resident, s));
    const OptimizerResult b = minimizeLbfgs(resident, x0, s);
    QCOMPARE(inner.evaluations, resident.resident_calls);  // every evaluation was resident
    compareRuns(a, b);
    QVERIFY(a.iterations >= 10);
  }

  void hostSpaceCountsTheVectorsAlive() {
    HostVectorSpace space;
    QCOMPARE(space.bytesHeld(), std::size_t(0));
    auto a = space.create(100);
    {
      auto b = space.create(50);
      QCOMPARE(space.bytesHeld(), std::size_t(150 * sizeof(double)));
    }
    QCOMPARE(space.bytesHeld(), std::size_t(100 * sizeof(double)));
  }

  void hostOnlySettingsStayOnTheHost() {
    rml::test::CoupledChain inner = chain(50);
    ResidentView f(inner);
    LbfgsSettings s = settings(5, false, LineSearchKind::StrongWolfe);
    s.float_history = true;
    QVERIFY(!lbfgsRunsResident(f, s));
    minimizeLbfgs(f, std::vector<double>(50, 0.1), s);
    QCOMPARE(f.resident_calls, 0);
    s.float_history = false;
    s.in_memory_limit = 2;  // pairs spill to disk: a host feature
    QVERIFY(!lbfgsRunsResident(f, s));
    // A state larger than the space's free memory stays on the host, and the run completes there.
    s.in_memory_limit = 0;
    QVERIFY(lbfgsRunsResident(f, s));
    auto& space = dynamic_cast<HostVectorSpace&>(*f.residentSpace());
    QCOMPARE(residentLbfgsBytes(50, s.history), std::size_t((2 * 4 + 9) * 50 * 8));
    space.limitAvailableBytes(residentLbfgsBytes(50, s.history));
    QVERIFY(lbfgsRunsResident(f, s));
    space.limitAvailableBytes(residentLbfgsBytes(50, s.history) - 1);
    QVERIFY(!lbfgsRunsResident(f, s));
    const OptimizerResult r = minimizeLbfgs(f, std::vector<double>(50, 0.1), s);
    QCOMPARE(r.iterations, 5);
    QCOMPARE(f.resident_calls, 0);
  }

  void wholeImagingObjectiveResidentGivesTheHostBits_data() {
    QTest::addColumn<bool>("positivity");
    QTest::newRow("free") << false;
    QTest::newRow("projected with entropy") << true;
  }
  void wholeImagingObjectiveResidentGivesTheHostBits() {
    QFETCH(bool, positivity);
    Imaging host(false, positivity), resident(true, positivity);
    QVERIFY(host.objective->residentSpace() == nullptr);
    QVERIFY(resident.objective->residentSpace() != nullptr);
    const std::size_t n = host.g.numPixels();
    MappedObjective host_mapped(*host.objective, ImageMapping::Identity, support(n));
    MappedObjective resident_mapped(*resident.objective, ImageMapping::Identity, support(n));
    pipeline::PointRecorder host_recorder(host_mapped), resident_recorder(resident_mapped);
    LbfgsSettings s = settings(12, positivity, LineSearchKind::StrongWolfe);
    std::vector<TermValue> host_terms, resident_terms;
    s.stop.observer = [&](const IterationReport& r) { host_terms = r.terms; };
    const std::vector<double> x0(n, 0.02);
    const OptimizerResult a = minimizeLbfgs(host_recorder, x0, s);
    std::vector<double> observed;  // the recorder brings the resident iterate to the host
    s.stop.observer = [&](const IterationReport& r) {
      resident_terms = r.terms;
      observed = resident_recorder.lastPoint();
    };
    const OptimizerResult b = minimizeLbfgs(resident_recorder, x0, s);
    QVERIFY(resident.op->resident_calls > 0);
    QCOMPARE(host.op->resident_calls, 0);
    compareRuns(a, b);
    QVERIFY(sameBits(observed, b.x));
    QCOMPARE(resident_terms.size(), host_terms.size());
    for (std::size_t k = 0; k < host_terms.size(); ++k) {
      QCOMPARE(resident_terms[k].name, host_terms[k].name);
      QCOMPARE(resident_terms[k].value, host_terms[k].value);
    }
    QVERIFY(a.iterations >= 8);
    QVERIFY(a.objective < host.objective->evaluate(x0.data(), nullptr));
  }

  // A distributed run (two processes holding the same chunks: the sum doubles what it is given)
  // keeps chi2 resident, its partial gradient summed through the host: the host's bits, and the
  // same calls of the sum.
  void distributedChi2ResidentGivesTheHostBits() {
    std::vector<std::size_t> host_calls, resident_calls;
    auto twoProcesses = [](std::vector<std::size_t>& calls) {
      return [&calls](double* d, std::size_t n) {
        calls.push_back(n);
        for (std::size_t k = 0; k < n; ++k)
          d[k] *= 2.0;
      };
    };
    Imaging host(false, false, twoProcesses(host_calls));
    Imaging resident(true, false, twoProcesses(resident_calls));
    Imaging single(false, false);
    QVERIFY(resident.objective->residentSpace() != nullptr);
    const std::size_t n = host.g.numPixels();
    LbfgsSettings s = settings(10, true, LineSearchKind::StrongWolfe);
    const std::vector<double> x0(n, 0.02);
    const OptimizerResult a = minimizeLbfgs(*host.objective, x0, s);
    const OptimizerResult b = minimizeLbfgs(*resident.objective, x0, s);
    QVERIFY(resident.op->resident_calls > 0);
    compareRuns(a, b);
    QVERIFY(a.iterations >= 8);
    QCOMPARE(resident_calls, host_calls);
    QVERIFY(std::count(host_calls.begin(), host_calls.end(), n) >= 8);
    // The sum is applied: not the single process's run.
    const OptimizerResult c = minimizeLbfgs(*single.objective, x0, s);
    QVERIFY(c.objective != a.objective);
  }

  void conjugateGradientsResidentGiveTheHostBits_data() {
    QTest::addColumn<int>("beta");
    for (auto beta : {CgBeta::FletcherReeves, CgBeta::PolakRibierePlus, CgBeta::HestenesStiefel,
                      CgBeta::DaiYuan, CgBeta::HagerZhang})
      QTest::newRow(toString(beta).c_str()) << int(beta);
  }
  void conjugateGradientsResidentGiveTheHostBits() {
    QFETCH(int, beta);
    Imaging host(false, false), resident(true, false);
    CgSettings s;
    s.beta = CgBeta(beta);
    s.stop.max_iterations = 15;
    s.stop.relative_tolerance = 0.0;
    const std::vector<double> x0(host.g.numPixels(), 0.02);
    const OptimizerResult a = minimizeConjugateGradient(*host.objective, x0, s);
    const OptimizerResult b = minimizeConjugateGradient(*resident.objective, x0, s);
    QVERIFY(resident.op->resident_calls > 0);
    QCOMPARE(host.op->resident_calls, 0);
    compareRuns(a, b);
    QVERIFY(a.iterations >= 10);
    QVERIFY(a.objective < 0.5 * host.objective->evaluate(x0.data(), nullptr));
  }

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
          tv->setMask(holedMask(im->g.numPixels()));
        term = tv;
      } else if (prox == 5) {
        term = std::make_shared<HuberRegularizer>(nx, ny, 0.01);
      } else if (prox == 6) {
        term = std::make_shared<TotalSquaredVariation>(nx, ny);
      } else {
        auto laplacian = std::make_shared<LaplacianRegularizer>(nx, ny);
        laplacian->setMask(holedMask(im->g.numPixels()));
        term = laplacian;
      }
      im->objective->add(term, {0.05, 0, true});
      return im;
    };
    auto host = build(false), resident = build(true);
    FistaSettings s;
    s.positivity = positivity;
    s.stop.max_iterations = 12;
    s.stop.relative_tolerance = 0.0;
    const std::vector<double> x0(host->g.numPixels(), 0.02);
    const OptimizerResult a =
        minimizeFista(host->objective->smoothPart(), host->objective->proximalTerms(), x0, s);
    const OptimizerResult b = minimizeFista(resident->objective->smoothPart(),
                                            resident->objective->proximalTerms(), x0, s);
    QVERIFY(resident->op->resident_calls > 0);
    QCOMPARE(host->op->resident_calls, 0);
    compareRuns(a, b);
    QCOMPARE(a.iterations, 12);
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
      tv->setMask(holedMask(im->g.numPixels()));
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
    auto host = build(false), resident = build(true);
    FistaSettings s;
    s.positivity = positivity;
    s.prox_iterations = 15;
    s.stop.max_iterations = 6;
    s.stop.relative_tolerance = 0.0;
    const std::vector<double> x0(host->g.numPixels(), 0.02);
    QVERIFY(fistaRunsResident(resident->objective->smoothPart(),
                              resident->objective->proximalTerms(), s));
    const OptimizerResult a =
        minimizeFista(host->objective->smoothPart(), host->objective->proximalTerms(), x0, s);
    const OptimizerResult b = minimizeFista(resident->objective->smoothPart(),
                                            resident->objective->proximalTerms(), x0, s);
    QVERIFY(resident->op->resident_calls > 0);
    QCOMPARE(host->op->resident_calls, 0);
    compareRuns(a, b);
    QCOMPARE(a.iterations, 6);
    if (positivity)
      QVERIFY(*std::min_element(b.x.begin(), b.x.end()) >= 0.0);
    QVERIFY(a.objective < host->objective->evaluate(x0.data(), nullptr));
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

  void mappedObjectivesResidentGiveTheHostBits_data() {
    QTest::addColumn<int>("mapping");
    QTest::addColumn<bool>("with_support");
    QTest::newRow("exp") << int(ImageMapping::Exp) << false;
    QTest::newRow("exp, support") << int(ImageMapping::Exp) << true;
    QTest::newRow("softplus, support") << int(ImageMapping::Softplus) << true;
    QTest::newRow("identity, support") << int(ImageMapping::Identity) << true;
  }
  void mappedObjectivesResidentGiveTheHostBits() {
    QFETCH(int, mapping);
    QFETCH(bool, with_support);
    // Entropy needs a positive image: with the positive mappings only.
    const bool entropy = ImageMapping(mapping) != ImageMapping::Identity;
    Imaging host(false, entropy), resident(true, entropy);
    const std::size_t n = host.g.numPixels();
    const std::vector<double> s = with_support ? support(n) : std::vector<double>{};
    MappedObjective host_mapped(*host.objective, ImageMapping(mapping), s);
    MappedObjective resident_mapped(*resident.objective, ImageMapping(mapping), s);
    QVERIFY(resident_mapped.residentSpace() != nullptr);
    std::vector<double> x0(n), image(n, 0.02);
    host_mapped.fromImage(image.data(), x0.data(), 1e-8);
    LbfgsSettings settings_ = settings(10, false, LineSearchKind::StrongWolfe);
    const OptimizerResult a = minimizeLbfgs(host_mapped, x0, settings_);
    const OptimizerResult b = minimizeLbfgs(resident_mapped, x0, settings_);
    QVERIFY(resident.op->resident_calls > 0);
    QCOMPARE(host.op->resident_calls, 0);
    compareRuns(a, b);
    QVERIFY(a.iterations >= 8);
  }

  void aTermWithoutResidentEvaluationKeepsTheObjectiveOnTheHost() {
    Imaging resident(true, false);
    QVERIFY(resident.objective->residentSpace() != nullptr);
    // Proximal terms are left out of the smooth part, which stays resident.
    resident.objective->add(std::make_shared<L1Regularizer>(resident.g.nx, resident.g.ny),
                            {0.1, 0, true});
    QVERIFY(resident.objective->smoothPart().residentSpace() != nullptr);
    // Cubes stay on the host.
    ObjectiveFunction cube(resident.g.numPixels(), 2);
    QVERIFY(cube.residentSpace() == nullptr);
  }
};

QTEST_APPLESS_MAIN(TestResidentSolvers)
#include "test_resident_solvers.moc"
