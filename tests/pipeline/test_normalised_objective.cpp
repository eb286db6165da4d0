// The normalised objective (project schema 2, rml/objective_scales.h): lambda keeps its meaning
// when the data change in ways that should not matter (weights scaled by 10, every visibility
// duplicated, the cell halved at a fixed field of view, the visibilities in units 100 times
// smaller: sky and noise times 100), and schema-1 files keep theirs exactly.
// "Keeps its meaning": the NRMSE-optimal L1 lambda of a sweep moves by less than a factor 2.
#include <QTemporaryDir>
#include <QtTest>

#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableCopy.h>
#include <cmath>
#include <filesystem>

#include "core/pipeline/lambda_path.h"
#include "core/project/project_file.h"
#include "core/rml/restore.h"
#include "core/sim/image_sky.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/relative_difference.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;
using apertura::test::nrmse;
namespace fs = std::filesystem;

namespace {

constexpr int kSize = 128;
const double kLambdas[] = {0.3, 1.0, 3.0, 10.0, 30.0, 100.0};

project::ProjectSettings l1Project(const std::string& ms, int size, double cell_arcsec,
                                   double lambda) {
  project::ProjectSettings s = project::defaultProject();
  s.data.path = ms;
  s.imaging.nx = s.imaging.ny = size;
  if (cell_arcsec > 0.0)
    s.imaging.cell_arcsec = cell_arcsec;
  s.regularizers = {{"l1", lambda, false, {}}};
  s.optimizer.max_iterations = 100;
  return s;
}

// The NRMSE-optimal lambda of the sweep, refined by a parabola in log lambda through the best
// point and its neighbours.
double optimalLambda(const std::string& ms, int size, double cell_arcsec, const sim::SkyModel& sky,
                     double flux_factor = 1.0) {
  std::vector<double> scores;
  for (double lambda : kLambdas) {
    const testing::PipelineRun run =
        testing::runImagingPipeline(l1Project(ms, size, cell_arcsec, lambda));
    if (!run.finished())
      throw std::runtime_error(run.outcome.message);
    const auto& p = *run.products;
    FitsImage truth =
        sim::renderSkyImage(sky, size, cell_arcsec * M_PI / 648000.0, 0.0, -0.5, 230e9);
    for (auto& v : truth.pixels)
      v *= flux_factor;
    scores.push_back(nrmse(rml::convolveWithCleanBeam(p.model, p.geometry, p.beam),
                           rml::convolveWithCleanBeam(truth.pixels, p.geometry, p.beam)));
  }
  const std::size_t best =
      std::size_t(std::min_element(scores.begin(), scores.end()) - scores.begin());
  double log_best = std::log10(kLambdas[best]);
  if (best > 0 && best + 1 < scores.size()) {
    const double a = scores[best - 1], b = scores[best], c = scores[best + 1];
    const double h = std::log10(kLambdas[best + 1]) - log_best;
    const double curvature = a - 2.0 * b + c;
    if (curvature > 0.0)
      log_best += 0.5 * h * (a - c) / curvature;
  }
  QString line;
  for (std::size_t k = 0; k < scores.size(); ++k)
    line += QString(" %1:%2").arg(kLambdas[k]).arg(scores[k], 0, 'f', 3);
  qInfo("%s (%d px): NRMSE%s -> optimum %.3g", fs::path(ms).filename().c_str(), size,
        qPrintable(line), std::pow(10.0, log_best));
  return std::pow(10.0, log_best);
}

void scaleWeights(const std::string& ms, double factor) {
  casacore::Table t(ms, casacore::Table::Update);
  casacore::ArrayColumn<float> weight(t, "WEIGHT"), sigma(t, "SIGMA");
  for (casacore::rownr_t r = 0; r < t.nrow(); ++r) {
    weight.put(r, weight(r) * float(factor));
    sigma.put(r, sigma(r) / float(std::sqrt(factor)));
  }
  if (t.tableDesc().isColumn("WEIGHT_SPECTRUM")) {
    casacore::ArrayColumn<float> spectrum(t, "WEIGHT_SPECTRUM");
    for (casacore::rownr_t r = 0; r < t.nrow(); ++r) {
      if (spectrum.isDefined(r))
        spectrum.put(r, spectrum(r) * float(factor));
    }
  }
}

// DATA times `factor`: the sky and its noise alike, with the weights left as they were (so they
// no longer match the scatter, which the weight scale s then takes up).
void scaleData(const std::string& ms, float factor) {
  casacore::Table t(ms, casacore::Table::Update);
  casacore::ArrayColumn<casacore::Complex> data(t, "DATA");
  for (casacore::rownr_t r = 0; r < t.nrow(); ++r)
    data.put(r, data(r) * casacore::Complex(factor, 0.0f));
}

void duplicateRows(const std::string& ms) {
  casacore::Table t(ms, casacore::Table::Update);
  const casacore::rownr_t n = t.nrow();
  t.addRow(n);
  casacore::TableCopy::copyRows(t, t, n, 0, n);
}

}  // namespace

class TestNormalisedObjective : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    base_ = dir_.path().toStdString() + "/base.ms";
    testing::simulateAlmaCompactMs(base_, testing::pointAndGaussianSky());
    const testing::PipelineRun run = testing::runImagingPipeline(l1Project(base_, 64, 0, 1.0));
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    // Half the automatic cell: a point between pixels then costs little NRMSE at the beam.
    cell_arcsec_ = 0.5 * std::fabs(run.products->geometry.cell_m) * 648000.0 / M_PI;
    base_optimum_ = optimalLambda(base_, kSize, cell_arcsec_, testing::pointAndGaussianSky());
  }

  void weightsScaledByTen() {
    const std::string ms = dir_.path().toStdString() + "/weights10.ms";
    fs::copy(base_, ms, fs::copy_options::recursive);
    scaleWeights(ms, 10.0);
    const double optimum = optimalLambda(ms, kSize, cell_arcsec_, testing::pointAndGaussianSky());
    QVERIFY2(std::fabs(std::log(optimum / base_optimum_)) < std::log(2.0),
             qPrintable(QString("%1 vs %2").arg(optimum).arg(base_optimum_)));
  }

  void everyVisibilityTwice() {
    const std::string ms = dir_.path().toStdString() + "/twice.ms";
    fs::copy(base_, ms, fs::copy_options::recursive);
    duplicateRows(ms);
    const double optimum = optimalLambda(ms, kSize, cell_arcsec_, testing::pointAndGaussianSky());
    QVERIFY2(std::fabs(std::log(optimum / base_optimum_)) < std::log(2.0),
             qPrintable(QString("%1 vs %2").arg(optimum).arg(base_optimum_)));
  }

  void skyAndNoiseTimesHundred() {
    const std::string ms = dir_.path().toStdString() + "/sky100.ms";
    fs::copy(base_, ms, fs::copy_options::recursive);
    scaleData(ms, 100.0f);
    const double optimum =
        optimalLambda(ms, kSize, cell_arcsec_, testing::pointAndGaussianSky(), 100.0);
    QVERIFY2(std::fabs(std::log(optimum / base_optimum_)) < std::log(2.0),
             qPrintable(QString("%1 vs %2").arg(optimum).arg(base_optimum_)));
  }

  void halfTheCellAtTheSameFieldOfView() {
    const double optimum =
        optimalLambda(base_, 2 * kSize, 0.5 * cell_arcsec_, testing::pointAndGaussianSky());
    QVERIFY2(std::fabs(std::log(optimum / base_optimum_)) < std::log(2.0),
             qPrintable(QString("%1 vs %2").arg(optimum).arg(base_optimum_)));
  }

  void discrepancyPathReachesTheNoise() {
    project::ProjectSettings s = l1Project(base_, kSize, cell_arcsec_, 0.0);
    s.regularizers[0].lambda.reset();  // auto
    s.regularization.method = project::LambdaMethod::Discrepancy;
    const testing::PipelineRun run = testing::runImagingPipeline(s);
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    const auto& p = *run.products;
    QString path;
    for (const auto& step : p.lambda_path)
      path += QString(" %1:%2").arg(step.lambda).arg(step.chi2_reduced);
    qInfo("path (lambda:reduced chi2)%s; chosen %g, final chi2/dof %g", qPrintable(path),
          p.auto_lambda, p.chi2_per_dof);
    // From strong to weak, the fit improves; the path stops at the first step at the noise.
    QVERIFY(p.lambda_path.size() >= 2);
    for (std::size_t k = 1; k < p.lambda_path.size(); ++k) {
      QVERIFY(p.lambda_path[k].lambda < p.lambda_path[k - 1].lambda);
      QVERIFY(p.lambda_path[k].chi2_reduced < p.lambda_path[k - 1].chi2_reduced);
    }
    QVERIFY(p.lambda_path.back().chi2_reduced <= 1.0);
    // Every step keeps its model (a small path is far within the budget): the path's own, whose
    // flux grows as lambda falls (L1 shrinks it less).
    double previous_flux = -1.0;
    for (const auto& step : p.lambda_path) {
      QCOMPARE(step.model.size(), p.model.size());
      double flux = 0.0;
      for (float v : step.model)
        flux += v;
      QVERIFY2(flux >= previous_flux,
               qPrintable(QString("%1 after %2").arg(flux).arg(previous_flux)));
      previous_flux = flux;
    }
    QVERIFY(p.auto_lambda <= p.lambda_path[p.lambda_path.size() - 2].lambda);
    QVERIFY(p.auto_lambda >= p.lambda_path.back().lambda);
    QVERIFY2(p.chi2_per_dof < 1.1, qPrintable(QString::number(p.chi2_per_dof)));
  }

  void crossValidationFindsTheSweepsOptimum() {
    // Noise matters here (sigma 1 Jy per visibility: total flux / image noise about 400). At the
    // base's SNR of ~8000 the held-out error falls down to the weakest lambda: it cannot see
    // what a weak lambda puts in the coverage's holes, which the fidelity score does.
    const std::string ms = dir_.path().toStdString() + "/noisy.ms";
    sim::ObservationSpec spec = testing::almaTestObservation();
    spec.sigma_jy = {1.0};
    testing::simulateAlmaCompactMs(ms, testing::pointAndGaussianSky(), spec);
    const double optimum = optimalLambda(ms, kSize, cell_arcsec_, testing::pointAndGaussianSky());
    project::ProjectSettings s = l1Project(ms, kSize, cell_arcsec_, 0.0);
    s.regularizers[0].lambda.reset();  // auto, cv by default
    QCOMPARE(s.regularization.method, project::LambdaMethod::Cv);
    const testing::PipelineRun run = testing::runImagingPipeline(s);
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    const auto& p = *run.products;
    QString path;
    for (const auto& step : p.lambda_path)
      path += QString(" %1:%2").arg(step.lambda).arg(step.validation);
    qInfo("cv path (lambda:held-out reduced chi2)%s; chosen %g, sweep optimum %g", qPrintable(path),
          p.auto_lambda, optimum);
    QVERIFY(p.lambda_path.size() >= 3);
    std::size_t least = 0;
    for (std::size_t k = 0; k < p.lambda_path.size(); ++k) {
      const auto& step = p.lambda_path[k];
      QCOMPARE(int(step.fold_validation.size()), s.regularization.folds);
      double mean = 0.0;
      for (double e : step.fold_validation)
        mean += e / double(step.fold_validation.size());
      QVERIFY(std::fabs(mean - step.validation) <= 1e-12 * mean);
      if (k > 0)
        QVERIFY(step.lambda < p.lambda_path[k - 1].lambda);
      if (step.validation < p.lambda_path[least].validation)
        least = k;
    }
    // Consecutive lambdas differ by path_factor, except a last step at lambda_min, which lies at
    // least sqrt(path_factor) below the one before (no step lands just above the floor).
    const double factor = s.regularization.path_factor;
    for (std::size_t k = 1; k < p.lambda_path.size(); ++k) {
      const double ratio = p.lambda_path[k - 1].lambda / p.lambda_path[k].lambda;
      if (p.lambda_path[k].lambda == s.regularization.lambda_min)
        QVERIFY2(ratio >= std::sqrt(factor) * (1.0 - 1e-12), qPrintable(QString::number(ratio)));
      else
        QVERIFY2(std::fabs(ratio / factor - 1.0) < 1e-12, qPrintable(QString::number(ratio)));
    }
    // The path goes on past the least error (the first fold's rises twice, then it ends) and
    // the choice lies between the least step's neighbours; or the path ends at lambda_min, the
    // floor, which is then the choice.
    QVERIFY(least > 0);
    QVERIFY(p.lambda_path.back().lambda >= s.regularization.lambda_min);
    if (least + 1 < p.lambda_path.size()) {
      QVERIFY(p.auto_lambda <= p.lambda_path[least - 1].lambda);
      QVERIFY(p.auto_lambda >= p.lambda_path[least + 1].lambda);
    } else {
      QCOMPARE(p.lambda_path.back().lambda, s.regularization.lambda_min);
      QCOMPARE(p.auto_lambda, s.regularization.lambda_min);
    }
    // Each step keeps the mean of the folds' models; the strongest step's holds the least flux.
    const auto fluxOf = [](const std::vector<float>& m) {
      double f = 0.0;
      for (float v : m)
        f += v;
      return f;
    };
    for (const auto& step : p.lambda_path)
      QCOMPARE(step.model.size(), p.model.size());
    QVERIFY(fluxOf(p.lambda_path.front().model) < fluxOf(p.lambda_path[least].model));
    // What matters: the image's optimum.
    QVERIFY2(std::fabs(std::log(p.auto_lambda / optimum)) < std::log(3.0),
             qPrintable(QString("%1 vs %2").arg(p.auto_lambda).arg(optimum)));
  }

  // A project without a regularizer (a hand-written file that leaves the list out) is a plain
  // maximum-likelihood fit: allowed, but the run says what it means. One with a term does not.
  void aRunWithoutRegularizersSaysSo() {
    project::ProjectSettings s = l1Project(base_, kSize, cell_arcsec_, 1.0);
    s.optimizer.max_iterations = 3;
    const auto warned = [](const testing::PipelineRun& run) {
      for (const auto& w : run.products->warnings)
        if (w.find("no regularizer") != std::string::npos)
          return true;
      return false;
    };
    const testing::PipelineRun with = testing::runImagingPipeline(s);
    QVERIFY2(with.finished(), with.outcome.message.c_str());
    QVERIFY(!warned(with));
    s.regularizers[0].lambda = 0.0;  // a term switched off counts as none
    const testing::PipelineRun without = testing::runImagingPipeline(s);
    QVERIFY2(without.finished(), without.outcome.message.c_str());
    QVERIFY(warned(without));
  }

  void pathModelsStayWithinTheirBudget() {
    const std::size_t plane = 512 * 512;
    QVERIFY(pipeline::keepsPathModel(0, plane));
    QVERIFY(pipeline::keepsPathModel(255, plane));  // 256 steps of 1 MiB
    QVERIFY(!pipeline::keepsPathModel(256, plane));
    QVERIFY(!pipeline::keepsPathModel(0, std::size_t(64) * 4096 * 4096));  // a large cube: none
  }

  void pathWithoutAFitSaysSo() {
    // Every step stops before its first iteration (L1 far above the peak): no crash, a warning,
    // the last lambda tried.
    project::ProjectSettings s = l1Project(base_, 64, 0.0, 0.0);
    s.regularizers[0].lambda.reset();
    s.regularization.method = project::LambdaMethod::Discrepancy;
    s.regularization.lambda_max = 1e9;
    s.regularization.path_factor = 1.01;  // 64 tries stay far above the dirty peak
    const testing::PipelineRun run = testing::runImagingPipeline(s);
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    QVERIFY(run.products->lambda_path.empty());
    QCOMPARE(run.products->auto_lambda, 1e9 / std::pow(1.01, 63));
    const auto said = [&](const char* text) {
      for (const auto& w : run.products->warnings)
        if (w.find(text) != std::string::npos)
          return true;
      return false;
    };
    QVERIFY(said("no step reported a fit"));
    // And after the run, why its model is empty (run_diagnosis.h).
    QVERIFY(said("the model is empty: L1 at lambda"));
  }

  void schemaOneFilesKeepTheirObjective() {
    // A schema-1 file: lambda in the units of chi2 = sum w |r|^2.
    const std::string text =
        "{\"schema_version\": 1, \"application\": \"apertura\", \"data\": {\"path\": \"" + base_ +
        "\"}, \"imaging\": {\"nx\": 64, \"ny\": 64}, \"regularizers\": [{\"type\": \"l1\", "
        "\"lambda\": 3}], \"optimizer\": {\"max_iterations\": 30}}";
    const project::ProjectSettings v1 = project::projectFromJson(text, "", "old.apertura");
    QCOMPARE(v1.regularization.scaling, project::ObjectiveScaling::None);
    QVERIFY(v1.migration_note.find("schema 1") != std::string::npos);
    // Saved, it is schema 2 and says so; read back, it is the same project.
    const std::string saved = project::projectToJson(v1, "");
    QVERIFY(saved.find("\"schema_version\": 2") != std::string::npos);
    QVERIFY(saved.find("\"scaling\": \"none\"") != std::string::npos);
    const project::ProjectSettings v2 = project::projectFromJson(saved, "", "new.apertura");
    QVERIFY(v2.migration_note.empty());
    QCOMPARE(v2.regularization.scaling, project::ObjectiveScaling::None);

    const testing::PipelineRun a = testing::runImagingPipeline(v1);
    const testing::PipelineRun b = testing::runImagingPipeline(v2);
    QVERIFY2(a.finished(), a.outcome.message.c_str());
    QVERIFY2(b.finished(), b.outcome.message.c_str());
    QVERIFY(!a.products->metrics.empty() && !a.products->metrics.front().terms.empty());
    QVERIFY(a.products->model == b.products->model);
    // The unscaled objective: its chi2 term is sum w |r|^2, reported per degree of freedom.
    const auto& m = a.products->metrics.front();
    QCOMPARE(m.terms.front().first, std::string("chi2"));
    QVERIFY(
        std::fabs(m.terms.front().second / (2.0 * double(a.products->samples)) / m.chi2_per_dof -
                  1.0) < 0.05);
    // Normalised, the same lambda means something else: another image.
    project::ProjectSettings normalised = v1;
    normalised.regularization.scaling = project::ObjectiveScaling::Normalised;
    const testing::PipelineRun c = testing::runImagingPipeline(normalised);
    QVERIFY(c.finished());
    QVERIFY(!c.products->metrics.empty());
    QVERIFY(c.products->model != a.products->model);
    QVERIFY(std::fabs(c.products->metrics.front().terms.front().second -
                      c.products->metrics.front().chi2_per_dof) < 1e-12);
  }

 private:
  QTemporaryDir dir_;
  std::string base_;
  double cell_arcsec_ = 0.0;
  double base_optimum_ = 0.0;
};

QTEST_GUILESS_MAIN(TestNormalisedObjective)
#include "test_normalised_objective.moc"
