// After a run: an empty model, a fit stopped at once or a reduced chi-squared far from the noise
// is named with its likely cause and the next step (the mask, positivity against a dirty image
// without emission, lambda too strong, weights not absolute); a sound run gets nothing. End to
// end, a mask outside the image is reported by the pipeline as a warning.
#include <QTemporaryDir>
#include <QtTest>

#include "core/pipeline/run_diagnosis.h"
#include "core/project/project_file.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

// A 16 x 16 run with noise 1e-3 Jy/beam, a dirty peak of `peak_noises` noise, 10 iterations to
// reduced chi2 1.05 and a model that is `empty` or holds one pixel.
pipeline::ImagingProducts products(bool empty, double peak_noises) {
  pipeline::ImagingProducts p;
  p.geometry = imaging::ImageGeometry::fromCell(16, 16, 1e-6);
  p.image_noise = 1e-3;
  p.dirty.assign(256, 0.0f);
  p.dirty[100] = float(peak_noises * 1e-3);
  p.model.assign(256, 0.0);
  if (!empty)
    p.model[100] = 0.01;
  p.iterations = 10;
  p.stop_reason = "converged";
  p.chi2_per_dof = 1.05;
  return p;
}

project::ProjectSettings l1(std::optional<double> lambda) {
  project::ProjectSettings s = project::defaultProject();
  s.regularizers = {{"l1", lambda, false, {}}};
  return s;
}

QString joined(const std::vector<std::string>& found) {
  QString all;
  for (const auto& f : found)
    all += QString::fromStdString(f) + "\n";
  return all;
}

}  // namespace

class TestRunDiagnosis : public QObject {
  Q_OBJECT
 private slots:
  void aSoundRunGetsNothing() {
    QVERIFY(pipeline::diagnoseRun(l1(1.0), products(false, 50.0)).empty());
  }

  void anEmptyModelIsExplained() {
    // A mask entirely outside the image.
    project::ProjectSettings s = l1(1.0);
    s.mask = {{"rectangle", false, {100, 100, 120, 120}}};
    QString d = joined(pipeline::diagnoseRun(s, products(true, 50.0)));
    QVERIFY2(d.contains("the mask covers no pixel of the 16 x 16 image"), qPrintable(d));

    // No positive emission above 3 noise, under positivity.
    d = joined(pipeline::diagnoseRun(l1(1.0), products(true, 2.0)));
    QVERIFY2(d.contains("peak is 0.002 Jy/beam, 2 times the image noise 0.001") &&
                 d.contains("positivity holds every pixel at zero"),
             qPrintable(d));

    // Emission, but L1 above it: the fixed lambda, or the automatic one chosen.
    d = joined(pipeline::diagnoseRun(l1(50.0), products(true, 20.0)));
    QVERIFY2(d.contains("L1 at lambda 50 holds every pixel at zero"), qPrintable(d));
    pipeline::ImagingProducts chosen = products(true, 20.0);
    chosen.auto_lambda = 31.5;
    d = joined(pipeline::diagnoseRun(l1(std::nullopt), chosen));
    QVERIFY2(d.contains("L1 at lambda 31.5"), qPrintable(d));

    // No regularizer to blame: the iterations and the reason.
    project::ProjectSettings none = project::defaultProject();
    none.regularizers.clear();
    d = joined(pipeline::diagnoseRun(none, products(true, 20.0)));
    QVERIFY2(d.contains("empty (every pixel 0) after 10 iterations (converged)"), qPrintable(d));
  }

  void stoppedAtOnce() {
    pipeline::ImagingProducts p = products(false, 50.0);
    p.iterations = 0;
    p.stop_reason = "gradient below tolerance";
    const QString d = joined(pipeline::diagnoseRun(l1(1.0), p));
    QVERIFY2(d.contains("stopped before its first iteration (gradient below tolerance)"),
             qPrintable(d));
  }

  void aFitFarFromTheNoise() {
    pipeline::ImagingProducts p = products(false, 50.0);
    p.chi2_per_dof = 3.5;
    QVERIFY(joined(pipeline::diagnoseRun(l1(1.0), p)).contains("far above the noise"));
    p.chi2_per_dof = 0.2;
    QVERIFY(joined(pipeline::diagnoseRun(l1(1.0), p)).contains("fits the noise"));
    p.chi2_per_dof = 1.9;  // within what the noise does
    QVERIFY(pipeline::diagnoseRun(l1(1.0), p).empty());
    // Unscaled: chi2/dof 23 says the weights are not absolute; 1.9 is left alone.
    project::ProjectSettings unscaled = l1(1.0);
    unscaled.regularization.scaling = project::ObjectiveScaling::None;
    p.chi2_per_dof = 23.0;
    QVERIFY(joined(pipeline::diagnoseRun(unscaled, p)).contains("weights are not absolute"));
    p.chi2_per_dof = 1.9;
    QVERIFY(pipeline::diagnoseRun(unscaled, p).empty());
  }

  // End to end: a run with its mask outside the image says why its model is empty.
  void thePipelineReportsThem() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string ms = dir.path().toStdString() + "/obs.ms";
    testing::simulateAlmaCompactMs(ms, testing::pointAndGaussianSky());
    project::ProjectSettings s = l1(1.0);
    s.data.path = ms;
    s.imaging.nx = s.imaging.ny = 64;
    s.optimizer.max_iterations = 5;
    s.mask = {{"rectangle", false, {200, 200, 240, 240}}};
    const testing::PipelineRun run = testing::runImagingPipeline(s);
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    const QString d = joined(run.products->diagnoses);
    QVERIFY2(d.contains("the mask covers no pixel of the 64 x 64 image"), qPrintable(d));
    QVERIFY(joined(run.products->warnings).contains("the mask covers no pixel"));

    s.mask.clear();
    s.optimizer.max_iterations = 100;
    const testing::PipelineRun sound = testing::runImagingPipeline(s);
    QVERIFY2(sound.finished(), sound.outcome.message.c_str());
    QVERIFY2(sound.products->diagnoses.empty(), qPrintable(joined(sound.products->diagnoses)));
  }
};

QTEST_GUILESS_MAIN(TestRunDiagnosis)
#include "test_run_diagnosis.moc"
