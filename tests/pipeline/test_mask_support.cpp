// A user mask holds model pixels outside it at exactly zero, for gradient and proximal solvers,
// while the flux inside still fits the data. Two point sources, the mask around one of them.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/pipeline/mask_raster.h"
#include "core/project/project_settings.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kCellArcsec = 0.15;
constexpr int kSize = 64;
// Source A (1 Jy) 6 cells east and 4 north of the centre: pixel (26, 36) with RA to the left;
// source B (0.8 Jy) 8 cells west and 6 south: pixel (40, 26).
constexpr int kAx = kSize / 2 - 6, kAy = kSize / 2 + 4;
constexpr int kBx = kSize / 2 + 8, kBy = kSize / 2 - 6;

double boxFlux(const std::vector<double>& img, int cx, int cy) {
  double flux = 0.0;
  for (int y = cy - 2; y <= cy + 2; ++y) {
    for (int x = cx - 2; x <= cx + 2; ++x)
      flux += img[std::size_t(y) * kSize + x];
  }
  return flux;
}

}  // namespace

class TestMaskSupport : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = dir_.path().toStdString() + "/two.ms";
    sim::SkyModel sky;
    sky.reference_frequency_hz = 230e9;
    sky.points.push_back({1.0, 6 * kCellArcsec * kArcsec, 4 * kCellArcsec * kArcsec, 0.0});
    sky.points.push_back({0.8, -8 * kCellArcsec * kArcsec, -6 * kCellArcsec * kArcsec, 0.0});
    sim::ObservationSpec spec = testing::almaTestObservation();
    spec.ra_rad = 1.2;
    spec.seed = 11;
    testing::simulateAlmaCompactMs(ms_, sky, spec);
  }

  void solversHoldPixelsOutsideTheMaskAtZero_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("second_term");
    QTest::addColumn<bool>("masked");
    QTest::addColumn<bool>("support");  // optimizer.mask_support
    QTest::newRow("lbfgs-l1-masked") << "lbfgs"
                                     << "tsv" << true << true;
    QTest::newRow("fista-l1-tv-masked") << "fista"
                                        << "tv" << true << true;
    QTest::newRow("lbfgs-unmasked") << "lbfgs"
                                    << "tsv" << false << true;
    // Regions kept but not the support (the GUI's unchecked "Use mask"): B stays in the model.
    QTest::newRow("lbfgs-regions-not-support") << "lbfgs"
                                               << "tsv" << true << false;
  }

  void solversHoldPixelsOutsideTheMaskAtZero() {
    QFETCH(QString, method);
    QFETCH(QString, second_term);
    QFETCH(bool, masked);
    QFETCH(bool, support);
    project::ProjectSettings s;
    s.data.path = ms_;
    s.imaging.nx = s.imaging.ny = kSize;
    s.imaging.cell_arcsec = kCellArcsec;
    s.weighting.scheme = apertura::imaging::WeightingScheme::Natural;
    s.regularizers = {{"l1", 1e-3, true, {}}, {second_term.toStdString(), 1e-5, true, {}}};
    s.optimizer.setMethod(method.toStdString());
    s.optimizer.max_iterations = 60;
    s.optimizer.relative_tolerance = 1e-12;
    s.output = {};
    s.output.prefix = dir_.path().toStdString() + "/" + method.toStdString();
    s.output.dirty = s.output.psf = s.output.model = s.output.residual = s.output.restored = false;
    s.output.metrics_csv = false;
    if (masked)
      s.mask = {{"rectangle", false, {kAx - 6.0, kAy - 6.0, kAx + 6.0, kAy + 6.0}}};
    s.optimizer.mask_support = support;
    if (!support)  // nor the terms: only the regions are left
      s.regularizers = {{"l1", 1e-3, false, {}}, {second_term.toStdString(), 1e-5, false, {}}};

    const testing::PipelineRun run = testing::runImagingPipeline(s);
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    const auto& products = run.products;
    QCOMPARE(products->model.size(), std::size_t(kSize * kSize));

    // Source A is inside the mask either way and keeps about its flux.
    const double flux_a = boxFlux(products->model, kAx, kAy);
    QVERIFY2(std::abs(flux_a - 1.0) < 0.25, qPrintable(QString::number(flux_a)));
    const double flux_b = boxFlux(products->model, kBx, kBy);
    if (!masked || !support) {
      // The control: without a mask (or with regions that are not the support) source B is in
      // the model.
      QVERIFY2(flux_b > 0.5, qPrintable(QString::number(flux_b)));
      return;
    }
    const auto mask = pipeline::rasterizeMask(s.mask, kSize, kSize);
    int outside = 0, nonzero_outside = 0;
    for (std::size_t k = 0; k < mask.size(); ++k) {
      if (mask[k] == 0.0) {
        ++outside;
        nonzero_outside += products->model[k] != 0.0 ? 1 : 0;
      }
    }
    QCOMPARE(outside, kSize * kSize - 13 * 13);
    QCOMPARE(nonzero_outside, 0);
    QCOMPARE(flux_b, 0.0);
  }

 private:
  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestMaskSupport)
#include "test_mask_support.moc"
