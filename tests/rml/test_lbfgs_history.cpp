// The L-BFGS history with disk spill: the same directions and iterates (bitwise) as the all-in-RAM
// history, the spill file sized and placed as configured, never named on disk (so no exit leaves
// it behind), and closed at the end of a run, on cancellation and when the objective throws.
#include <unistd.h>

#include <QtTest>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "core/rml/lbfgs.h"
#include "core/rml/lbfgs_history.h"
#include "core/util/cancellation.h"
#include "core/util/input_error.h"
#include "tests/rml/coupled_chain.h"
#include "tests/rml/rml_test_support.h"
#include "tests/support/spill_files.h"

using namespace apertura;
using namespace apertura::rml;
namespace fs = std::filesystem;

namespace {

test::CoupledChain coupledFunction(std::size_t n) {
  test::Random rng(7);
  Vector w(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    w[i] = rng.uniform(1e-3, 1.0);
    b[i] = rng.uniform(-1.0, 1.0);
  }
  return test::CoupledChain(std::move(w), std::move(b), 0.0, true);
}

bool bitwiseEqual(const Vector& a, const Vector& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

std::size_t entriesIn(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
    ++n;
  return n;
}

}  // namespace

class TestLbfgsHistory : public QObject {
  Q_OBJECT

  fs::path scratch_;

 private slots:
  void init() {
    scratch_ = fs::temp_directory_path() / ("apertura-test-lbfgs-" + std::to_string(::getpid()) +
                                            "-" + QTest::currentTestFunction());
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
  }
  void cleanup() { fs::remove_all(scratch_); }

  void residentPairsFollowLimitAndThreshold() {
    LbfgsHistoryOptions o;
    o.max_corrections = 10;
    QCOMPARE(LbfgsHistory::residentPairs(1000, o), 10);
    o.in_memory_limit = 4;
    QCOMPARE(LbfgsHistory::residentPairs(1000, o), 4);
    o.in_memory_limit = 40;
    QCOMPARE(LbfgsHistory::residentPairs(1000, o), 10);
    o.in_memory_limit = 0;
    // A pair of 1000 doubles is 16000 bytes: 10 pairs fit in 160000 bytes (all in RAM)...
    o.memory_threshold_bytes = 160000;
    QCOMPARE(LbfgsHistory::residentPairs(1000, o), 10);
    // ... below that, as many as fit less the one mapped spilled pair, at least one.
    o.memory_threshold_bytes = 159999;
    QCOMPARE(LbfgsHistory::residentPairs(1000, o), 8);
    o.memory_threshold_bytes = 100;
    QCOMPARE(LbfgsHistory::residentPairs(1000, o), 1);
    // Float pairs are half the size: 80000 bytes hold all 10.
    o.float_storage = true;
    o.memory_threshold_bytes = 80000;
    QCOMPARE(LbfgsHistory::residentPairs(1000, o), 10);
    o.memory_threshold_bytes = 79999;
    QCOMPARE(LbfgsHistory::residentPairs(1000, o), 8);
  }

  // Directions from the same pairs, all in RAM and with 1..m-1 resident, are bitwise equal; the
  // spill file holds exactly the spilled pairs and disappears with the history.
  void directionsAreBitwiseIdentical_data() {
    QTest::addColumn<bool>("float_storage");
    QTest::newRow("double") << false;
    QTest::newRow("float") << true;
  }
  void directionsAreBitwiseIdentical() {
    QFETCH(bool, float_storage);
    const std::size_t n = 3000;
    const int m = 6;
    const std::size_t element = float_storage ? sizeof(float) : sizeof(double);
    test::Random rng(11);
    LbfgsHistoryOptions all;
    all.max_corrections = m;
    all.float_storage = float_storage;
    LbfgsHistory reference(n, all);
    std::vector<std::unique_ptr<LbfgsHistory>> spilled;
    for (int resident = 1; resident < m; ++resident) {
      LbfgsHistoryOptions o = all;
      o.in_memory_limit = resident;
      o.scratch_dir = scratch_.string();
      spilled.push_back(std::make_unique<LbfgsHistory>(n, o));
    }
    const Vector g = rng.vector(n, -1.0, 1.0);
    const Vector zero(n, 0.0);             // push() forms s = s - 0 and y = y - 0: the pair itself
    for (int k = 0; k < 2 * m + 3; ++k) {  // fills, then wraps both rings
      Vector s = rng.vector(n, -1.0, 1.0);
      Vector y = s;
      for (std::size_t i = 0; i < n; ++i)
        y[i] = s[i] * (1.0 + rng.uniform(0.0, 2.0));  // s.y > 0
      QVERIFY(reference.push(s, zero, y, zero).accepted);
      for (auto& h : spilled)
        QVERIFY(h->push(s, zero, y, zero).accepted);
      Vector d_ref = g, d;
      reference.direction(d_ref);
      QCOMPARE(reference.size(), std::min(k + 1, m));
      for (auto& h : spilled) {
        d = g;
        h->direction(d);
        QVERIFY2(bitwiseEqual(d, d_ref),
                 qPrintable(QString("resident %1, pair %2").arg(h->residentCapacity()).arg(k)));
        const int on_disk = std::max(0, h->size() - h->residentCapacity());
        QCOMPARE(h->spillBytes(), std::uint64_t(on_disk) * 2 * n * element);
      }
    }
    QCOMPARE(reference.spillFileBytes(), std::uint64_t(0));
    // One open file per history in the scratch folder, none of them named there.
    QCOMPARE(spillFilesOpenIn(scratch_.string()), std::size_t(m - 1));
    QCOMPARE(entriesIn(scratch_), std::size_t(0));
    // Ring file of m - resident slots of 2 n doubles.
    QCOMPARE(spilled.front()->spillFileBytes(), std::uint64_t(m - 1) * 2 * n * element);
    spilled.clear();
    QCOMPARE(spillFilesOpenIn(scratch_.string()), std::size_t(0));
  }

  // Whole L-BFGS runs (with and without positivity): every iterate and the result bitwise equal.
  void lbfgsRunsAreBitwiseIdentical_data() {
    QTest::addColumn<bool>("positivity");
    QTest::newRow("unconstrained") << false;
    QTest::newRow("projected") << true;
  }
  void lbfgsRunsAreBitwiseIdentical() {
    QFETCH(bool, positivity);
    const std::size_t n = 4096;
    auto run = [&](int in_memory_limit, std::vector<double>* objectives, bool* saw_spill) {
      test::CoupledChain f = coupledFunction(n);
      LbfgsSettings s;
      s.history = 8;
      s.in_memory_limit = std::max(0, in_memory_limit);
      if (in_memory_limit < 0)  // a RAM threshold of 4 pairs: 3 resident + the mapped pair
        s.memory_threshold_bytes = 4 * 2 * n * sizeof(double);
      s.scratch_dir = scratch_.string();
      s.positivity = positivity;
      s.stop.max_iterations = 60;
      s.stop.relative_tolerance = -1.0;  // run all iterations
      s.stop.observer = [&](const IterationReport& r) {
        objectives->push_back(r.objective);
        if (r.iteration == 30 && saw_spill != nullptr)
          *saw_spill = spillFilesOpenIn(scratch_.string()) == 1 && entriesIn(scratch_) == 0;
      };
      return minimizeLbfgs(f, Vector(n, 0.0), s);
    };
    std::vector<double> ref_objectives;
    const OptimizerResult ref = run(0, &ref_objectives, nullptr);
    // Far more iterations than pairs: the rings wrap many times.
    QVERIFY2(ref.iterations >= 35, qPrintable(QString::number(ref.iterations)));
    for (int limit : {1, 3, 7, -1}) {
      std::vector<double> objectives;
      bool saw_spill = false;
      const OptimizerResult r = run(limit, &objectives, &saw_spill);
      QVERIFY2(saw_spill, "the spill directory exists during the run");
      QVERIFY(bitwiseEqual(r.x, ref.x));
      QVERIFY(bitwiseEqual(objectives, ref_objectives));
      QCOMPARE(r.iterations, ref.iterations);
      QCOMPARE(r.evaluations, ref.evaluations);
      QCOMPARE(spillFilesOpenIn(scratch_.string()), std::size_t(0));  // closed at the end
    }
  }

  // A workspace kept between runs (the steps of a lambda path) gives every run bitwise the result
  // of a fresh one, whatever the previous run left in the pairs; its history is kept while the
  // problem fits it, replaced when it does not, and its spill file lives as long as it.
  void workspaceRunsAreBitwiseFreshRuns() {
    const std::size_t n = 4096;
    auto run = [&](std::size_t size, double start, int in_memory_limit, LbfgsWorkspace* workspace) {
      test::CoupledChain f = coupledFunction(size);
      LbfgsSettings s;
      s.history = 8;
      s.in_memory_limit = in_memory_limit;
      s.scratch_dir = scratch_.string();
      s.positivity = true;
      s.stop.max_iterations = 25;
      s.stop.relative_tolerance = -1.0;
      s.workspace = workspace;
      return minimizeLbfgs(f, Vector(size, start), s);
    };
    LbfgsWorkspace workspace;
    const OptimizerResult first = run(n, 0.0, 0, &workspace);
    const LbfgsHistory* kept = workspace.history.get();
    QVERIFY(kept != nullptr);
    // A second run from elsewhere, in the same buffers: as a fresh run.
    const OptimizerResult second = run(n, 0.3, 0, &workspace);
    QCOMPARE(workspace.history.get(), kept);
    QVERIFY(bitwiseEqual(first.x, run(n, 0.0, 0, nullptr).x));
    QVERIFY(bitwiseEqual(second.x, run(n, 0.3, 0, nullptr).x));
    // Another size or spill setting builds the history it needs.
    const OptimizerResult smaller = run(n / 2, 0.0, 0, &workspace);
    LbfgsHistoryOptions half;
    half.max_corrections = 8;
    half.scratch_dir = scratch_.string();
    QVERIFY(workspace.history->fits(n / 2, half));
    QVERIFY(!workspace.history->fits(n, half));
    QVERIFY(bitwiseEqual(smaller.x, run(n / 2, 0.0, 0, nullptr).x));
    const OptimizerResult spilled = run(n, 0.0, 3, &workspace);
    QVERIFY(bitwiseEqual(spilled.x, first.x));  // spill changes nothing in the result
    const OptimizerResult again = run(n, 0.3, 3, &workspace);
    QVERIFY(bitwiseEqual(again.x, second.x));
    QCOMPARE(spillFilesOpenIn(scratch_.string()), std::size_t(1));  // kept with the workspace
    workspace.history.reset();
    QCOMPARE(spillFilesOpenIn(scratch_.string()), std::size_t(0));
  }

  // Float pairs (the direction stays double): half the memory, the same minimiser (the recursion's
  // dot products still accumulate in double), and bitwise identical with and without spill.
  void floatHistoryConvergesToTheSameMinimum() {
    const std::size_t n = 2000;
    auto run = [&](bool float_history, int in_memory_limit) {
      test::CoupledChain f = coupledFunction(n);
      LbfgsSettings s;
      s.history = 8;
      s.float_history = float_history;
      s.in_memory_limit = in_memory_limit;
      s.scratch_dir = scratch_.string();
      s.stop.max_iterations = 3000;
      s.stop.relative_tolerance = 0.0;
      s.stop.gradient_tolerance = 1e-7;
      return minimizeLbfgs(f, Vector(n, 0.0), s);
    };
    const OptimizerResult d = run(false, 0);
    const OptimizerResult f = run(true, 0);
    const OptimizerResult f_spill = run(true, 2);
    qInfo("double: %d iterations (%s), float: %d (%s), |x_f - x_d| / |x_d| = %g", d.iterations,
          toString(d.reason).c_str(), f.iterations, toString(f.reason).c_str(),
          test::distance(f.x, d.x) / test::norm(d.x));
    // Both converge (to the gradient tolerance or to working precision), not to the cap.
    QVERIFY(d.reason != StopReason::MaxIterations);
    QVERIFY(f.reason != StopReason::MaxIterations);
    QVERIFY2(test::distance(f.x, d.x) <= 1e-7 * test::norm(d.x),
             qPrintable(QString::number(test::distance(f.x, d.x) / test::norm(d.x))));
    QVERIFY(std::abs(f.objective - d.objective) <= 1e-12 * std::abs(d.objective));
    QVERIFY(bitwiseEqual(f_spill.x, f.x));
    QCOMPARE(f_spill.iterations, f.iterations);
    LbfgsHistoryOptions o;
    o.max_corrections = 8;
    o.in_memory_limit = 2;
    o.float_storage = true;
    LbfgsHistory h(n, o);
    QCOMPARE(h.elementBytes(), sizeof(float));
  }

  // push() forms s = x_new - x and y = g_new - g itself and reports s.y, |s| and |y|; a pair
  // failing the curvature condition is refused at every fill level (a free slot, all m slots
  // taken, pairs spilled) and leaves the directions bitwise as they were.
  void rejectedPairLeavesTheHistoryUnchanged_data() {
    QTest::addColumn<bool>("float_storage");
    QTest::addColumn<int>("in_memory_limit");
    QTest::newRow("double") << false << 0;
    QTest::newRow("double, spill") << false << 2;
    QTest::newRow("float, spill") << true << 2;
  }
  void rejectedPairLeavesTheHistoryUnchanged() {
    QFETCH(bool, float_storage);
    QFETCH(int, in_memory_limit);
    const std::size_t n = 1000;
    const int m = 4;
    test::Random rng(5);
    LbfgsHistoryOptions o;
    o.max_corrections = m;
    o.in_memory_limit = in_memory_limit;
    o.float_storage = float_storage;
    o.scratch_dir = scratch_.string();
    LbfgsHistory h(n, o);
    const Vector g = rng.vector(n, -1.0, 1.0);
    auto direction = [&] {
      Vector d = g;
      h.direction(d);
      return d;
    };
    for (int k = 0; k < m + 2; ++k) {
      // Rejected: y orthogonal to s (s = (1, 1, 0...), y = (1, -1, 0...) around random points).
      const Vector x = rng.vector(n, -1.0, 1.0), gx = rng.vector(n, -1.0, 1.0);
      Vector x_new = x, g_new = gx;
      x_new[0] += 1.0;
      x_new[1] += 1.0;
      g_new[0] += 1.0;
      g_new[1] -= 1.0;
      const Vector before = direction();
      const int size = h.size();
      const std::uint64_t spilled = h.spillBytes();
      const LbfgsHistory::PushResult rejected = h.push(x_new, x, g_new, gx);
      QVERIFY(!rejected.accepted);
      QVERIFY(std::abs(rejected.sy) <= 1e-12);
      QCOMPARE(h.size(), size);
      QCOMPARE(h.spillBytes(), spilled);
      QVERIFY2(bitwiseEqual(direction(), before), qPrintable(QString("after %1 pairs").arg(k)));

      // Accepted: y = 2 s; the reported products are those of the differences.
      Vector s = rng.vector(n, -1.0, 1.0), y(n);
      for (std::size_t i = 0; i < n; ++i) {
        x_new[i] = x[i] + s[i];
        g_new[i] = gx[i] + 2.0 * s[i];
        s[i] = x_new[i] - x[i];
        y[i] = g_new[i] - gx[i];
      }
      const LbfgsHistory::PushResult kept = h.push(x_new, x, g_new, gx);
      QVERIFY(kept.accepted);
      double sy = 0.0, ss = 0.0, yy = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        sy += s[i] * y[i];
        ss += s[i] * s[i];
        yy += y[i] * y[i];
      }
      QCOMPARE(kept.sy, sy);
      QCOMPARE(kept.s_norm, std::sqrt(ss));
      QCOMPARE(kept.y_norm, std::sqrt(yy));
      QCOMPARE(h.size(), std::min(k + 1, m));
    }
  }

  // A pair that meets the curvature condition in double but whose s.y is 0 once s and y are
  // rounded to float (y = (1e-8 + 1e-17, -1e-8): the 1e-17 is far below a float's resolution
  // there) is kept as a double pair and refused as a float one, whose rho would be infinite; the
  // refusal, with or without a free slot, leaves the directions bitwise as they were.
  void floatPairWithoutFloatCurvatureIsRefused() {
    const std::size_t n = 64;
    const Vector x(n, 0.0), g0(n, 0.0);
    Vector x_flat = x, g_flat = g0;
    x_flat[0] = x_flat[1] = 1.0;
    g_flat[0] = 1e-8 + 1e-17;
    g_flat[1] = -1e-8;
    QCOMPARE(float(g_flat[0]), -float(g_flat[1]));
    for (bool float_storage : {false, true}) {
      LbfgsHistoryOptions o;
      o.max_corrections = 2;
      o.float_storage = float_storage;
      LbfgsHistory h(n, o);
      test::Random rng(9);
      const Vector g = rng.vector(n, -1.0, 1.0);
      for (int k = 0; k < 3; ++k) {  // a free slot, then none
        Vector d = g;
        h.direction(d);
        const int size = h.size();
        const LbfgsHistory::PushResult r = h.push(x_flat, x, g_flat, g0);
        QVERIFY(r.sy > 1e-12 * r.s_norm * r.y_norm);
        QCOMPARE(r.accepted, !float_storage);
        if (float_storage) {
          Vector after = g;
          h.direction(after);
          QCOMPARE(h.size(), size);
          QVERIFY(bitwiseEqual(after, d));
        }
        // A well-curved pair between the flat ones.
        Vector xs = rng.vector(n, -1.0, 1.0), gs(n);
        for (std::size_t i = 0; i < n; ++i)
          gs[i] = 3.0 * xs[i];
        QVERIFY(h.push(xs, x, gs, g0).accepted);
      }
    }
  }

  void scratchRemovedOnExceptionAndCancel() {
    const std::size_t n = 2048;
    {
      test::CoupledChain f = coupledFunction(n);
      f.throw_after = 40;
      LbfgsSettings s;
      s.history = 6;
      s.in_memory_limit = 2;
      s.scratch_dir = scratch_.string();
      s.stop.max_iterations = 100;
      s.stop.relative_tolerance = -1.0;
      bool spilled = false;
      s.stop.observer = [&](const IterationReport&) {
        spilled = spilled || spillFilesOpenIn(scratch_.string()) > 0;
      };
      QVERIFY_THROWS_EXCEPTION(std::runtime_error, minimizeLbfgs(f, Vector(n, 0.0), s));
      QVERIFY(spilled);
      QCOMPARE(spillFilesOpenIn(scratch_.string()), std::size_t(0));
    }
    {
      test::CoupledChain f = coupledFunction(n);
      CancellationToken cancel;
      LbfgsSettings s;
      s.history = 6;
      s.in_memory_limit = 2;
      s.scratch_dir = scratch_.string();
      s.stop.max_iterations = 100;
      s.stop.relative_tolerance = -1.0;
      s.stop.cancel = &cancel;
      s.stop.observer = [&](const IterationReport& r) {
        if (r.iteration == 20) {
          QCOMPARE(spillFilesOpenIn(scratch_.string()), std::size_t(1));
          cancel.cancel();
        }
      };
      const OptimizerResult r = minimizeLbfgs(f, Vector(n, 0.0), s);
      QVERIFY(r.reason == StopReason::Cancelled);
      QCOMPARE(r.iterations, 20);
      QCOMPARE(spillFilesOpenIn(scratch_.string()), std::size_t(0));
    }
  }

  void unusableScratchDirectoryIsAClearError() {
    const std::size_t n = 100;
    LbfgsHistoryOptions o;
    o.max_corrections = 3;
    o.in_memory_limit = 1;
    o.scratch_dir = (scratch_ / "does-not-exist").string();
    LbfgsHistory h(n, o);
    const Vector s(n, 1.0), y(n, 2.0), zero(n, 0.0);
    QVERIFY(h.push(s, zero, y, zero).accepted);  // the first pair stays in RAM
    try {
      h.push(s, zero, y, zero);
      QFAIL("expected an error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.path()), QString::fromStdString(o.scratch_dir));
      QVERIFY(QString(e.what()).contains("cannot create an L-BFGS spill file"));
    }
  }
};

QTEST_GUILESS_MAIN(TestLbfgsHistory)
#include "test_lbfgs_history.moc"
