// Across-channel regularizers of a cube (tv-spectral, tsv-spectral): values on a hand-made cube,
// gradients against finite differences with and without a mask, and how the objective applies
// terms to all planes (TermOptions::parameters, PlaneWiseTerm).
#include <QtTest>
#include <cmath>
#include <memory>

#include "core/rml/gradient_regularizers.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "core/rml/plane_wise_term.h"
#include "core/rml/spectral_difference.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura;
using namespace apertura::rml;
using namespace apertura::rml::test;

namespace {

constexpr int kN = 8;
constexpr std::size_t kPixels = kN * kN;
constexpr int kPlanes = 4;

std::vector<double> halfMask() {
  std::vector<double> mask(kPixels, 0.0);
  for (std::size_t p = 0; p < kPixels / 2; ++p)
    mask[p] = p % 3 == 0 ? 0.5 : 1.0;
  return mask;
}

}  // namespace

class TestSpectralRegularizers : public QObject {
  Q_OBJECT
 private slots:
  void valuesOnAKnownCube() {
    // Pixel p of plane k holds k * (p + 1): adjacent planes differ by p + 1 at pixel p.
    std::vector<double> cube(kPixels * kPlanes);
    for (int k = 0; k < kPlanes; ++k) {
      for (std::size_t p = 0; p < kPixels; ++p)
        cube[std::size_t(k) * kPixels + p] = double(k) * double(p + 1);
    }
    double abs_sum = 0.0, sq_sum = 0.0;
    for (std::size_t p = 0; p < kPixels; ++p) {
      abs_sum += (kPlanes - 1) * double(p + 1);
      sq_sum += (kPlanes - 1) * double(p + 1) * double(p + 1);
    }
    SpectralDifference tv(kN, kN, kPlanes, SpectralKind::TotalVariation, 0.0);
    SpectralDifference tsv(kN, kN, kPlanes, SpectralKind::TotalSquaredVariation);
    QCOMPARE(tv.evaluate(cube.data(), nullptr, 1.0), abs_sum);
    QCOMPARE(tsv.evaluate(cube.data(), nullptr, 1.0), sq_sum);
    QCOMPARE(tv.name(), std::string("tv_spectral"));
    // The same image in every plane costs nothing; one plane has no neighbours.
    std::vector<double> flat(kPixels * kPlanes, 3.0);
    QCOMPARE(tv.evaluate(flat.data(), nullptr, 1.0), 0.0);
    SpectralDifference single(kN, kN, 1, SpectralKind::TotalSquaredVariation);
    QCOMPARE(single.evaluate(cube.data(), nullptr, 1.0), 0.0);
    // A mask weights each pixel's differences (zero outside).
    tsv.setMask(halfMask());
    double masked = 0.0;
    const auto mask = halfMask();
    for (std::size_t p = 0; p < kPixels; ++p)
      masked += mask[p] * (kPlanes - 1) * double(p + 1) * double(p + 1);
    QCOMPARE(tsv.evaluate(cube.data(), nullptr, 1.0), masked);
  }

  void gradientsMatchFiniteDifferences_data() {
    QTest::addColumn<bool>("tv");
    QTest::addColumn<bool>("masked");
    QTest::newRow("tsv") << false << false;
    QTest::newRow("tsv masked") << false << true;
    QTest::newRow("tv") << true << false;
    QTest::newRow("tv masked") << true << true;
  }
  void gradientsMatchFiniteDifferences() {
    QFETCH(bool, tv);
    QFETCH(bool, masked);
    Random rng(11);
    const std::vector<double> x = rng.vector(kPixels * kPlanes, -1.0, 1.0);
    // epsilon comparable to the differences: the smoothed |d| is then well resolved by h.
    SpectralDifference term(kN, kN, kPlanes,
                            tv ? SpectralKind::TotalVariation : SpectralKind::TotalSquaredVariation,
                            0.05);
    if (masked)
      term.setMask(halfMask());
    const double error = termGradientError(term, x, 1e-6, 0.7);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
    if (masked) {
      // Pixels outside the mask get no gradient in any plane.
      std::vector<double> g(x.size(), 0.0);
      term.evaluate(x.data(), g.data(), 1.0);
      for (int k = 0; k < kPlanes; ++k) {
        for (std::size_t p = kPixels / 2; p < kPixels; ++p)
          QCOMPARE(g[std::size_t(k) * kPixels + p], 0.0);
      }
    }
  }

  void objectiveGivesTheTermEveryPlane() {
    // chi2-free objective over 3 planes: per-plane TSV (PlaneWiseTerm) plus TSV across planes.
    constexpr int planes = 3;
    ObjectiveFunction f(kPixels, planes);
    std::vector<std::shared_ptr<ObjectiveTerm>> spatial;
    for (int k = 0; k < planes; ++k)
      spatial.push_back(std::make_shared<TotalSquaredVariation>(kN, kN));
    f.add(std::make_shared<PlaneWiseTerm>(spatial, kPixels), {0.3, 0, false, planes});
    f.add(std::make_shared<SpectralDifference>(kN, kN, planes, SpectralKind::TotalSquaredVariation),
          {2.0, 0, false, planes});
    QCOMPARE(f.dimension(), kPixels * planes);
    Random rng(5);
    const std::vector<double> x = rng.vector(kPixels * planes, 0.0, 1.0);
    // The value is the sum of the pieces computed by hand.
    TotalSquaredVariation tsv(kN, kN);
    SpectralDifference across(kN, kN, planes, SpectralKind::TotalSquaredVariation);
    double expected = 0.0;
    for (int k = 0; k < planes; ++k)
      expected += 0.3 * tsv.evaluate(x.data() + std::size_t(k) * kPixels, nullptr, 1.0);
    expected += 2.0 * across.evaluate(x.data(), nullptr, 1.0);
    std::vector<double> g(x.size());
    QVERIFY(std::fabs(f.evaluate(x.data(), g.data()) - expected) < 1e-12 * std::fabs(expected));
    QVERIFY(gradientError(f, x, 1e-6) < 1e-6);
    // A term cannot reach past the last plane.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             f.add(std::make_shared<L2Regularizer>(kN, kN), {1.0, 1, false, 3}));
  }

  void planeWiseProxActsOnEachPlane() {
    // L1's prox is soft thresholding: applied plane by plane it is the same everywhere.
    constexpr int planes = 2;
    std::vector<std::shared_ptr<ObjectiveTerm>> l1;
    for (int k = 0; k < planes; ++k)
      l1.push_back(std::make_shared<L1Regularizer>(kN, kN, 0.0));
    PlaneWiseTerm term(l1, kPixels);
    QVERIFY(term.hasProx());
    QVERIFY(term.isSeparable());
    QVERIFY(!term.isSmooth());
    Random rng(3);
    const std::vector<double> v = rng.vector(kPixels * planes, -1.0, 1.0);
    std::vector<double> out(v.size());
    term.prox(v.data(), 0.25, out.data());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double expected = std::copysign(std::max(0.0, std::fabs(v[i]) - 0.25), v[i]);
      QCOMPARE(out[i], expected);
    }
    double l1_sum = 0.0;
    for (double a : v)
      l1_sum += std::fabs(a);
    QVERIFY(std::fabs(term.proxValue(v.data()) - l1_sum) < 1e-12);
  }
};

QTEST_APPLESS_MAIN(TestSpectralRegularizers)
#include "test_spectral_regularizers.moc"
