// L-BFGS against a plain reference implementation kept here: the algorithm as it was written with
// separate projected-gradient, s and y vectors and a deque of pairs. The solver forms P g in the
// direction, s and y straight in the history's slots, and runs the two-loop recursion in place;
// with double pairs every point it evaluates, every reported objective, step and gradient norm
// and the result must equal the reference's (bitwise; the check allows 1e-15 relative), for
// quadratic and non-quadratic objectives, with and without positivity, for every line search.
// Float pairs (the direction stays double) must reach the same minimum.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>

#include "core/rml/lbfgs.h"
#include "tests/rml/coupled_chain.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura::rml;

namespace {

// Badly conditioned (w down to 1e-4), coupled, and with b partly negative so that positivity holds
// pixels at the bound; records every point it is evaluated at.
test::CoupledChain problem(std::size_t n, bool log_cosh) {
  test::Random rng(23);
  Vector w(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    w[i] = std::pow(10.0, rng.uniform(-4.0, 0.0));
    b[i] = rng.uniform(-0.5, 1.0);
  }
  test::CoupledChain f(std::move(w), std::move(b), 0.05, log_cosh);
  f.record_points = true;
  return f;
}

struct Trace {
  Vector x;
  std::vector<double> objectives, steps, gradient_norms;
  int evaluations = 0;
};

double dot(const Vector& a, const Vector& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}
double norm(const Vector& a) {
  return std::sqrt(dot(a, a));
}

// The reference: projected L-BFGS as first written (Nocedal 1980, Shanno-Phua scaling; held
// pixels removed from the recursion, Armijo on the projected path under positivity).
Trace referenceLbfgs(DifferentiableFunction& f, Vector x, const LbfgsSettings& settings) {
  struct Pair {
    Vector s, y;
    double rho;
  };
  const std::size_t n = x.size();
  const bool positivity = settings.positivity;
  if (positivity)
    projectNonNegative(x);
  Trace trace;
  Vector g(n), pg(n), d(n), xt(n), gt(n);
  double fx = f.evaluate(x.data(), g.data());
  trace.evaluations = 1;
  std::deque<Pair> pairs;
  auto projected = [&] {
    pg = g;
    for (std::size_t i = 0; i < n; ++i) {
      if (positivity && x[i] <= 0.0 && g[i] >= 0.0)
        pg[i] = 0.0;
    }
  };
  for (int iteration = 1; iteration <= settings.stop.max_iterations; ++iteration) {
    projected();
    // Two-loop recursion on q = P g, then d = -q.
    Vector q = pg;
    std::vector<double> alpha(pairs.size());
    for (std::size_t j = pairs.size(); j-- > 0;) {
      alpha[j] = pairs[j].rho * dot(pairs[j].s, q);
      for (std::size_t i = 0; i < n; ++i)
        q[i] += -alpha[j] * pairs[j].y[i];
    }
    if (!pairs.empty()) {
      const double gamma =
          dot(pairs.back().s, pairs.back().y) / dot(pairs.back().y, pairs.back().y);
      for (double& v : q)
        v *= gamma;
    }
    for (std::size_t j = 0; j < pairs.size(); ++j) {
      const double beta = pairs[j].rho * dot(pairs[j].y, q);
      for (std::size_t i = 0; i < n; ++i)
        q[i] += (alpha[j] - beta) * pairs[j].s[i];
    }
    for (std::size_t i = 0; i < n; ++i)
      d[i] = -q[i];
    for (std::size_t i = 0; i < n; ++i) {
      if (positivity && pg[i] == 0.0 && x[i] <= 0.0)
        d[i] = 0.0;
    }
    double gtd = dot(g, d);
    if (!(gtd < 0.0)) {
      pairs.clear();
      for (std::size_t i = 0; i < n; ++i)
        d[i] = -pg[i];
      gtd = dot(g, d);
    }
    if (!(gtd < 0.0))
      break;
    const double initial = pairs.empty() ? std::min(1.0, 1.0 / norm(pg)) : 1.0;
    LineSearchResult ls;
    int evaluations = 0;
    if (!positivity) {
      const LineFunction phi = [&](double a, double* derivative) {
        for (std::size_t i = 0; i < n; ++i)
          xt[i] = x[i] + a * d[i];
        ++evaluations;
        const double value = f.evaluate(xt.data(), derivative != nullptr ? gt.data() : nullptr);
        if (derivative != nullptr)
          *derivative = dot(gt, d);
        return value;
      };
      ls = lineSearch(phi, fx, gtd, initial, settings.line_search);
    } else {
      double a = initial;
      for (int k = 0; k < settings.line_search.max_evaluations; ++k) {
        for (std::size_t i = 0; i < n; ++i)
          xt[i] = std::max(0.0, x[i] + a * d[i]);
        ls.value = f.evaluate(xt.data(), gt.data());
        ++evaluations;
        double decrease = 0.0;
        for (std::size_t i = 0; i < n; ++i)
          decrease += g[i] * (xt[i] - x[i]);
        if (std::isfinite(ls.value) && ls.value <= fx + settings.line_search.c1 * decrease) {
          ls.alpha = a;
          ls.success = true;
          break;
        }
        // The next trial: the vertex of the parabola through fx (slope decrease / a) and the
        // trial's value, rounded to a / 2^k, k in 1 ... 7, on a fresh history; else halving.
        const double curvature = ls.value - fx - decrease;
        if (pairs.empty() && std::isfinite(ls.value) && curvature > 0.0 && decrease < 0.0) {
          const double vertex = -0.5 * decrease * a / curvature;
          a = std::ldexp(a, -int(std::clamp(std::round(std::log2(a / vertex)), 1.0, 7.0)));
        } else {
          a *= 0.5;
        }
      }
    }
    trace.evaluations += evaluations;
    if (!ls.success || !(ls.value < fx))
      break;
    Pair p{Vector(n), Vector(n), 0.0};
    for (std::size_t i = 0; i < n; ++i) {
      p.s[i] = xt[i] - x[i];
      p.y[i] = gt[i] - g[i];
    }
    const double sy = dot(p.s, p.y);
    if (sy > 1e-12 * norm(p.s) * norm(p.y)) {
      p.rho = 1.0 / sy;
      if (int(pairs.size()) == settings.history)
        pairs.pop_front();
      pairs.push_back(std::move(p));
    }
    x = xt;
    g = gt;
    fx = ls.value;
    projected();
    trace.objectives.push_back(fx);
    trace.steps.push_back(ls.alpha);
    trace.gradient_norms.push_back(norm(pg));
  }
  trace.x = x;
  return trace;
}

// max_i |a_i - b_i| / max(|a|_inf, tiny): 0 when bitwise equal.
double relativeDifference(const Vector& a, const Vector& b) {
  if (a.size() != b.size())
    return HUGE_VAL;
  double diff = 0.0, scale = 1e-300;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(a[i]));
  }
  return diff / scale;
}

}  // namespace

class TestLbfgsReference : public QObject {
  Q_OBJECT
 private slots:
  void iteratesEqualTheReference_data() {
    QTest::addColumn<bool>("log_cosh");
    QTest::addColumn<bool>("positivity");
    QTest::addColumn<int>("line_search");
    QTest::addColumn<int>("history");
    QTest::addColumn<int>("in_memory_limit");
    const int wolfe = int(LineSearchKind::StrongWolfe);
    QTest::newRow("quadratic") << false << false << wolfe << 6 << 0;
    QTest::newRow("quadratic, positivity") << false << true << wolfe << 6 << 0;
    QTest::newRow("log cosh") << true << false << wolfe << 4 << 0;
    QTest::newRow("log cosh, positivity") << true << true << wolfe << 8 << 0;
    QTest::newRow("quadratic, armijo") << false << false << int(LineSearchKind::Armijo) << 5 << 0;
    QTest::newRow("log cosh, more-thuente")
        << true << false << int(LineSearchKind::MoreThuente) << 5 << 0;
    QTest::newRow("quadratic, brent") << false << false << int(LineSearchKind::Brent) << 3 << 0;
    // Two of the pairs in RAM, the rest spilled to disk: the same numbers.
    QTest::newRow("log cosh, positivity, spill") << true << true << wolfe << 8 << 2;
  }
  void iteratesEqualTheReference() {
    QFETCH(bool, log_cosh);
    QFETCH(bool, positivity);
    QFETCH(int, line_search);
    QFETCH(int, history);
    QFETCH(int, in_memory_limit);
    const std::size_t n = 3000;
    LbfgsSettings s;
    s.history = history;
    s.in_memory_limit = in_memory_limit;
    s.positivity = positivity;
    s.line_search.kind = LineSearchKind(line_search);
    s.stop.max_iterations = 60;
    s.stop.relative_tolerance = -1.0;  // every iteration runs unless the line search fails
    // A start with negative pixels: positivity projects it first.
    Vector x0(n);
    for (std::size_t i = 0; i < n; ++i)
      x0[i] = 0.3 * std::sin(0.01 * double(i));

    test::CoupledChain reference_f = problem(n, log_cosh);
    const Trace ref = referenceLbfgs(reference_f, x0, s);

    test::CoupledChain f = problem(n, log_cosh);
    Trace got;
    s.stop.observer = [&](const IterationReport& r) {
      got.objectives.push_back(r.objective);
      got.steps.push_back(r.step);
      got.gradient_norms.push_back(r.gradient_norm);
    };
    const OptimizerResult result = minimizeLbfgs(f, x0, s);

    // Far more iterations than pairs (the history wraps), and the problem is not solved early.
    QVERIFY2(ref.objectives.size() >= 30, qPrintable(QString::number(ref.objectives.size())));
    if (positivity) {
      std::size_t at_bound = 0;
      for (double v : ref.x)
        at_bound += v == 0.0 ? 1 : 0;
      QVERIFY2(at_bound > n / 50, qPrintable(QString::number(at_bound)));
    }
    QCOMPARE(got.objectives.size(), ref.objectives.size());
    QCOMPARE(result.evaluations, ref.evaluations);
    QCOMPARE(f.points.size(), reference_f.points.size());
    double worst = 0.0;
    for (std::size_t k = 0; k < f.points.size(); ++k)
      worst = std::max(worst, relativeDifference(f.points[k], reference_f.points[k]));
    worst = std::max(worst, relativeDifference(result.x, ref.x));
    worst = std::max(worst, relativeDifference(got.objectives, ref.objectives));
    worst = std::max(worst, relativeDifference(got.steps, ref.steps));
    worst = std::max(worst, relativeDifference(got.gradient_norms, ref.gradient_norms));
    qInfo("%zu iterations, %zu evaluations, largest relative difference %g", ref.objectives.size(),
          f.points.size(), worst);
    QVERIFY2(worst <= 1e-15, qPrintable(QString::number(worst)));
    QCOMPARE(result.objective, ref.objectives.back());
  }

  // Float pairs (widened to double in the recursion): the iterates leave the double ones' path, but
  // the run converges to the same minimiser, with and without positivity.
  void floatHistoryReachesTheSameMinimum_data() {
    QTest::addColumn<bool>("positivity");
    QTest::newRow("unconstrained") << false;
    QTest::newRow("positivity") << true;
  }
  void floatHistoryReachesTheSameMinimum() {
    QFETCH(bool, positivity);
    const std::size_t n = 3000;
    auto run = [&](bool float_history) {
      test::CoupledChain f = problem(n, true);
      LbfgsSettings s;
      s.history = 8;
      s.positivity = positivity;
      s.float_history = float_history;
      s.stop.max_iterations = 5000;
      s.stop.relative_tolerance = 0.0;
      s.stop.gradient_tolerance = 1e-9;
      return minimizeLbfgs(f, Vector(n, 0.0), s);
    };
    const OptimizerResult d = run(false);
    const OptimizerResult f = run(true);
    const double distance = test::distance(f.x, d.x) / test::norm(d.x);
    qInfo("double: %d iterations (%s), float: %d (%s), |x_f - x_d| / |x_d| = %g", d.iterations,
          toString(d.reason).c_str(), f.iterations, toString(f.reason).c_str(), distance);
    QVERIFY(d.reason != StopReason::MaxIterations);
    QVERIFY(f.reason != StopReason::MaxIterations);
    QVERIFY2(distance <= 1e-6, qPrintable(QString::number(distance)));
    QVERIFY(std::abs(f.objective - d.objective) <= 1e-10 * std::abs(d.objective));
  }
};

QTEST_GUILESS_MAIN(TestLbfgsReference)
#include "test_lbfgs_reference.moc"
