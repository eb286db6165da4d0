// Resuming an optimisation from an earlier run's model (optimizer.initial_model): the resumed run
// starts where the first one stopped, not from zero; a model on another grid is refused.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <mutex>

#include "tests/support/pipeline_run.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

struct Chi2Observer : engine::RunObserver {
  void iteration(const engine::IterationMetrics& m) override {
    std::lock_guard<std::mutex> lock(mutex);
    chi2.push_back(m.chi2_per_dof);
  }
  std::mutex mutex;
  std::vector<double> chi2;
};

struct Result {
  engine::RunOutcome outcome;
  std::vector<double> chi2;
};

Result run(const project::ProjectSettings& s) {
  auto observer = std::make_shared<Chi2Observer>();
  Result r;
  r.outcome = testing::runImagingPipeline(s, observer).outcome;
  r.chi2 = observer->chi2;
  return r;
}

}  // namespace

class TestResumeRun : public QObject {
  Q_OBJECT
 private slots:
  void resumesFromTheLastModel() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string ms = dir.path().toStdString() + "/pt.ms";
    testing::simulateAlmaCompactMs(ms, testing::pointAndGaussianSky());

    project::ProjectSettings s = project::defaultProject();
    s.data.path = ms;
    s.regularizers = {{"l1", 1.0, false, {}}};  // a fixed lambda: one solver run to continue
    s.imaging.nx = s.imaging.ny = 64;
    s.imaging.cell_arcsec = 0.1;
    s.optimizer.max_iterations = 40;
    s.optimizer.relative_tolerance = 0.0;
    s.output.prefix = dir.path().toStdString() + "/first";
    const Result first = run(s);
    QVERIFY2(first.outcome.state == engine::RunState::Finished, first.outcome.message.c_str());
    QCOMPARE(int(first.chi2.size()), 40);

    project::ProjectSettings again = s;
    again.optimizer.max_iterations = 1;
    again.output.prefix = dir.path().toStdString() + "/second";
    const Result cold = run(again);
    again.optimizer.initial_model = s.output.prefix + "-model.fits";
    const Result resumed = run(again);
    QVERIFY2(resumed.outcome.state == engine::RunState::Finished, resumed.outcome.message.c_str());
    QCOMPARE(int(resumed.chi2.size()), 1);
    qInfo("chi2/dof: first run %.4f -> %.4f; 1 iteration from zero %.4f, resumed %.4f",
          first.chi2.front(), first.chi2.back(), cold.chi2.front(), resumed.chi2.front());
    // The resumed iteration continues from the first run's fit (the FITS model is float, so
    // allow a little), far below where one iteration from an empty image gets.
    QVERIFY(resumed.chi2.front() <= first.chi2.back() * 1.01);
    QVERIFY(cold.chi2.front() > 2.0 * resumed.chi2.front());

    // A model of another size is refused with the key and the file in the message.
    project::ProjectSettings other = again;
    other.imaging.nx = other.imaging.ny = 32;
    const Result bad = run(other);
    QVERIFY(bad.outcome.state == engine::RunState::Failed);
    QVERIFY2(QString::fromStdString(bad.outcome.message).contains("optimizer.initial_model") &&
                 QString::fromStdString(bad.outcome.message).contains("first-model.fits") &&
                 QString::fromStdString(bad.outcome.message).contains("64 x 64"),
             bad.outcome.message.c_str());
  }
};

QTEST_GUILESS_MAIN(TestResumeRun)
#include "test_resume_run.moc"
