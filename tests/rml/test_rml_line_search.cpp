// Line searches on 1-D functions with known minimisers: each result satisfies the conditions of
// its search (sufficient decrease, strong Wolfe, or the minimum to tolerance for Brent).
#include <QtTest>
#include <cmath>
#include <limits>

#include "core/rml/line_search.h"

using namespace apertura::rml;

namespace {

struct TestFunction {
  const char* name;
  LineFunction phi;
  double minimiser;  // of phi on alpha > 0
};

std::vector<TestFunction> functions() {
  return {
      {"quadratic (a-3)^2",
       [](double a, double* d) {
         if (d)
           *d = 2.0 * (a - 3.0);
         return (a - 3.0) * (a - 3.0);
       },
       3.0},
      // More & Thuente's first test: -a / (a^2 + beta), minimum at sqrt(beta).
      {"-a/(a^2+2)",
       [](double a, double* d) {
         const double q = a * a + 2.0;
         if (d)
           *d = (a * a - 2.0) / (q * q);
         return -a / q;
       },
       std::sqrt(2.0)},
      // More & Thuente's second test: (a + 0.004)^5 - 2 (a + 0.004)^4, minimum at 1.596.
      {"(a+c)^5-2(a+c)^4",
       [](double a, double* d) {
         const double b = a + 0.004;
         if (d)
           *d = 5.0 * std::pow(b, 4) - 8.0 * std::pow(b, 3);
         return std::pow(b, 5) - 2.0 * std::pow(b, 4);
       },
       1.6 - 0.004},
      // A barrier: +infinity beyond a = 1 (like entropy at negative pixels); minimum at 0.5.
      {"-ln(1-a)-2a",
       [](double a, double* d) {
         if (a >= 1.0) {
           if (d)
             *d = std::numeric_limits<double>::infinity();
           return std::numeric_limits<double>::infinity();
         }
         if (d)
           *d = 1.0 / (1.0 - a) - 2.0;
         return -std::log(1.0 - a) - 2.0 * a;
       },
       0.5},
  };
}

}  // namespace

class TestRmlLineSearch : public QObject {
  Q_OBJECT
 private slots:
  void projectedBacktrackFindsTheParabolasVertex() {
    // phi(t) = 10 - 4 t + 50 t^2 (minimum at t = 0.04), tried at a = 1 (decrease -4, value 56):
    // the vertex rounded to a power of two, 1/32 (log2 25 = 4.6).
    QCOMPARE(projectedBacktrack(1.0, 10.0, 56.0, -4.0), 1.0 / 32.0);
    // Kept within [a / 128, a / 2]: a trial 1000 times too long gives a / 128, one barely too
    // long a / 2.
    const auto phi = [](double t) { return 10.0 - 4.0 * t + 50.0 * t * t; };
    QCOMPARE(projectedBacktrack(40.0, 10.0, phi(40.0), -4.0 * 40.0), 40.0 / 128.0);
    QCOMPARE(projectedBacktrack(0.07, 10.0, phi(0.07), -4.0 * 0.07), 0.035);
    // No vertex (a value off the domain, or no curvature): halving.
    QCOMPARE(projectedBacktrack(1.0, 10.0, std::numeric_limits<double>::infinity(), -4.0), 0.5);
    QCOMPARE(projectedBacktrack(1.0, 10.0, 6.0, -4.0), 0.5);
    // A value that rounding moves a little gives the same step.
    QCOMPARE(projectedBacktrack(1.0, 10.0, 56.0 * (1.0 + 1e-7), -4.0), 1.0 / 32.0);
  }

  void armijoSufficientDecrease() {
    for (const auto& f : functions()) {
      double d0 = 0.0;
      const double f0 = f.phi(0.0, &d0);
      for (double start : {0.1, 1.0, 10.0}) {
        LineSearchSettings s;
        s.c1 = 1e-4;
        const LineSearchResult r = backtrackingArmijo(f.phi, f0, d0, start, s);
        QVERIFY2(r.success, f.name);
        QVERIFY(r.alpha > 0.0 && r.alpha <= start);
        QVERIFY(r.value <= f0 + s.c1 * r.alpha * d0);
        // Backtracking stops at the first acceptable step: the step before it was rejected.
        if (r.alpha < start) {
          const double rejected = f.phi(r.alpha / s.shrink, nullptr);
          QVERIFY(!(rejected <= f0 + s.c1 * r.alpha / s.shrink * d0));
        }
      }
    }
  }

  void strongWolfeConditions_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("Nocedal-Wright zoom") << int(LineSearchKind::StrongWolfe);
    QTest::newRow("More-Thuente") << int(LineSearchKind::MoreThuente);
  }
  void strongWolfeConditions() {
    QFETCH(int, kind);
    auto functions_and_wiggle = functions();
    // Many local minima along the line: any strong Wolfe point will do.
    functions_and_wiggle.push_back({"(a-2)^2+0.3sin(8a)",
                                    [](double a, double* d) {
                                      if (d)
                                        *d = 2.0 * (a - 2.0) + 2.4 * std::cos(8.0 * a);
                                      return (a - 2.0) * (a - 2.0) + 0.3 * std::sin(8.0 * a);
                                    },
                                    2.0});
    int total_evaluations = 0;
    for (const auto& f : functions_and_wiggle) {
      double d0 = 0.0;
      const double f0 = f.phi(0.0, &d0);
      for (double c2 : {0.1, 0.9}) {
        for (double start : {1e-3, 0.3, 1.0, 10.0}) {
          LineSearchSettings s;
          s.c2 = c2;
          s.kind = LineSearchKind(kind);
          int calls = 0;
          double last_alpha = -1.0;
          LineFunction counted = [&](double a, double* d) {
            ++calls;
            last_alpha = a;
            return f.phi(a, d);
          };
          const LineSearchResult r = lineSearch(counted, f0, d0, start, s);
          total_evaluations += r.evaluations;
          QVERIFY2(r.success, f.name);
          QVERIFY(r.value <= f0 + s.c1 * r.alpha * d0);
          if (!(std::abs(r.derivative) <= -c2 * d0))
            qWarning("%s c2 %g start %g: alpha %g deriv %g evals %d", f.name, c2, start, r.alpha,
                     r.derivative, r.evaluations);
          QVERIFY(std::abs(r.derivative) <= -c2 * d0);
          QCOMPARE(last_alpha, r.alpha);  // the last evaluation is at the accepted step
          QCOMPARE(r.evaluations, calls);
        }
      }
    }
    qInfo("%s: %d evaluations over all functions and starts", QTest::currentDataTag(),
          total_evaluations);
  }

  void brentFindsMinimum() {
    for (const auto& f : functions()) {
      double d0 = 0.0;
      const double f0 = f.phi(0.0, &d0);
      for (double start : {1e-3, 0.7, 10.0}) {
        LineSearchSettings s;
        s.max_evaluations = 200;
        double last_alpha = -1.0;
        LineFunction tracked = [&](double a, double* d) {
          last_alpha = a;
          return f.phi(a, d);
        };
        const LineSearchResult r = brentLineSearch(tracked, f0, d0, start, s);
        qInfo("Brent %-18s start %-6g alpha %.10f (%d evaluations)", f.name, start, r.alpha,
              r.evaluations);
        QVERIFY2(r.success, f.name);
        QVERIFY(std::abs(r.alpha - f.minimiser) < 1e-6 * f.minimiser);
        QCOMPARE(last_alpha, r.alpha);
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestRmlLineSearch)
#include "test_rml_line_search.moc"
