// ExactSum, the deterministic reduction's adder: the total of many arrays does not depend on the
// order of the additions nor on how the addends are split into groups (processes) that are summed
// first; it equals a long-double reference to the rounding of one double; values outside the
// agreed range are refused; the exponent agreement returns the largest exponent.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>

#include "core/data/exact_sum.h"

using namespace apertura;

namespace {

constexpr std::size_t kN = 257;

// Addends spanning 40 binary orders of magnitude, both signs, some exact cancellations.
std::vector<std::vector<double>> addends(std::size_t count) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 10);
  std::vector<std::vector<double>> out(count, std::vector<double>(kN));
  for (auto& a : out) {
    for (double& v : a)
      v = std::ldexp(mantissa(rng), exponent(rng));
  }
  out[1] = out[0];
  for (double& v : out[1])
    v = -v;
  return out;
}

int rangeOf(const std::vector<std::vector<double>>& all) {
  int e = ExactSum::kZero;
  for (const auto& a : all)
    e = std::max(e, ExactSum::exponentBound(a.data(), a.size()));
  return e;
}

// The total of `order` split into `groups` consecutive groups, each summed on its own and then
// combined through a SumOverProcesses that adds the groups' limb arrays in reverse order.
std::vector<double> groupedTotal(const std::vector<std::vector<double>>& all,
                                 const std::vector<std::size_t>& order, std::size_t groups) {
  const int e = rangeOf(all);
  std::vector<ExactSum> parts(groups, ExactSum(kN));
  for (auto& p : parts)
    p.setRange(e, all.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (!parts[k * groups / order.size()].add(all[order[k]].data()))
      return {};
  }
  // Collect every group's limbs, then hand each group the element-wise sum (reversed order).
  std::vector<std::vector<double>> limbs(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<double> ignored(kN);
    parts[g].reduce([&](double* v, std::size_t n) { limbs[g].assign(v, v + n); }, ignored.data());
  }
  std::vector<double> out(kN);
  parts[0].reduce(
      [&](double* v, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
          double s = 0.0;
          for (std::size_t g = groups; g-- > 0;)
            s += limbs[g][i];
          v[i] = s;
        }
      },
      out.data());
  return out;
}

}  // namespace

class TestExactSum : public QObject {
  Q_OBJECT
 private slots:
  void totalDoesNotDependOnOrderOrGrouping() {
    const auto all = addends(40);
    std::vector<std::size_t> order(all.size());
    std::iota(order.begin(), order.end(), 0);
    const std::vector<double> reference = groupedTotal(all, order, 1);
    QCOMPARE(reference.size(), kN);
    std::mt19937 rng(3);
    for (std::size_t groups : {1, 2, 3, 7}) {
      std::shuffle(order.begin(), order.end(), rng);
      const std::vector<double> total = groupedTotal(all, order, groups);
      QCOMPARE(total.size(), kN);
      QVERIFY2(std::memcmp(total.data(), reference.data(), kN * sizeof(double)) == 0,
               qPrintable(QString("%1 groups").arg(groups)));
    }
    // Plain double sums in two orders do differ (else this test would prove nothing).
    double forward = 0.0, backward = 0.0;
    for (std::size_t k = 2; k < all.size(); ++k)
      forward += all[k][5];
    for (std::size_t k = all.size(); k-- > 2;)
      backward += all[k][5];
    QVERIFY(forward != backward);
  }

  void totalIsTheRoundedExactSum() {
    const auto all = addends(40);
    std::vector<std::size_t> order(all.size());
    std::iota(order.begin(), order.end(), 0);
    const std::vector<double> total = groupedTotal(all, order, 3);
    for (std::size_t i = 0; i < kN; ++i) {
      long double exact = 0.0L;  // 64-bit mantissa: enough for these 40 addends' few carries
      for (const auto& a : all)
        exact += a[i];
      QVERIFY2(std::abs(double(exact) - total[i]) <= 1e-15 * std::abs(total[i]) + 1e-300,
               qPrintable(QString("element %1: %2 vs %3").arg(i).arg(double(exact)).arg(total[i])));
    }
    // The exact cancellation of the first two addends leaves no trace.
    const std::vector<std::vector<double>> pair(all.begin(), all.begin() + 2);
    const std::vector<double> zero = groupedTotal(pair, {0, 1}, 2);
    for (double v : zero)
      QCOMPARE(v, 0.0);
  }

  void refusesValuesOutsideTheRange() {
    ExactSum s(2);
    const double small[2] = {0.75, -0.5};
    QVERIFY(!s.add(small));  // no range yet
    s.setRange(0, 4);        // |v| < 1
    QVERIFY(s.add(small));
    const double big[2] = {1.0, 0.0};
    QVERIFY(!s.add(big));
    const double nan[2] = {std::nan(""), 0.0};
    QVERIFY(!s.add(nan));
    QCOMPARE(ExactSum::exponentBound(nan, 2), ExactSum::kNonFinite);
    QCOMPARE(ExactSum::exponentBound(big, 2), 1);
    QCOMPARE(ExactSum::exponentBound(small, 2), 0);
    double out[2];
    s.reduce(nullptr, out);
    QCOMPARE(out[0], 0.75);
    QCOMPARE(out[1], -0.5);
  }

  void agreesOnTheLargestExponent() {
    QCOMPARE(ExactSum::maxOverProcesses(5, nullptr), 5);
    // Three "processes" with exponents -3, 12 and kZero: the histogram sum names 12.
    const int mine[3] = {-3, 12, ExactSum::kZero};
    std::vector<std::vector<double>> histograms;
    for (int e : mine) {
      ExactSum::maxOverProcesses(
          e, [&](double* v, std::size_t n) { histograms.emplace_back(v, v + n); });
    }
    const int agreed = ExactSum::maxOverProcesses(-3, [&](double* v, std::size_t n) {
      for (std::size_t i = 0; i < n; ++i)
        v[i] = histograms[0][i] + histograms[1][i] + histograms[2][i];
    });
    QCOMPARE(agreed, 12);
  }
};

QTEST_APPLESS_MAIN(TestExactSum)
#include "test_exact_sum.moc"
