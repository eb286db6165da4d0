// imaging.operator (issue #34): the optimizer's chi2 through the PSF converges to the image the
// visibility-domain operator converges to; the run says which it used and reports both fits;
// auto keeps the visibilities where the PSF mode cannot apply; refusals name the setting; files
// that do not say keep the visibilities, a new project is auto.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <mutex>

#include "core/project/project_file.h"
#include "core/util/input_error.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

class MessageObserver : public engine::RunObserver {
 public:
  void progress(double, const std::string& message) override {
    std::lock_guard<std::mutex> lock(mutex);
    messages.push_back(message);
  }
  void warning(const std::string& message) override {
    std::lock_guard<std::mutex> lock(mutex);
    warnings.push_back(message);
  }
  bool said(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    return std::any_of(messages.begin(), messages.end(),
                       [&](const std::string& m) { return m.find(text) != std::string::npos; });
  }
  std::mutex mutex;
  std::vector<std::string> messages, warnings;
};

std::shared_ptr<pipeline::ImagingProducts> run(const project::ProjectSettings& s,
                                               std::shared_ptr<MessageObserver> observer) {
  const testing::PipelineRun r = testing::runImagingPipeline(s, std::move(observer));
  if (!r.finished())
    throw std::runtime_error(r.outcome.message);
  return r.products;
}

double peakOf(const std::vector<double>& image) {
  return *std::max_element(image.begin(), image.end());
}

double maxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

}  // namespace

class TestPsfOperator : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    sim::ObservationSpec spec = testing::almaTestObservation();
    spec.spectral_windows = {sim::SpectralWindowSpec{230e9, 100e6, 4}};  // 4 channels per row
    ms_ = testing::simulateAlmaCompactMs(dir_.path().toStdString() + "/psf.ms",
                                         testing::pointAndGaussianSky(), spec);
  }

  project::ProjectSettings settings(project::OperatorMode mode) const {
    project::ProjectSettings s = project::defaultProject();
    s.data.path = ms_;
    s.imaging.nx = s.imaging.ny = 128;
    s.imaging.cell_arcsec = std::nullopt;  // a fifth of the finest fringe
    s.imaging.precision = project::Precision::Double;
    s.imaging.epsilon = 1e-9;
    s.imaging.data_operator = mode;
    // A fixed lambda and a tight tolerance: both runs go to the same optimum. TSV makes it
    // unique (L1 alone leaves directions in the coverage's holes free).
    s.regularizers = {{"l1", 1.0, false, {}}, {"tsv", 1e-5, false, {}}};
    s.optimizer.max_iterations = 500;
    s.optimizer.relative_tolerance = 1e-13;
    s.optimizer.patience = 3;
    return s;
  }

  // The acceptance of #34: after convergence, within 1e-3 of the peak of the visibility-mode
  // image; the last iteration's chi2 through the PSF agrees with the exact pass.
  void convergesToTheVisibilityImage() {
    auto seen_vis = std::make_shared<MessageObserver>();
    auto seen_psf = std::make_shared<MessageObserver>();
    const auto vis = run(settings(project::OperatorMode::Visibilities), seen_vis);
    const auto psf = run(settings(project::OperatorMode::Psf), seen_psf);
    QCOMPARE(QString::fromStdString(vis->data_operator), QString("visibilities"));
    QCOMPARE(QString::fromStdString(psf->data_operator), QString("psf"));
    QVERIFY(seen_psf->said("chi2 through the PSF"));
    QVERIFY(!seen_vis->said("through the PSF"));
    const double peak = peakOf(vis->model);
    const double difference = maxDifference(psf->model, vis->model);
    qInfo(
        "peak %.6g Jy/pixel, largest difference %.3g (%.2e of the peak); iterations %d / %d; "
        "chi2/dof %.8g / %.8g",
        peak, difference, difference / peak, vis->iterations, psf->iterations, vis->chi2_per_dof,
        psf->chi2_per_dof);
    QVERIFY(peak > 0.0);
    QVERIFY2(difference <= 1e-3 * peak, qPrintable(QString::number(difference / peak)));
    QVERIFY(std::fabs(psf->chi2_per_dof / vis->chi2_per_dof - 1.0) < 1e-4);
    // The PSF mode's own figure at its last iteration against the exact pass over the samples.
    QVERIFY(std::fabs(psf->metrics.back().chi2_per_dof / psf->chi2_per_dof - 1.0) < 1e-6);
    QVERIFY(seen_psf->said("over the visibilities"));
  }

  // Automatic lambdas anchor every step of the path and the final run.
  void automaticLambdaRunsThroughThePsf() {
    project::ProjectSettings s = settings(project::OperatorMode::Psf);
    s.regularizers = {{"l1", std::nullopt, false, {}}};
    s.regularization.method = project::LambdaMethod::Discrepancy;
    s.optimizer.max_iterations = 60;
    auto observer = std::make_shared<MessageObserver>();
    const auto p = run(s, observer);
    QCOMPARE(QString::fromStdString(p->data_operator), QString("psf"));
    QVERIFY(!p->lambda_path.empty());
    QVERIFY(p->auto_lambda > 0.0);
    // The fit the path judged is the exact one: the final chi2 through the PSF and over the
    // visibilities agree.
    QVERIFY(std::fabs(p->metrics.back().chi2_per_dof / p->chi2_per_dof - 1.0) < 1e-6);
  }

  // auto falls back to the visibilities where the PSF mode has no w-term (quietly), psf says so.
  void autoKeepsTheVisibilitiesUnderWStacking() {
    project::ProjectSettings s = settings(project::OperatorMode::Auto);
    s.imaging.w_stacking = true;
    s.optimizer.max_iterations = 5;
    auto observer = std::make_shared<MessageObserver>();
    const auto p = run(s, observer);
    QCOMPARE(QString::fromStdString(p->data_operator), QString("visibilities"));
    QVERIFY(observer->warnings.empty() ||
            std::none_of(observer->warnings.begin(), observer->warnings.end(),
                         [](const std::string& w) { return w.find("operator") != w.npos; }));
  }

  void refusalsNameTheSetting() {
    project::ProjectSettings s = settings(project::OperatorMode::Psf);
    s.imaging.w_stacking = true;
    try {
      project::validateProject(s);
      QFAIL("psf with w-stacking was accepted");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("imaging.operator") != std::string::npos, e.what());
      QVERIFY(std::string(e.what()).find("w_stacking") != std::string::npos);
    }
    s = settings(project::OperatorMode::Psf);
    s.imaging.spectral_mode = project::SpectralMode::Cube;
    try {
      project::validateProject(s);
      QFAIL("psf with a cube was accepted");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("imaging.operator") != std::string::npos, e.what());
    }
  }

  // Files written before the setting keep their images; a new project takes auto; the file
  // names the choice as the reference does.
  void defaultsAndFileText() {
    QCOMPARE(project::ImagingSettings{}.data_operator, project::OperatorMode::Visibilities);
    QCOMPARE(project::defaultProject().imaging.data_operator, project::OperatorMode::Auto);
    project::ProjectSettings s = settings(project::OperatorMode::Psf);
    const std::string path = dir_.path().toStdString() + "/p.apertura";
    project::saveProject(s, path);
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("\"operator\": \"psf\""));
    QCOMPARE(project::loadProject(path).imaging.data_operator, project::OperatorMode::Psf);
  }

 private:
  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestPsfOperator)
#include "test_psf_operator.moc"
