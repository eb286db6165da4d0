// The VectorSpace passes of the total-variation prox's dual iteration (primalFromDual, dualStep:
// core/compute/dual_math.h through HostVectorSpace) against rml::forwardDifferences and
// addDifferenceAdjoint with the projections written out here; and the resident proxes of the
// difference regularizers (TV, Huber, TSV, Laplacian; proxIn, proxNonNegativeIn, proxValueIn)
// against the classes' prox(), proxNonNegative() and proxValue(), bit for bit, on odd and
// degenerate shapes with masks that have zeros; that the dual proxes keep their work vectors
// in a space between calls; and the errors for bad arguments.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/rml/finite_differences.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/host_vector_space.h"
#include "tests/rml/rml_test_support.h"
#include "tests/rml/space_test_support.h"

using namespace apertura;
using namespace apertura::rml;
using namespace apertura::rml::test;

namespace {

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// dualStep written out on host arrays: the projected step from r at x, then the extrapolation.
struct DualReference {
  std::vector<double> qx, qy, rx, ry;
  double change = 0.0, norm = 0.0;
};
DualReference dualReference(const compute::VectorSpace::DualStepArgs& a,
                            const std::vector<double>& x, const std::vector<double>& mask,
                            DualReference in) {
  const std::size_t n = x.size();
  std::vector<double> dx(n), dy(n);
  forwardDifferences(x.data(), a.nx, a.ny, dx.data(), dy.data());
  for (std::size_t p = 0; p < n; ++p) {
    const double m = mask.empty() ? 1.0 : mask[p];
    const double h = (a.huber_delta > 0.0 && m > 0.0) ? a.step * a.huber_delta / m : 0.0;
    double nqx = in.rx[p] + (a.step * dx[p] - h * in.rx[p]) / a.lipschitz;
    double nqy = in.ry[p] + (a.step * dy[p] - h * in.ry[p]) / a.lipschitz;
    if (a.isotropic) {
      const double r = std::hypot(nqx, nqy);
      if (r > m) {
        nqx *= r > 0.0 ? m / r : 0.0;
        nqy *= r > 0.0 ? m / r : 0.0;
      }
    } else {
      nqx = std::clamp(nqx, -m, m);
      nqy = std::clamp(nqy, -m, m);
    }
    const double ddx = nqx - in.qx[p], ddy = nqy - in.qy[p];
    in.change += ddx * ddx + ddy * ddy;
    in.norm += nqx * nqx + nqy * nqy;
    in.rx[p] = nqx + a.momentum * ddx;
    in.ry[p] = nqy + a.momentum * ddy;
    in.qx[p] = nqx;
    in.qy[p] = nqy;
  }
  return in;
}

enum class Kind { TvIsotropic, TvAnisotropic, Huber, Tsv, Laplacian };

std::unique_ptr<Regularizer> makeRegularizer(Kind kind, int nx, int ny) {
  switch (kind) {
    case Kind::TvIsotropic:
      return std::make_unique<TotalVariation>(nx, ny, TvKind::Isotropic, 0.01);
    case Kind::TvAnisotropic:
      return std::make_unique<TotalVariation>(nx, ny, TvKind::Anisotropic);
    case Kind::Huber:
      return std::make_unique<HuberRegularizer>(nx, ny, 0.2);
    case Kind::Tsv:
      return std::make_unique<TotalSquaredVariation>(nx, ny);
    case Kind::Laplacian:
      return std::make_unique<LaplacianRegularizer>(nx, ny);
  }
  return nullptr;
}

}  // namespace

class TestSpaceDualProxes : public QObject {
  Q_OBJECT
 private slots:
  void primalFromDualIsTheDifferenceAdjoint() {
    Random rng(31);
    for (const Shape& s : kShapes) {
      const std::size_t n = std::size_t(s.nx) * std::size_t(s.ny);
      const std::vector<double> v = rng.vector(n, -1.0, 1.0);
      const std::vector<double> qx = rng.vector(n, -2.0, 2.0), qy = rng.vector(n, -2.0, 2.0);
      const double step = 0.37;
      std::vector<double> expected = v;
      addDifferenceAdjoint(qx.data(), qy.data(), s.nx, s.ny, -step, expected.data());
      HostVectorSpace space;
      auto vv = uploaded(space, v), qxv = uploaded(space, qx), qyv = uploaded(space, qy);
      auto out = space.create(n);
      space.primalFromDual(s.nx, s.ny, *vv, *qxv, *qyv, step, false, *out);
      QVERIFY(sameBits(HostVectorSpace::of(*out), expected));
      space.primalFromDual(s.nx, s.ny, *vv, *qxv, *qyv, step, true, *out);
      for (double& e : expected)
        e = e > 0.0 ? e : 0.0;
      QVERIFY(sameBits(HostVectorSpace::of(*out), expected));
      space.primalFromDual(s.nx, s.ny, *vv, *qxv, *qyv, step, false, *vv);  // in place on v
      std::vector<double> again = v;
      addDifferenceAdjoint(qx.data(), qy.data(), s.nx, s.ny, -step, again.data());
      QVERIFY(sameBits(HostVectorSpace::of(*vv), again));
    }
  }

  void dualStepProjectsAndExtrapolates_data() {
    QTest::addColumn<bool>("isotropic");
    QTest::addColumn<double>("huber_delta");
    QTest::addColumn<bool>("masked");
    QTest::newRow("isotropic") << true << 0.0 << false;
    QTest::newRow("isotropic masked") << true << 0.0 << true;
    QTest::newRow("anisotropic masked") << false << 0.0 << true;
    QTest::newRow("huber masked") << true << 0.3 << true;
  }
  void dualStepProjectsAndExtrapolates() {
    QFETCH(bool, isotropic);
    QFETCH(double, huber_delta);
    QFETCH(bool, masked);
    Random rng(32);
    for (const Shape& s : kShapes) {
      const std::size_t n = std::size_t(s.nx) * std::size_t(s.ny);
      const std::vector<double> mask = masked ? randomMask(n, rng) : std::vector<double>{};
      const std::vector<double> x = rng.vector(n, -3.0, 3.0);
      DualReference in{rng.vector(n, -1.0, 1.0), rng.vector(n, -1.0, 1.0), rng.vector(n, -1.5, 1.5),
                       rng.vector(n, -1.5, 1.5)};
      HostVectorSpace space;
      auto maskv = uploaded(space, mask);
      compute::VectorSpace::DualStepArgs a;
      a.nx = s.nx;
      a.ny = s.ny;
      a.mask = masked ? maskv.get() : nullptr;
      a.isotropic = isotropic;
      a.step = 0.8;
      a.lipschitz = 8.0 * a.step * a.step + 0.1;
      a.huber_delta = huber_delta;
      a.momentum = 0.35;
      auto xv = uploaded(space, x);
      auto qx = uploaded(space, in.qx), qy = uploaded(space, in.qy);
      auto rx = uploaded(space, in.rx), ry = uploaded(space, in.ry);
      const auto sums = space.dualStep(a, *xv, *qx, *qy, *rx, *ry);
      const DualReference expected = dualReference(a, x, mask, in);
      QVERIFY(sameBits(HostVectorSpace::of(*qx), expected.qx));
      QVERIFY(sameBits(HostVectorSpace::of(*qy), expected.qy));
      QVERIFY(sameBits(HostVectorSpace::of(*rx), expected.rx));
      QVERIFY(sameBits(HostVectorSpace::of(*ry), expected.ry));
      QVERIFY(close(sums.change, expected.change, 0.0));
      QVERIFY(close(sums.norm, expected.norm, 0.0));
      // The projection holds: |q_p| <= m_p (each component for the box).
      for (std::size_t p = 0; p < n; ++p) {
        const double m = masked ? mask[p] : 1.0;
        const double qxp = HostVectorSpace::of(*qx)[p], qyp = HostVectorSpace::of(*qy)[p];
        if (isotropic)
          QVERIFY(std::hypot(qxp, qyp) <= m * (1.0 + 1e-15));
        else
          QVERIFY(std::abs(qxp) <= m && std::abs(qyp) <= m);
      }
    }
  }

  void residentProxesGiveTheClassesBits_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("masked");
    QTest::addColumn<bool>("nonnegative");
    QTest::newRow("tv") << int(Kind::TvIsotropic) << false << false;
    QTest::newRow("tv masked") << int(Kind::TvIsotropic) << true << false;
    QTest::newRow("tv masked >= 0") << int(Kind::TvIsotropic) << true << true;
    QTest::newRow("tv_aniso masked") << int(Kind::TvAnisotropic) << true << false;
    QTest::newRow("tv_aniso >= 0") << int(Kind::TvAnisotropic) << false << true;
    QTest::newRow("huber masked") << int(Kind::Huber) << true << false;
    QTest::newRow("huber masked >= 0") << int(Kind::Huber) << true << true;
    QTest::newRow("tsv") << int(Kind::Tsv) << false << false;
    QTest::newRow("tsv masked") << int(Kind::Tsv) << true << false;
    QTest::newRow("laplacian masked") << int(Kind::Laplacian) << true << false;
  }
  void residentProxesGiveTheClassesBits() {
    QFETCH(int, kind);
    QFETCH(bool, masked);
    QFETCH(bool, nonnegative);
    Random rng(33);
    for (const Shape& s : kShapes) {
      const std::size_t n = std::size_t(s.nx) * std::size_t(s.ny);
      auto reg = makeRegularizer(Kind(kind), s.nx, s.ny);
      if (masked)
        reg->setMask(randomMask(n, rng));
      QVERIFY(reg->hasProx());
      HostVectorSpace space;
      QVERIFY(reg->residentProx(space));
      QCOMPARE(reg->hasNonNegativeProx(), kind <= int(Kind::Huber));
      const std::vector<double> v = rng.vector(n, -1.0, 2.0);
      for (double step : {0.0, 0.05, 1.7}) {
        std::vector<double> expected(n, 7.0);
        auto vv = uploaded(space, v);
        auto out = uploaded(space, std::vector<double>(n, 7.0));
        if (nonnegative) {
          reg->proxNonNegative(v.data(), step, expected.data());
          reg->proxNonNegativeIn(space, *vv, step, *out);
          QVERIFY(*std::min_element(expected.begin(), expected.end()) >= 0.0);
        } else {
          reg->prox(v.data(), step, expected.data());
          reg->proxIn(space, *vv, step, *out);
        }
        QVERIFY2(sameBits(HostVectorSpace::of(*out), expected),
                 qPrintable(QString("%1x%2 step %3").arg(s.nx).arg(s.ny).arg(step)));
        if (!nonnegative) {  // in place: out is v
          reg->proxIn(space, *vv, step, *vv);
          QVERIFY(sameBits(HostVectorSpace::of(*vv), expected));
        }
        QVERIFY(close(reg->proxValueIn(space, *out), reg->proxValue(expected.data()), 1.0));
      }
      reg->releaseResident();
    }
  }

  // A FISTA run calls the prox at every backtracking step: in a space (a GPU's memory) the dual
  // prox keeps its work vectors instead of allocating them per call, until releaseResident().
  void dualProxesKeepTheirWorkVectors() {
    Random rng(5);
    const int nx = 9, ny = 7;
    const std::size_t n = std::size_t(nx) * ny;
    HostVectorSpace space;
    HuberRegularizer huber(nx, ny, 0.2);
    auto v = uploaded(space, rng.vector(n, -1.0, 2.0));
    auto out = space.create(n);
    const std::size_t before = space.bytesHeld();
    const std::size_t kept = before + kTvProxWorkVectors * n * sizeof(double);
    huber.proxIn(space, *v, 0.3, *out);
    QCOMPARE(space.bytesHeld(), kept);
    huber.proxNonNegativeIn(space, *v, 0.3, *out);
    huber.proxIn(space, *v, 0.7, *v);
    QCOMPARE(space.bytesHeld(), kept);
    huber.releaseResident();
    QCOMPARE(space.bytesHeld(), before);
    QVERIFY_THROWS_EXCEPTION(std::logic_error,
                             proxTotalVariationIn(space, TvProxImage{nx, ny, nullptr, 1.0}, *v, 0.3,
                                                  TvProxSettings{}, {out.get()}, *out));
  }

  void dualPassesRejectInvalidArguments() {
    HostVectorSpace space;
    auto v = space.create(12), out = space.create(12), qx = space.create(12), qy = space.create(12),
         rx = space.create(12), ry = space.create(12);
    auto short_v = space.create(11);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.primalFromDual(4, 3, *short_v, *qx, *qy, 1.0, false, *out));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.primalFromDual(4, 3, *v, *qx, *qy, 1.0, false, *short_v));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.primalFromDual(4, 3, *v, *qx, *qy, 1.0, false, *qx));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             space.primalFromDual(0, 3, *v, *qx, *qy, 1.0, false, *out));
    compute::VectorSpace::DualStepArgs a;
    a.nx = 4;
    a.ny = 3;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, space.dualStep(a, *v, *qx, *qy, *rx, *v));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, space.dualStep(a, *v, *qx, *qy, *rx, *short_v));
    a.mask = short_v.get();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, space.dualStep(a, *v, *qx, *qy, *rx, *ry));
  }
};

QTEST_GUILESS_MAIN(TestSpaceDualProxes)
#include "test_space_dual_proxes.moc"
