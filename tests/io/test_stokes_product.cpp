// Forming the imaged product from correlations: plans chosen by correlation type (never by
// position), the Stokes formulas for linear and circular feeds, inverse-variance weights, the
// one-hand policy and the samples that must count as flagged. Expected values are analytic.
#include <QtTest>
#include <cmath>
#include <limits>

#include "core/io/stokes_product.h"

using namespace apertura;
using C = Correlation;
using cf = std::complex<float>;

namespace {

// One row, one channel, correlations as given.
RawVisibilityBlock oneSample(const std::vector<cf>& v, const std::vector<float>& w,
                             const std::vector<unsigned char>& flag = {}) {
  RawVisibilityBlock b;
  b.resize(1, 1, v.size());
  for (std::size_t k = 0; k < v.size(); ++k) {
    b.vis[k] = v[k];
    b.weight[k] = w[k];
    b.flag[k] = flag.empty() ? 0 : flag[k];
  }
  return b;
}

struct Out {
  cf v;
  float w;
  ProductCounts counts;
};

Out form(Product p, const std::vector<C>& corrs, const RawVisibilityBlock& b,
         SingleHandPolicy policy = SingleHandPolicy::kDrop) {
  const auto plan = planProduct(p, corrs, policy);
  if (!plan)
    throw std::runtime_error("no plan");
  Out o;
  formProduct(b, *plan, 0, 1, &o.v, &o.w, o.counts);
  return o;
}

}  // namespace

class TestStokesProduct : public QObject {
  Q_OBJECT
 private slots:
  void stokesIFromLinearFeedsInAnyOrder() {
    // XX = 3 + i, YY = 1 - i with weights 2 and 6: I = 2 + 0i, w = 4 / (1/2 + 1/6) = 6.
    const auto a = form(Product::I, {C::XX, C::YY}, oneSample({{3, 1}, {1, -1}}, {2, 6}));
    QCOMPARE(a.v, cf(2, 0));
    QCOMPARE(a.w, 6.0f);
    // Same data in the order YY XY YX XX (as some files have): the same answer.
    const auto b = form(Product::I, {C::YY, C::XY, C::YX, C::XX},
                        oneSample({{1, -1}, {9, 9}, {9, 9}, {3, 1}}, {6, 1, 1, 2}));
    QCOMPARE(b.v, cf(2, 0));
    QCOMPARE(b.w, 6.0f);
  }

  void polarizationFormulas() {
    // Linear: XX = I + Q, YY = I - Q, XY = U + iV, YX = U - iV with I=5, Q=1, U=2, V=3.
    const std::vector<C> lin = {C::XX, C::XY, C::YX, C::YY};
    const auto lb = oneSample({{6, 0}, {2, 3}, {2, -3}, {4, 0}}, {1, 1, 1, 1});
    QCOMPARE(form(Product::Q, lin, lb).v, cf(1, 0));
    QCOMPARE(form(Product::U, lin, lb).v, cf(2, 0));
    QCOMPARE(form(Product::V, lin, lb).v, cf(3, 0));
    QCOMPARE(form(Product::I, lin, lb).v, cf(5, 0));
    // Circular: RR = I + V, LL = I - V, RL = Q + iU, LR = Q - iU.
    const std::vector<C> circ = {C::RR, C::RL, C::LR, C::LL};
    const auto cb = oneSample({{8, 0}, {1, 2}, {1, -2}, {2, 0}}, {1, 1, 1, 1});
    QCOMPARE(form(Product::I, circ, cb).v, cf(5, 0));
    QCOMPARE(form(Product::V, circ, cb).v, cf(3, 0));
    QCOMPARE(form(Product::Q, circ, cb).v, cf(1, 0));
    QCOMPARE(form(Product::U, circ, cb).v, cf(2, 0));
    QCOMPARE(form(Product::LR, circ, cb).v, cf(1, -2));
    // Stokes stored directly is taken as is.
    QCOMPARE(form(Product::I, {C::I}, oneSample({{7, 1}}, {3})).v, cf(7, 1));
  }

  void impossibleProductsHaveNoPlan() {
    QVERIFY(!planProduct(Product::Q, {C::RR, C::LL}, SingleHandPolicy::kDrop));
    QVERIFY(!planProduct(Product::RR, {C::XX, C::YY}, SingleHandPolicy::kDrop));
    QVERIFY(!planProduct(Product::I, {C::XX}, SingleHandPolicy::kDrop));
    QVERIFY(planProduct(Product::XX, {C::XX}, SingleHandPolicy::kDrop));
  }

  void oneHandPolicy() {
    // YY flagged: dropped by default; with kUseAvailable, XX alone with its own weight.
    const auto b = oneSample({{3, 1}, {1, -1}}, {2, 6}, {0, 1});
    const auto dropped = form(Product::I, {C::XX, C::YY}, b);
    QCOMPARE(dropped.w, 0.0f);
    QCOMPARE(dropped.v, cf(0, 0));
    QCOMPARE(dropped.counts.unflagged, std::uint64_t(0));
    const auto single = form(Product::I, {C::XX, C::YY}, b, SingleHandPolicy::kUseAvailable);
    QCOMPARE(single.v, cf(3, 1));
    QCOMPARE(single.w, 2.0f);
    QCOMPARE(single.counts.single_hand, std::uint64_t(1));
    // Q never uses one hand.
    const auto q = form(Product::Q, {C::XX, C::YY}, b, SingleHandPolicy::kUseAvailable);
    QCOMPARE(q.w, 0.0f);
  }

  void zeroNanInfAndNonPositiveWeightsAreFlagged() {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    // RL exactly 0 with positive weight (EHT): flagged for RL and counted.
    const auto zero = form(Product::RL, {C::RR, C::LL, C::RL, C::LR},
                           oneSample({{1, 0}, {1, 0}, {0, 0}, {0, 0}}, {1, 1, 5, 5}));
    QCOMPARE(zero.w, 0.0f);
    QCOMPARE(zero.counts.zero_with_weight, std::uint64_t(1));
    const auto nanv = form(Product::I, {C::RR, C::LL}, oneSample({{nan, 0}, {1, 0}}, {1, 1}));
    QCOMPARE(nanv.w, 0.0f);
    QCOMPARE(nanv.v, cf(0, 0));
    QCOMPARE(nanv.counts.non_finite, std::uint64_t(1));
    const auto infw = form(Product::I, {C::RR, C::LL}, oneSample({{1, 0}, {1, 0}}, {inf, 1}));
    QCOMPARE(infw.w, 0.0f);
    QCOMPARE(infw.counts.non_finite, std::uint64_t(1));
    // NaN on a flagged sample is not news: not counted.
    const auto flagged_nan =
        form(Product::I, {C::RR, C::LL}, oneSample({{nan, 0}, {1, 0}}, {1, 1}, {1, 0}));
    QCOMPARE(flagged_nan.counts.non_finite, std::uint64_t(0));
    const auto negative = form(Product::XX, {C::XX, C::YY}, oneSample({{1, 0}, {1, 0}}, {-1, 1}));
    QCOMPARE(negative.w, 0.0f);
    QCOMPARE(negative.counts.samples, std::uint64_t(1));
  }

  void channelWindowAndLayout() {
    // 2 rows x 3 channels x 2 corr; take channels 1..2. Value = 10 r + c on XX, 0 on YY.
    RawVisibilityBlock b;
    b.resize(2, 3, 2);
    for (std::size_t r = 0; r < 2; ++r) {
      for (std::size_t c = 0; c < 3; ++c) {
        b.vis[b.index(r, c, 0)] = cf(static_cast<float>(10 * r + c), 0);
        b.vis[b.index(r, c, 1)] = cf(-1, 0);
        b.weight[b.index(r, c, 0)] = 1;
        b.weight[b.index(r, c, 1)] = 1;
      }
    }
    const auto plan = planProduct(Product::XX, {C::XX, C::YY}, SingleHandPolicy::kDrop);
    cf v[4];
    float w[4];
    ProductCounts counts;
    formProduct(b, *plan, 1, 2, v, w, counts);
    QCOMPARE(v[0], cf(1, 0));
    QCOMPARE(v[1], cf(2, 0));
    QCOMPARE(v[2], cf(11, 0));
    QCOMPARE(v[3], cf(12, 0));
    QCOMPARE(counts.samples, std::uint64_t(4));
  }

  void warningsNameTheCounts() {
    ProductCounts c;
    c.samples = 10;
    c.non_finite = 3;
    const auto w = describeCounts("x.ms", c);
    QVERIFY(!w.empty());
    QVERIFY2(QString::fromStdString(w[0]).contains("x.ms: 3 correlation samples with NaN"),
             w[0].c_str());
    QVERIFY2(QString::fromStdString(w.back()).contains("all 10 selected visibilities are flagged"),
             w.back().c_str());
  }
};

QTEST_GUILESS_MAIN(TestStokesProduct)
#include "test_stokes_product.moc"
