// Regularizers restricted to some planes of a cube (RegularizerSettings::planes, issue #13): a
// plane-wise term on planes {1, 3} of four is the sum of its single-plane values there and has
// no gradient (and an identity prox) elsewhere; an across-channel term on planes {0, 2, 3}
// couples 0-2 and 2-3 only; the pipeline's factory builds both from project settings and refuses
// plane indices past the cube, naming the setting.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/pipeline/regularizer_factory.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/plane_wise_term.h"
#include "core/rml/spectral_difference.h"
#include "core/util/input_error.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura;
using namespace apertura::rml;
using namespace apertura::rml::test;

namespace {

constexpr int kN = 8;
constexpr std::size_t kPixels = kN * kN;
constexpr int kPlanes = 4;

const double* plane(const std::vector<double>& cube, int k) {
  return cube.data() + std::size_t(k) * kPixels;
}

// Gradient of `term` at x (scale 1, from zero).
std::vector<double> gradientOf(ObjectiveTerm& term, const std::vector<double>& x) {
  std::vector<double> g(x.size(), 0.0);
  term.evaluate(x.data(), g.data(), 1.0);
  return g;
}

}  // namespace

class TestPlaneSelection : public QObject {
  Q_OBJECT
 private slots:
  void planeWiseTermActsOnListedPlanesOnly() {
    // TSV on planes 3 and 1 (listed out of order) of a four-plane cube.
    std::vector<std::shared_ptr<ObjectiveTerm>> terms = {
        std::make_shared<TotalSquaredVariation>(kN, kN),
        std::make_shared<TotalSquaredVariation>(kN, kN)};
    PlaneWiseTerm term(terms, kPixels, {3, 1}, kPlanes);
    QCOMPARE(term.numPlanes(), kPlanes);
    Random rng(21);
    const std::vector<double> x = rng.vector(kPixels * kPlanes, -1.0, 1.0);
    TotalSquaredVariation single(kN, kN);
    const double expected =
        single.evaluate(plane(x, 1), nullptr, 1.0) + single.evaluate(plane(x, 3), nullptr, 1.0);
    const double all_planes = expected + single.evaluate(plane(x, 0), nullptr, 1.0) +
                              single.evaluate(plane(x, 2), nullptr, 1.0);
    QVERIFY(std::fabs(term.evaluate(x.data(), nullptr, 1.0) - expected) <= 1e-12 * expected);
    QVERIFY(expected < 0.9 * all_planes);  // the planes left out do carry a value of their own
    const std::vector<double> g = gradientOf(term, x);
    for (int k : {0, 2}) {
      for (std::size_t p = 0; p < kPixels; ++p)
        QCOMPARE(g[std::size_t(k) * kPixels + p], 0.0);
    }
    // On the listed planes the gradient is the single-plane term's own.
    std::vector<double> g1(kPixels, 0.0);
    single.evaluate(plane(x, 1), g1.data(), 1.0);
    for (std::size_t p = 0; p < kPixels; ++p)
      QCOMPARE(g[kPixels + p], g1[p]);
    const double error = termGradientError(term, x, 1e-6, 0.7);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
  }

  void planeWiseProxIsTheIdentityElsewhere() {
    std::vector<std::shared_ptr<ObjectiveTerm>> l1 = {std::make_shared<L1Regularizer>(kN, kN),
                                                      std::make_shared<L1Regularizer>(kN, kN)};
    PlaneWiseTerm term(l1, kPixels, {1, 3}, kPlanes);
    QVERIFY(term.hasProx());
    QVERIFY(term.isSeparable());
    Random rng(4);
    const std::vector<double> v = rng.vector(kPixels * kPlanes, -1.0, 1.0);
    std::vector<double> out(v.size(), 99.0);
    term.prox(v.data(), 0.25, out.data());
    for (int k = 0; k < kPlanes; ++k) {
      for (std::size_t p = 0; p < kPixels; ++p) {
        const std::size_t i = std::size_t(k) * kPixels + p;
        const double shrunk = std::copysign(std::max(0.0, std::fabs(v[i]) - 0.25), v[i]);
        QCOMPARE(out[i], k == 1 || k == 3 ? shrunk : v[i]);
      }
    }
    double l1_sum = 0.0;
    for (int k : {1, 3}) {
      for (std::size_t p = 0; p < kPixels; ++p)
        l1_sum += std::fabs(plane(v, k)[p]);
    }
    QVERIFY(std::fabs(term.proxValue(v.data()) - l1_sum) < 1e-12);
    // In place (out == v) as proximal solvers may call it.
    std::vector<double> in_place = v;
    term.prox(in_place.data(), 0.25, in_place.data());
    QCOMPARE(in_place, out);
  }

  void planeWiseProxOverNonNegativeCubes() {
    // TV on plane 0 (its own prox over x >= 0), L1 on plane 2 (its prox clipped); planes 1 and 3
    // are not listed (projected). Through the objective's prox view too, in place.
    auto tv = std::make_shared<TotalVariation>(kN, kN, TvKind::Isotropic);
    auto l1 = std::make_shared<L1Regularizer>(kN, kN);
    auto term = std::make_shared<PlaneWiseTerm>(std::vector<std::shared_ptr<ObjectiveTerm>>{tv, l1},
                                                kPixels, std::vector<int>{0, 2}, kPlanes);
    QVERIFY(!term->isSeparable());
    QVERIFY(term->hasNonNegativeProx());
    Random rng(5);
    const std::vector<double> v = rng.vector(kPixels * kPlanes, -1.0, 1.0);
    const double t = 0.3;
    std::vector<double> expected(v.size());
    tv->proxNonNegative(plane(v, 0), t, expected.data());
    l1->prox(plane(v, 2), t, expected.data() + 2 * kPixels);
    for (std::size_t i = 2 * kPixels; i < 3 * kPixels; ++i)
      expected[i] = std::max(expected[i], 0.0);
    for (int k : {1, 3}) {
      for (std::size_t p = 0; p < kPixels; ++p)
        expected[k * kPixels + p] = std::max(plane(v, k)[p], 0.0);
    }
    std::vector<double> out(v.size(), 99.0);
    term->proxNonNegative(v.data(), t, out.data());
    QCOMPARE(out, expected);
    QVERIFY(*std::min_element(out.begin(), out.end()) >= 0.0);
    ObjectiveFunction objective(kPixels, kPlanes);
    objective.add(term, {2.0, 0, true, kPlanes});
    ProximableFunction& view = *objective.proximalTerms().front();
    QVERIFY(view.hasNonNegativeProx());
    std::vector<double> in_place = v;
    view.proxNonNegative(in_place.data(), t / 2.0, in_place.data());  // lambda 2: the same step
    QCOMPARE(in_place, expected);
    // Only separable terms, or one without a prox over x >= 0 (TSV): none of its own.
    PlaneWiseTerm separable({l1, l1}, kPixels, {1, 3}, kPlanes);
    QVERIFY(!separable.hasNonNegativeProx());
    PlaneWiseTerm tsv({std::make_shared<TotalSquaredVariation>(kN, kN)}, kPixels, {0}, kPlanes);
    QVERIFY(!tsv.hasNonNegativeProx());
  }

  void planeWiseTermRefusesBadLists() {
    const auto make = [](std::vector<int> planes) {
      std::vector<std::shared_ptr<ObjectiveTerm>> terms;
      for (std::size_t j = 0; j < planes.size(); ++j)
        terms.push_back(std::make_shared<L2Regularizer>(kN, kN));
      PlaneWiseTerm t(terms, kPixels, std::move(planes), kPlanes);
    };
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, make({1, 4}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, make({-1}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, make({2, 2}));
  }

  void spectralTermCouplesConsecutiveListedPlanes_data() {
    QTest::addColumn<bool>("tv");
    QTest::newRow("tsv-spectral") << false;
    QTest::newRow("tv-spectral") << true;
  }
  void spectralTermCouplesConsecutiveListedPlanes() {
    QFETCH(bool, tv);
    const SpectralKind kind =
        tv ? SpectralKind::TotalVariation : SpectralKind::TotalSquaredVariation;
    SpectralDifference term(kN, kN, kPlanes, kind, 0.05);
    term.setPlanes({3, 0, 2});
    QCOMPARE(term.planes(), (std::vector<int>{0, 2, 3}));
    Random rng(9);
    const std::vector<double> x = rng.vector(kPixels * kPlanes, -1.0, 1.0);
    // By hand: the pairs 0-2 and 2-3 (never 0-1 or 1-2).
    double expected = 0.0;
    for (auto [a, b] : {std::pair{0, 2}, std::pair{2, 3}}) {
      for (std::size_t p = 0; p < kPixels; ++p) {
        const double d = plane(x, b)[p] - plane(x, a)[p];
        expected += tv ? std::sqrt(d * d + 0.05 * 0.05) - 0.05 : d * d;
      }
    }
    QVERIFY(std::fabs(term.evaluate(x.data(), nullptr, 1.0) - expected) <= 1e-12 * expected);
    const std::vector<double> g = gradientOf(term, x);
    for (std::size_t p = 0; p < kPixels; ++p)
      QCOMPARE(g[kPixels + p], 0.0);  // plane 1 is not listed
    const double error = termGradientError(term, x, 1e-6, 0.7);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
    // Every plane again: the pairs 0-1, 1-2, 2-3.
    term.setPlanes({});
    QCOMPARE(term.planes(), (std::vector<int>{0, 1, 2, 3}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, term.setPlanes({0, 4}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, term.setPlanes({1, 1}));
  }

  void factoryBuildsSelectedTerms() {
    // A project's l1 on planes {1, 3} and tsv-spectral on {0, 2, 3}, as the cube stage builds
    // them: the same values as the hand-made terms above.
    project::RegularizerSettings l1{"l1", 1.0, false, {}, {1, 3}};
    project::RegularizerSettings across{"tsv-spectral", 1.0, false, {}, {0, 2, 3}};
    Random rng(2);
    const std::vector<double> x = rng.vector(kPixels * kPlanes, -1.0, 1.0);
    const auto l1_term = pipeline::makeCubeRegularizer(l1, kN, kN, kPlanes, {}, 0);
    double l1_sum = 0.0;
    for (int k : {1, 3}) {
      for (std::size_t p = 0; p < kPixels; ++p)
        l1_sum += std::fabs(plane(x, k)[p]);
    }
    QVERIFY(std::fabs(l1_term->evaluate(x.data(), nullptr, 1.0) - l1_sum) < 1e-12 * l1_sum);
    const auto across_term = pipeline::makeCubeRegularizer(across, kN, kN, kPlanes, {}, 1);
    SpectralDifference by_hand(kN, kN, kPlanes, SpectralKind::TotalSquaredVariation);
    by_hand.setPlanes({0, 2, 3});
    QCOMPARE(across_term->evaluate(x.data(), nullptr, 1.0),
             by_hand.evaluate(x.data(), nullptr, 1.0));
    // No list: every plane.
    l1.planes.clear();
    const auto every = pipeline::makeCubeRegularizer(l1, kN, kN, kPlanes, {}, 0);
    double all_sum = 0.0;
    for (double v : x)
      all_sum += std::fabs(v);
    QVERIFY(std::fabs(every->evaluate(x.data(), nullptr, 1.0) - all_sum) < 1e-12 * all_sum);
    // In an objective over the cube, the selected term's gradient checks out too.
    ObjectiveFunction f(kPixels, kPlanes);
    f.add(pipeline::makeCubeRegularizer({"tsv", 0.5, false, {}, {1, 3}}, kN, kN, kPlanes, {}, 0),
          {0.5, 0, false, kPlanes});
    f.add(across_term, {2.0, 0, false, kPlanes});
    QVERIFY(gradientError(f, x, 1e-6) < 1e-6);
  }

  void factoryRefusesPlanesPastTheCube() {
    const std::vector<project::RegularizerSettings> regs = {
        {"l1", 1.0, false, {}, {0}}, {"tv-spectral", 1.0, false, {}, {1, 4}}};
    try {
      pipeline::checkRegularizerPlanes(regs, kPlanes);
      QFAIL("plane 4 of a four-plane cube was accepted");
    } catch (const InputError& e) {
      QCOMPARE(e.path(), std::string("regularizers[1].planes"));
      const std::string problem = e.problem();
      QVERIFY2(problem.find("plane 4") != std::string::npos &&
                   problem.find("4 planes") != std::string::npos,
               problem.c_str());
    }
    try {
      pipeline::makeCubeRegularizer(regs[1], kN, kN, kPlanes, {}, 1);
      QFAIL("plane 4 of a four-plane cube was accepted");
    } catch (const InputError& e) {
      QCOMPARE(e.path(), std::string("regularizers[1].planes"));
    }
    pipeline::checkRegularizerPlanes(regs, 5);  // five planes: plane 4 exists
  }
};

QTEST_APPLESS_MAIN(TestPlaneSelection)
#include "test_plane_selection.moc"
