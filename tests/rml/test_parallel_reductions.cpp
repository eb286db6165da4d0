// The blocked parallel loops of the RML solvers and regularizers (core/rml/detail/parallel_sum.h):
// dot products and norms as accurate as a long-double reference and summed by the documented
// block convention; the TSV fused pass as the separate finite-difference passes; and dot products,
// TSV and L1 values and gradients and whole L-BFGS runs bitwise identical on one thread and on
// four.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <utility>

#include "core/rml/detail/parallel_sum.h"
#include "core/rml/detail/vector_math.h"
#include "core/rml/finite_differences.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/lbfgs.h"
#include "core/rml/pixel_regularizers.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura::rml;
using detail::kParallelBlock;

namespace {

constexpr int kNx = 700;
constexpr int kNy = 500;

bool bitwiseEqual(const Vector& a, const Vector& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}
bool bitwiseEqual(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

// Runs `work` on exactly one thread, then in an arena of four, and returns both results.
template <typename R>
std::pair<R, R> onOneAndFourThreads(const std::function<R()>& work) {
  R one, four;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = work();
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 4);
    tbb::task_arena arena(4);
    four = arena.execute([&] {
      if (tbb::this_task_arena::max_concurrency() != 4)
        qFatal("the arena does not allow four threads");
      return work();
    });
  }
  return {std::move(one), std::move(four)};
}

// The documented convention, written out serially: each block of kParallelBlock elements summed
// in index order from 0, then the block sums added in block order from the first block's.
double blockedReferenceDot(const Vector& a, const Vector& b) {
  double total = 0.0;
  for (std::size_t begin = 0; begin < a.size(); begin += kParallelBlock) {
    double s = 0.0;
    for (std::size_t i = begin; i < std::min(a.size(), begin + kParallelBlock); ++i)
      s += a[i] * b[i];
    total = begin == 0 ? s : total + s;
  }
  return total;
}

// f(x) = 1/2 sum_i w_i (x_i - b_i)^2 + lambda TSV(x): smooth, coupled, and with b partly negative
// so that positivity holds pixels at the bound.
class LeastSquaresTsv final : public DifferentiableFunction {
 public:
  LeastSquaresTsv(int nx, int ny, std::uint64_t seed) : tsv_(nx, ny) {
    test::Random rng(seed);
    const std::size_t n = std::size_t(nx) * std::size_t(ny);
    w_.resize(n);
    b_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      w_[i] = std::pow(10.0, rng.uniform(-2.0, 0.0));
      b_[i] = rng.uniform(-0.5, 1.0);
    }
  }
  std::size_t dimension() const override { return w_.size(); }
  double evaluate(const double* x, double* g) override {
    double f = 0.0;
    for (std::size_t i = 0; i < w_.size(); ++i) {
      const double r = x[i] - b_[i];
      f += 0.5 * w_[i] * r * r;
      if (g != nullptr)
        g[i] = w_[i] * r;
    }
    return f + kLambda * tsv_.evaluate(x, g, kLambda);
  }

 private:
  static constexpr double kLambda = 0.3;
  TotalSquaredVariation tsv_;
  Vector w_, b_;
};

}  // namespace

class TestParallelReductions : public QObject {
  Q_OBJECT

 private slots:
  void dotAndNormMatchLongDouble_data() {
    QTest::addColumn<qulonglong>("n");
    QTest::newRow("below one block") << qulonglong(1000);
    QTest::newRow("four blocks") << qulonglong(4 * kParallelBlock);
    QTest::newRow("non-multiple") << qulonglong(1000003);
  }
  void dotAndNormMatchLongDouble() {
    QFETCH(qulonglong, n);
    test::Random rng(11);
    const Vector a = rng.vector(n, -1.0, 1.0);
    const Vector b = rng.vector(n, 0.0, 2.0);
    long double dot_ref = 0.0L, abs_ref = 0.0L, norm2_ref = 0.0L;
    for (std::size_t i = 0; i < n; ++i) {
      dot_ref += (long double)(a[i]) * (long double)(b[i]);
      abs_ref += std::fabs((long double)(a[i]) * (long double)(b[i]));
      norm2_ref += (long double)(a[i]) * (long double)(a[i]);
    }
    const double dot = detail::dot(a, b);
    const double norm = detail::norm(a);
    // Relative to sum |a_i b_i| (the dot product itself may cancel). Recursive summation of k
    // terms has a typical relative error of about eps sqrt(k) / 6, 5e-15 for a full block of 2^16
    // (the serial sum over the whole vector, as before blocking, is worse still); hence 1e-14.
    const double dot_error = double(std::fabs((long double)(dot)-dot_ref) / abs_ref);
    const double norm_error =
        double(std::fabs((long double)(norm)-std::sqrt(norm2_ref)) / std::sqrt(norm2_ref));
    qInfo("n = %llu: dot error %.3g, norm error %.3g", n, dot_error, norm_error);
    QVERIFY2(dot_error < 1e-14, qPrintable(QString("dot error %1").arg(dot_error)));
    QVERIFY2(norm_error < 1e-14, qPrintable(QString("norm error %1").arg(norm_error)));
    // And exactly the documented summation order.
    QVERIFY(bitwiseEqual(dot, blockedReferenceDot(a, b)));
    QVERIFY(bitwiseEqual(norm, std::sqrt(blockedReferenceDot(a, a))));
  }

  void blockedSumsCoverEveryElementOnce() {
    for (std::size_t n : {std::size_t(0), std::size_t(1), kParallelBlock, kParallelBlock + 1,
                          3 * kParallelBlock + 17}) {
      std::vector<int> visits(n, 0);
      const auto sums = detail::blockedSums<2>(
          n, [&](std::size_t begin, std::size_t end, std::array<double, 2>& acc) {
            for (std::size_t i = begin; i < end; ++i) {
              ++visits[i];
              acc[0] += 1.0;
              acc[1] += double(i);
            }
          });
      QCOMPARE(sums[0], double(n));
      QCOMPARE(sums[1], n > 0 ? double(n) * double(n - 1) / 2.0 : 0.0);
      QVERIFY(std::all_of(visits.begin(), visits.end(), [](int v) { return v == 1; }));
      std::fill(visits.begin(), visits.end(), 0);
      detail::parallelFor(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
          ++visits[i];
      });
      QVERIFY(std::all_of(visits.begin(), visits.end(), [](int v) { return v == 1; }));
    }
  }

  void dotIsThreadCountIndependent() {
    test::Random rng(3);
    const Vector a = rng.vector(1000003, -1.0, 1.0);
    const Vector b = rng.vector(1000003, -1.0, 1.0);
    const auto [one, four] =
        onOneAndFourThreads<double>([&] { return detail::dot(a, b) + detail::norm(b); });
    QVERIFY(bitwiseEqual(one, four));
  }

  // The fused TSV pass: every gradient element bitwise as forwardDifferences then
  // addDifferenceAdjoint give it, the value as their blockwise sum; with and without a mask.
  void tsvMatchesSeparatePasses() {
    const std::size_t n = std::size_t(kNx) * kNy;
    test::Random rng(5);
    const Vector image = rng.vector(n, -1.0, 1.0);
    const Vector start = rng.vector(n, -1.0, 1.0);
    for (bool masked : {false, true}) {
      TotalSquaredVariation tsv(kNx, kNy);
      Vector mask;
      if (masked) {
        mask = rng.vector(n, 0.0, 1.0);
        for (std::size_t p = 0; p < n; p += 7)
          mask[p] = 0.0;
        tsv.setMask(mask);
      }
      const double scale = 0.7;
      Vector g = start;
      const double value = tsv.evaluate(image.data(), g.data(), scale);

      Vector dx(n), dy(n), q(n), g_ref = start;
      forwardDifferences(image.data(), kNx, kNy, dx.data(), dy.data());
      for (std::size_t p = 0; p < n; ++p) {
        const double m = masked ? mask[p] : 1.0;
        q[p] = m * (dx[p] * dx[p] + dy[p] * dy[p]);
        dx[p] *= 2.0 * m;
        dy[p] *= 2.0 * m;
      }
      addDifferenceAdjoint(dx.data(), dy.data(), kNx, kNy, scale, g_ref.data());
      QVERIFY(bitwiseEqual(g, g_ref));
      QVERIFY(bitwiseEqual(value, blockedReferenceDot(q, Vector(n, 1.0))));
      QVERIFY(bitwiseEqual(tsv.evaluate(image.data(), nullptr, scale), value));
    }
  }

  void regularizersAreThreadCountIndependent() {
    const std::size_t n = std::size_t(kNx) * kNy;
    test::Random rng(9);
    const Vector image = rng.vector(n, -1.0, 1.0);
    const Vector start = rng.vector(n, -1.0, 1.0);
    // Value then gradient, in one vector.
    auto run = [&](ObjectiveTerm& term) {
      return onOneAndFourThreads<Vector>([&] {
        Vector g = start;
        g.push_back(term.evaluate(image.data(), g.data(), 0.7));
        return g;
      });
    };
    TotalSquaredVariation tsv(kNx, kNy);
    L1Regularizer l1_smooth(kNx, kNy, 1e-6);
    L1Regularizer l1(kNx, kNy);
    const std::vector<ObjectiveTerm*> terms = {&tsv, &l1_smooth, &l1};
    for (ObjectiveTerm* term : terms) {
      const auto [one, four] = run(*term);
      QVERIFY2(bitwiseEqual(one, four), term->name().c_str());
    }
  }

  void lbfgsIsThreadCountIndependent_data() {
    QTest::addColumn<bool>("positivity");
    QTest::addColumn<bool>("float_history");
    QTest::newRow("unconstrained") << false << false;
    QTest::newRow("positivity") << true << false;
    QTest::newRow("positivity, float pairs") << true << true;
  }
  void lbfgsIsThreadCountIndependent() {
    QFETCH(bool, positivity);
    QFETCH(bool, float_history);
    LbfgsSettings settings;
    settings.positivity = positivity;
    settings.float_history = float_history;
    settings.stop.max_iterations = 15;
    settings.stop.relative_tolerance = 0.0;
    auto run = [&] {
      LeastSquaresTsv f(kNx, kNy, 17);
      return minimizeLbfgs(f, Vector(f.dimension(), 0.1), settings);
    };
    const auto [one, four] = onOneAndFourThreads<OptimizerResult>(run);
    QCOMPARE(one.iterations, 15);
    QCOMPARE(four.iterations, 15);
    QCOMPARE(one.evaluations, four.evaluations);
    QVERIFY(bitwiseEqual(one.objective, four.objective));
    QVERIFY(bitwiseEqual(one.x, four.x));
    if (positivity)
      QVERIFY(*std::min_element(one.x.begin(), one.x.end()) == 0.0);  // pixels held at 0
  }
};

QTEST_GUILESS_MAIN(TestParallelReductions)
#include "test_parallel_reductions.moc"
