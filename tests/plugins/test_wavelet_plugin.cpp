// The wavelet plugin's regularizer, loaded from the build tree like any plugin: the starlet
// transform (exact reconstruction, exact adjoint), the gradient against finite differences, the
// prox against its optimality condition, and masks.
#include <QtTest>
#include <cmath>
#include <memory>

#include "core/pipeline/regularizer_factory.h"
#include "core/plugin/plugin_regularizer.h"
#include "plugins/wavelet/starlet_transform.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura;
using namespace apertura::rml::test;

namespace {

constexpr int kNx = 24;
constexpr int kNy = 19;  // not square, not a power of two: borders and strides are exercised
constexpr std::size_t kPixels = std::size_t(kNx) * kNy;

std::shared_ptr<rml::Regularizer> wavelet(std::map<std::string, double> parameters) {
  project::RegularizerSettings s;
  s.type = "wavelet";
  s.lambda = 1.0;
  s.parameters = std::move(parameters);
  return pipeline::makeRegularizer(s, kNx, kNy, {}, 0);
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k)
    s += a[k] * b[k];
  return s;
}

// t R(x) + 1/2 |x - v|^2, the function the prox minimises.
double proxObjective(rml::Regularizer& r, const std::vector<double>& v, double t,
                     const std::vector<double>& x) {
  const double d = distance(x, v);
  return t * r.proxValue(x.data()) + 0.5 * d * d;
}

}  // namespace

class TestWaveletPlugin : public QObject {
  Q_OBJECT
 private slots:
  void starletReconstructsExactly() {
    Random rng(3);
    const std::vector<double> x = rng.vector(kPixels, -1.0, 1.0);
    for (int scales : {1, 3, 5}) {
      apertura_wavelet::StarletTransform st(kNx, kNy, scales);
      std::vector<double> c(st.coefficients()), back(kPixels);
      st.forward(x.data(), c.data());
      st.reconstruct(c.data(), back.data());
      QVERIFY2(distance(back, x) < 1e-13 * norm(x), qPrintable(QString::number(scales)));
      // The detail planes of a constant image vanish and its coarse plane is the constant.
      std::vector<double> flat(kPixels, 2.5);
      st.forward(flat.data(), c.data());
      for (std::size_t k = 0; k < c.size(); ++k) {
        const double expected = k >= std::size_t(scales) * kPixels ? 2.5 : 0.0;
        QVERIFY(std::abs(c[k] - expected) < 1e-13);
      }
    }
  }

  void starletAdjointIsTheTranspose() {
    Random rng(4);
    apertura_wavelet::StarletTransform st(kNx, kNy, 4);
    const std::vector<double> x = rng.vector(kPixels, -1.0, 1.0);
    const std::vector<double> y = rng.vector(st.coefficients(), -1.0, 1.0);
    std::vector<double> wx(st.coefficients()), wty(kPixels);
    st.forward(x.data(), wx.data());
    st.adjoint(y.data(), wty.data());
    // <W x, y> == <x, W^T y>
    QVERIFY2(std::abs(dot(wx, y) - dot(x, wty)) < 1e-12 * std::abs(dot(wx, y)),
             qPrintable(QString::number(dot(wx, y) - dot(x, wty))));
  }

  void gradientMatchesFiniteDifferences() {
    Random rng(5);
    for (double coarse : {0.0, 1.0}) {
      auto term = wavelet({{"scales", 3.0}, {"epsilon", 1e-2}, {"include_coarse", coarse}});
      QVERIFY(term->isSmooth());
      const std::vector<double> x = rng.vector(kPixels, -1.0, 1.0);
      const double err = gradientError(
          [&](const double* p, double* g) { return term->evaluate(p, g, 1.0); }, x, 1e-5);
      QVERIFY2(err < 1e-6, qPrintable(QString::number(err)));
    }
    // The value is the smoothed L1 of the detail coefficients: zero for a flat image.
    auto term = wavelet({});
    std::vector<double> flat(kPixels, 3.0);
    QVERIFY(std::abs(term->evaluate(flat.data(), nullptr, 1.0)) < 1e-9);
  }

  void proxSatisfiesOptimality() {
    Random rng(6);
    auto term = wavelet({{"scales", 3.0}, {"prox_iterations", 5000.0}});
    QVERIFY(term->hasProx());
    const std::vector<double> v = rng.vector(kPixels, -1.0, 1.0);
    const double t = 0.05;
    std::vector<double> x(kPixels);
    term->prox(v.data(), t, x.data());
    const double fx = proxObjective(*term, v, t, x);
    // The prox shrinks wavelet coefficients: R falls and x moves away from v.
    QVERIFY(term->proxValue(x.data()) < 0.9 * term->proxValue(v.data()));
    QVERIFY(distance(x, v) > 1e-3);
    // Optimality: no point nearby (any direction, several step sizes) does better.
    for (int trial = 0; trial < 200; ++trial) {
      const double size = std::pow(10.0, -1.0 - 3.0 * rng.uniform());
      std::vector<double> y = x;
      const std::vector<double> d = rng.vector(kPixels, -1.0, 1.0);
      for (std::size_t k = 0; k < kPixels; ++k)
        y[k] += size * d[k] / norm(d);
      const double fy = proxObjective(*term, v, t, y);
      QVERIFY2(fy >= fx - 1e-10,
               qPrintable(QString("trial %1: %2 < %3").arg(trial).arg(fy).arg(fx)));
    }
    // Variational inequality of the prox: <v - x, y - x> <= t (R(y) - R(x)) for every y.
    for (int trial = 0; trial < 50; ++trial) {
      const std::vector<double> y = rng.vector(kPixels, -1.0, 1.0);
      std::vector<double> vx(kPixels), yx(kPixels);
      for (std::size_t k = 0; k < kPixels; ++k) {
        vx[k] = v[k] - x[k];
        yx[k] = y[k] - x[k];
      }
      QVERIFY(dot(vx, yx) <= t * (term->proxValue(y.data()) - term->proxValue(x.data())) + 1e-8);
    }
    // A larger step shrinks more; a zero step is the identity.
    std::vector<double> x2(kPixels), x0(kPixels);
    term->prox(v.data(), 4 * t, x2.data());
    QVERIFY(term->proxValue(x2.data()) < term->proxValue(x.data()));
    term->prox(v.data(), 0.0, x0.data());
    QVERIFY(distance(x0, v) < 1e-12);
  }

  void maskRestrictsTheTerm() {
    // With a mask that is zero on the left half, an image that only varies there costs nothing.
    project::RegularizerSettings s;
    s.type = "wavelet";
    s.lambda = 1.0;
    s.use_mask = true;
    s.parameters = {{"epsilon", 0.0}, {"scales", 2.0}};  // support +-6 pixels
    std::vector<double> mask(kPixels, 0.0), image(kPixels, 0.0);
    for (int y = 0; y < kNy; ++y) {
      for (int x = 0; x < kNx; ++x)
        mask[std::size_t(y) * kNx + x] = x >= kNx / 2 ? 1.0 : 0.0;
    }
    auto masked = pipeline::makeRegularizer(s, kNx, kNy, mask, 0);
    auto plain = wavelet({{"epsilon", 0.0}, {"scales", 2.0}});
    image[std::size_t(kNy / 2) * kNx + kNx / 2] = 1.0;  // a spike in the masked-in half
    const double inside = masked->evaluate(image.data(), nullptr, 1.0);
    QVERIFY(inside > 0.1);
    QVERIFY(inside < plain->evaluate(image.data(), nullptr, 1.0));
    std::fill(image.begin(), image.end(), 0.0);
    image[std::size_t(kNy / 2) * kNx + 1] = 1.0;  // far into the masked-out half
    QVERIFY(masked->evaluate(image.data(), nullptr, 1.0) < 1e-3 * inside);
  }
};

QTEST_GUILESS_MAIN(TestWaveletPlugin)
#include "test_wavelet_plugin.moc"
