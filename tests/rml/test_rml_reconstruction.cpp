// End-to-end RML imaging of a synthetic source (point + Gaussian, noise): the reconstruction must
// beat the dirty image and fit the data to the noise, through the direct DFT and the gridder.
#include <QtTest>
#include <cmath>
#include <memory>

#include "core/imaging/imaging_operator.h"
#include "core/rml/chi2_term.h"
#include "core/rml/fit_statistics.h"
#include "core/rml/gradient_regularizers.h"
#include "core/rml/imaging_operator_adapter.h"
#include "core/rml/lbfgs.h"
#include "core/rml/objective_function.h"
#include "core/rml/pixel_regularizers.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura;
using namespace apertura::rml;
using namespace apertura::rml::test;

namespace {

constexpr int kN = 32;
constexpr std::size_t kPixels = kN * kN;
constexpr double kSigma = 0.05;  // noise per real/imaginary part, Jy

std::vector<double> truthImage() {
  std::vector<double> t(kPixels, 0.0);
  t[12 * kN + 21] = 1.0;  // point source
  const double s = 2.0;   // Gaussian of 2 Jy, sigma 2 pixels
  for (int y = 0; y < kN; ++y) {
    for (int x = 0; x < kN; ++x) {
      const double r2 = (x - 11.0) * (x - 11.0) + (y - 19.0) * (y - 19.0);
      t[y * kN + x] += 2.0 * std::exp(-0.5 * r2 / (s * s)) / (2.0 * M_PI * s * s);
    }
  }
  return t;
}

// |x - truth| / |truth| after scaling x by the best factor (generous to the dirty image).
double bestScaledError(const std::vector<double>& x, const std::vector<double>& truth) {
  double xt = 0.0, xx = 0.0;
  for (std::size_t k = 0; k < x.size(); ++k)
    xt += x[k] * truth[k], xx += x[k] * x[k];
  std::vector<double> scaled = x;
  for (double& v : scaled)
    v *= xt / xx;
  return distance(scaled, truth) / norm(truth);
}

struct Outcome {
  std::vector<double> model;
  double model_error = 0.0;
  double dirty_error = 0.0;
  FitStatistics fit;
};

Outcome reconstruct(std::shared_ptr<MeasurementOperator> op,
                    const std::vector<VisibilityBlock>& data) {
  auto chi2 = std::make_shared<Chi2Term>(op, data);
  ObjectiveFunction objective(kPixels);
  objective.add(chi2);
  objective.add(std::make_shared<TotalSquaredVariation>(kN, kN), {400.0});
  objective.add(std::make_shared<L1Regularizer>(kN, kN, 1e-4), {100.0});
  LbfgsSettings s;
  s.positivity = true;
  s.stop.max_iterations = 500;
  s.stop.relative_tolerance = 1e-9;
  const OptimizerResult r = minimizeLbfgs(objective, std::vector<double>(kPixels, 0.0), s);
  qInfo("L-BFGS: %d iterations, %d evaluations, stop: %s", r.iterations, r.evaluations,
        toString(r.reason).c_str());

  Outcome o;
  o.model = r.x;
  const std::vector<double> truth = truthImage();
  o.model_error = distance(o.model, truth) / norm(truth);
  std::vector<double> dirty(kPixels), residual_image;
  std::vector<std::vector<Complex>> vis;
  for (const auto& b : data)
    vis.push_back(b.vis);
  chi2->dirtyImage(vis, dirty.data());
  o.dirty_error = bestScaledError(dirty, truth);
  o.fit = residualImage(*chi2, o.model.data(), residual_image);
  return o;
}

}  // namespace

class TestRmlReconstruction : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    Random rng(30);
    uv_ = randomUv(2000, 180.0, rng);
    geometry_ = imaging::ImageGeometry::fromCell(kN, kN, 1.0 / 540.0);
    auto dft =
        std::make_shared<DirectDftOperator>(geometry_, std::vector<imaging::UvwBlock>{uv_.block()});
    const std::vector<double> truth = truthImage();
    std::vector<std::vector<Complex>> model;
    dft->forward(truth.data(), model);
    VisibilityBlock b;
    for (std::size_t k = 0; k < model[0].size(); ++k) {
      b.vis.push_back(model[0][k] + Complex(kSigma * rng.normal(), kSigma * rng.normal()));
      b.weights.push_back(1.0 / (kSigma * kSigma));
    }
    data_ = {b};
    dft_ = dft;
  }

  void directDft() {
    const Outcome o = reconstruct(dft_, data_);
    qInfo("DFT: model error %.3f, dirty error %.3f, chi2/dof %.3f, residual image rms %.3g",
          o.model_error, o.dirty_error, o.fit.chi2_per_dof, o.fit.residual_image_rms);
    QVERIFY(o.model_error < 0.5 * o.dirty_error);
    QVERIFY(o.fit.chi2_per_dof > 0.85 && o.fit.chi2_per_dof < 1.2);
    QCOMPARE(o.fit.num_samples, std::size_t(2000));
    // The statistic itself: at the truth, chi2 / (2 N) = 1 within a few sqrt(1 / N).
    Chi2Term chi2(dft_, data_);
    std::vector<double> residual_image;
    const std::vector<double> truth = truthImage();
    const FitStatistics at_truth = residualImage(chi2, truth.data(), residual_image);
    qInfo("chi2/dof at the truth %.4f", at_truth.chi2_per_dof);
    QVERIFY(std::abs(at_truth.chi2_per_dof - 1.0) < 4.0 / std::sqrt(2000.0));
    QVERIFY(std::abs(at_truth.residual_vis_rms - kSigma * std::sqrt(2.0)) < 0.1 * kSigma);
    dft_model_ = o.model;
  }

  void griddingOperator() {
    imaging::OperatorSettings settings;
    settings.epsilon = 1e-7;
    auto op = imaging::makeCpuOperator<double>(geometry_, settings);
    const std::vector<imaging::UvwBlock> blocks{uv_.block()};
    op->setSamples(blocks);
    auto adapter = std::make_shared<ImagingOperatorAdapter<double>>(*op, blocks);
    // The adapter reproduces the DFT to the gridder's accuracy.
    std::vector<std::vector<Complex>> a, b;
    const std::vector<double> truth = truthImage();
    adapter->forward(truth.data(), a);
    dft_->forward(truth.data(), b);
    double err = 0.0, ref = 0.0;
    for (std::size_t k = 0; k < a[0].size(); ++k)
      err += std::norm(a[0][k] - b[0][k]), ref += std::norm(b[0][k]);
    qInfo("gridder vs DFT relative error %.2g", std::sqrt(err / ref));
    QVERIFY(std::sqrt(err / ref) < 1e-5);

    const Outcome o = reconstruct(adapter, data_);
    qInfo("gridder: model error %.3f, dirty error %.3f, chi2/dof %.3f", o.model_error,
          o.dirty_error, o.fit.chi2_per_dof);
    QVERIFY(o.model_error < 0.5 * o.dirty_error);
    QVERIFY(o.fit.chi2_per_dof > 0.85 && o.fit.chi2_per_dof < 1.2);
    if (!dft_model_.empty()) {
      const double diff = distance(o.model, dft_model_) / norm(dft_model_);
      qInfo("gridder vs DFT reconstruction difference %.2g", diff);
      QVERIFY(diff < 1e-3);
    }
  }

 private:
  SyntheticUv uv_;
  imaging::ImageGeometry geometry_;
  std::shared_ptr<DirectDftOperator> dft_;
  std::vector<VisibilityBlock> data_;
  std::vector<double> dft_model_;
};

QTEST_GUILESS_MAIN(TestRmlReconstruction)
#include "test_rml_reconstruction.moc"
