// The resident RML path (VectorSpace, ObjectiveFunction::evaluateIn, the resident L-BFGS and
// conjugate gradients; FISTA in test_resident_fista.cpp) on the host space against the host path:
// the same iteration, so the same bits; and the cases that must stay on the host.
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
#include "tests/rml/resident_imaging.h"

using namespace apertura;
using namespace apertura::rml;
using rml::test::compareRuns;
using rml::test::Imaging;
using rml::test::sameBits;

namespace {

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

LbfgsSettings settings(int iterations, bool positivity, LineSearchKind kind) {
  LbfgsSettings s;
  s.history = 4;  // fewer pairs than iterations: the ring wraps
  s.positivity = positivity;
  s.line_search.kind = kind;
  s.stop.max_iterations = iterations;
  s.stop.relative_tolerance = 0.0;
  return s;
}

// A support with a hole: the mapping's resident product.
std::vector<double> support(std::size_t n) {
  std::vector<double> s(n, 1.0);
  for (std::size_t p = n / 3; p < n / 3 + 50; ++p)
    s[p] = 0.0;
  return s;
}

}  // namespace

class TestResidentSolvers : public QObject {
  Q_OBJECT
 private slots:
  void residentIterationGivesTheHostBits_data() {
    QTest::addColumn<bool>("positivity");
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("float_pairs");
    for (bool float_pairs : {false, true}) {
      for (bool positivity : {false, true}) {
        for (auto kind : {LineSearchKind::StrongWolfe, LineSearchKind::Armijo,
                          LineSearchKind::MoreThuente, LineSearchKind::Brent}) {
          const QByteArray name = QByteArray(positivity ? "projected " : "free ") +
                                  QByteArray::number(int(kind)) +
                                  (float_pairs ? " float pairs" : "");
          QTest::newRow(name.constData()) << positivity << int(kind) << float_pairs;
        }
      }
    }
  }
  // With float pairs too: the pairs are rounded to float as they are stored, rho comes from the
  // stored pair, and the recursion widens them to double, on the host as in the space.
  void residentIterationGivesTheHostBits() {
    QFETCH(bool, positivity);
    QFETCH(int, kind);
    QFETCH(bool, float_pairs);
    LbfgsSettings s = settings(25, positivity, LineSearchKind(kind));
    s.float_history = float_pairs;
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
    s.in_memory_limit = 2;  // pairs spill to disk: a host feature
    QVERIFY(!lbfgsRunsResident(f, s));
    minimizeLbfgs(f, std::vector<double>(50, 0.1), s);
    QCOMPARE(f.resident_calls, 0);
    s.float_history = true;
    QVERIFY(!lbfgsRunsResident(f, s));
    s.float_history = false;
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
    // Float pairs take half the pairs' bytes, so they fit where double ones do not.
    s.float_history = true;
    QCOMPARE(residentLbfgsBytes(50, s.history, true), std::size_t(2 * 4 * 50 * 4 + 9 * 50 * 8));
    QVERIFY(residentLbfgsBytes(50, s.history, true) < residentLbfgsBytes(50, s.history) - 1);
    QVERIFY(lbfgsRunsResident(f, s));
    const OptimizerResult rf = minimizeLbfgs(f, std::vector<double>(50, 0.1), s);
    QCOMPARE(rf.iterations, 5);
    QVERIFY(f.resident_calls > 0);
    space.limitAvailableBytes(residentLbfgsBytes(50, s.history, true) - 1);
    QVERIFY(!lbfgsRunsResident(f, s));
  }

  // The float vectors of the host space: counted at 4 bytes, taken by dot, axpy and differences
  // (widened to double), refused with a clear message by every double operation.
  void hostSpaceFloatVectors() {
    HostVectorSpace space;
    auto f = space.createFloat(3);
    QCOMPARE(f->element(), compute::Element::Float);
    QCOMPARE(space.bytesHeld(), std::size_t(3 * sizeof(float)));
    auto x = space.create(3), xn = space.create(3), g = space.create(3), gn = space.create(3);
    auto fy = space.createFloat(3), d = space.create(3);
    const double third = 1.0 / 3.0;  // not a float: the stored pair's s.y differs
    space.upload(std::vector<double>{0.0, 1.0, 2.0}.data(), *x);
    space.upload(std::vector<double>{third, 1.0 + third, 2.0 - third}.data(), *xn);
    space.upload(std::vector<double>{1.0, 1.0, 1.0}.data(), *g);
    space.upload(std::vector<double>{1.1, 1.0, 0.7}.data(), *gn);
    const auto sums = space.differences(*xn, *x, *gn, *g, f.get(), fy.get());
    const auto& xv = HostVectorSpace::of(*x);
    const auto& xnv = HostVectorSpace::of(*xn);
    const auto& gv = HostVectorSpace::of(*g);
    const auto& gnv = HostVectorSpace::of(*gn);
    double sy = 0.0, float_sy = 0.0;
    for (std::size_t i = 0; i < 3; ++i) {
      const double si = xnv[i] - xv[i], yi = gnv[i] - gv[i];
      sy += si * yi;
      float_sy += double(float(si)) * double(float(yi));
      QCOMPARE(HostVectorSpace::floatsOf(*f)[i], float(si));
      QCOMPARE(HostVectorSpace::floatsOf(*fy)[i], float(yi));
    }
    QCOMPARE(sums.sy, sy);
    QCOMPARE(sums.float_sy, float_sy);
    QVERIFY(sums.float_sy != sums.sy);  // the rounding shows
    // The rounded pair's s.y is there to judge a pair before it is stored, and with double pairs.
    const auto judged = space.differences(*xn, *x, *gn, *g, nullptr, nullptr);
    QCOMPARE(judged.sy, sy);
    QCOMPARE(judged.float_sy, float_sy);
    auto ds = space.create(3), dy = space.create(3);
    QCOMPARE(space.differences(*xn, *x, *gn, *g, ds.get(), dy.get()).float_sy, float_sy);
    // dot and axpy widen the floats: exactly the double arithmetic on the stored values.
    space.upload(std::vector<double>{2.0, -1.0, 0.5}.data(), *d);
    const float* fs = HostVectorSpace::floatsOf(*f).data();
    QCOMPARE(space.dot(*f, *d), double(fs[0]) * 2.0 + double(fs[1]) * -1.0 + double(fs[2]) * 0.5);
    QCOMPARE(space.dot(*d, *f), space.dot(*f, *d));
    space.axpy(0.25, *f, *d);
    QCOMPARE(HostVectorSpace::of(*d)[1], -1.0 + 0.25 * double(fs[1]));
    // A float vector where a double one is needed, and the other way round.
    bool refused = false;
    try {
      space.scale(2.0, *f);
    } catch (const std::invalid_argument& e) {
      refused = std::string(e.what()).find("float vector where a double one") != std::string::npos;
    }
    QVERIFY(refused);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.differences(*xn, *x, *gn, *g, f.get(), nullptr));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, space.axpy(1.0, *d, *f));
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
