// Optimizer plugins (a test plugin, bb-descent): driven under Apertura's stop criteria, with
// positivity, and with exceptions from the objective (cancellation) carried across the C
// interface and rethrown; project validation accepts plugin methods and names missing ones.
#include <QtTest>
#include <cmath>

#include "core/plugin/plugin_optimizer.h"
#include "core/project/project_file.h"
#include "core/util/cancellation.h"
#include "core/util/input_error.h"

using namespace apertura;

namespace {

// f(x) = 1/2 sum d_i (x_i - c_i)^2, optionally throwing on the n-th evaluation.
class Quadratic : public rml::DifferentiableFunction {
 public:
  explicit Quadratic(std::size_t n) : d_(n), c_(n) {
    for (std::size_t i = 0; i < n; ++i) {
      d_[i] = 1.0 + double(i % 7);
      c_[i] = std::sin(double(i)) * 2.0;  // some negative: positivity binds there
    }
  }
  std::size_t dimension() const override { return d_.size(); }
  double evaluate(const double* x, double* g) override {
    if (++calls_ == throw_at_)
      throw OperationCancelled();
    double f = 0.0;
    for (std::size_t i = 0; i < d_.size(); ++i) {
      const double r = x[i] - c_[i];
      f += 0.5 * d_[i] * r * r;
      if (g)
        g[i] = d_[i] * r;
    }
    return f;
  }
  std::vector<double> d_, c_;
  int calls_ = 0;
  int throw_at_ = -1;
};

plugin::OptimizerEntry bb() {
  return plugin::PluginRegistry::global().findOptimizer("bb-descent");
}

}  // namespace

class TestPluginOptimizer : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(bb().api, "the bb-descent test plugin is not loaded"); }

  void minimizesWithPositivity() {
    Quadratic f(50);
    rml::StopCriteria stop;
    stop.max_iterations = 500;
    stop.relative_tolerance = 1e-15;
    stop.gradient_tolerance = 1e-9;
    int reports = 0;
    stop.observer = [&](const rml::IterationReport&) { ++reports; };
    const auto r = plugin::minimizeWithPlugin(bb(), f, rml::Vector(50, 1.0), stop, true);
    double worst = 0.0;
    for (std::size_t i = 0; i < 50; ++i)
      worst = std::max(worst, std::abs(r.x[i] - std::max(0.0, f.c_[i])));
    QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    QCOMPARE(reports, r.iterations);
    QVERIFY(r.iterations > 1 && r.iterations < 500);
    QVERIFY(r.reason != rml::StopReason::MaxIterations);
  }

  void stopsAtTheIterationLimit() {
    Quadratic f(20);
    rml::StopCriteria stop;
    stop.max_iterations = 3;
    stop.relative_tolerance = 0.0;
    const auto r = plugin::minimizeWithPlugin(bb(), f, rml::Vector(20, 0.0), stop, false);
    QCOMPARE(r.iterations, 3);
    QCOMPARE(int(r.reason), int(rml::StopReason::MaxIterations));
  }

  void cancellationCrossesThePluginAsAnException() {
    Quadratic f(20);
    f.throw_at_ = 5;
    rml::StopCriteria stop;
    stop.max_iterations = 100;
    QVERIFY_THROWS_EXCEPTION(
        OperationCancelled, plugin::minimizeWithPlugin(bb(), f, rml::Vector(20, 0.0), stop, false));
    // A token cancelled before the start stops at once.
    CancellationToken token;
    token.cancel();
    stop.cancel = &token;
    Quadratic g(20);
    const auto r = plugin::minimizeWithPlugin(bb(), g, rml::Vector(20, 0.0), stop, false);
    QCOMPARE(int(r.reason), int(rml::StopReason::Cancelled));
    QCOMPARE(r.iterations, 0);
  }

  void projectsNamePluginOptimizers() {
    project::ProjectSettings s;
    s.data.path = "x.ms";
    s.optimizer.setMethod("bb-descent");
    project::validateProject(s);  // accepted
    s.optimizer.setMethod("newton");
    try {
      project::validateProject(s);
      QFAIL("no exception");
    } catch (const InputError& e) {
      QVERIFY2(
          std::string(e.what()).find("nor an optimizer of a loaded plugin") != std::string::npos,
          e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestPluginOptimizer)
#include "test_plugin_optimizer.moc"
