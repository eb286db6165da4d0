// Restoring: the clean-beam Gaussian (widths, orientation), the FFT convolution against a direct
// sum, and residual images / fit statistics against independent computations.
#include <QtTest>
#include <cmath>
#include <memory>

#include "core/imaging/beam_fit.h"
#include "core/rml/chi2_term.h"
#include "core/rml/fit_statistics.h"
#include "core/rml/restore.h"
#include "tests/rml/rml_test_support.h"

using namespace apertura;
using namespace apertura::rml;
using namespace apertura::rml::test;

class TestRmlRestore : public QObject {
  Q_OBJECT
 private slots:
  void beamHalfMaximumAlongAxes() {
    const double cell = 1e-5;
    const auto geometry = imaging::ImageGeometry::fromCell(64, 64, cell);
    const imaging::CleanBeam beam{8 * cell, 3 * cell, 30.0 * M_PI / 180.0};
    // Half the major axis along PA (east of north, +m towards +l); l = dx * cell_l (cell_l < 0).
    const double half = 0.5 * beam.bmaj;
    const double dx = half * std::sin(beam.bpa) / geometry.cell_l;
    const double dy = half * std::cos(beam.bpa) / geometry.cell_m;
    QVERIFY(std::abs(cleanBeamValue(beam, geometry, dx, dy) - 0.5) < 1e-14);
    const double mx = 0.5 * beam.bmin * std::cos(beam.bpa) / geometry.cell_l;
    const double my = -0.5 * beam.bmin * std::sin(beam.bpa) / geometry.cell_m;
    QVERIFY(std::abs(cleanBeamValue(beam, geometry, mx, my) - 0.5) < 1e-14);
    QCOMPARE(cleanBeamValue(beam, geometry, 0, 0), 1.0);
    // Same Gaussian as the imaging module's beam image (peak at nx/2, ny/2).
    const std::vector<float> reference = imaging::gaussianBeamImage(beam, geometry);
    double worst = 0.0;
    for (int y = 0; y < 64; ++y)
      for (int x = 0; x < 64; ++x)
        worst = std::max(worst, std::abs(reference[y * 64 + x] -
                                         cleanBeamValue(beam, geometry, x - 32, y - 32)));
    QVERIFY(worst < 1e-6);
  }

  void convolutionMatchesDirectSum() {
    const int nx = 14, ny = 11;
    const auto geometry = imaging::ImageGeometry::fromCell(nx, ny, 1.0);
    const imaging::CleanBeam beam{3.0, 1.7, 0.4};
    Random rng(40);
    const std::vector<double> model = rng.vector(nx * ny, -1.0, 1.0);
    const std::vector<double> fast = convolveWithCleanBeam(model, geometry, beam);
    double worst = 0.0;
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        double sum = 0.0;
        for (int y2 = 0; y2 < ny; ++y2)
          for (int x2 = 0; x2 < nx; ++x2)
            sum += model[y2 * nx + x2] * cleanBeamValue(beam, geometry, x - x2, y - y2);
        worst = std::max(worst, std::abs(sum - fast[y * nx + x]));
      }
    }
    QVERIFY(worst < 1e-12);
    // A 1 Jy point restores to a 1 Jy/beam peak; restored = convolved + residual.
    std::vector<double> point(nx * ny, 0.0), residual(nx * ny, 0.25);
    point[5 * nx + 7] = 1.0;
    const std::vector<double> restored = restoredImage(point, residual, geometry, beam);
    QVERIFY(std::abs(restored[5 * nx + 7] - 1.25) < 1e-12);
  }

  void residualImageAndStatistics() {
    Random rng(41);
    const SyntheticUv uv = randomUv(60, 50.0, rng);
    const auto geometry = imaging::ImageGeometry::fromCell(8, 8, 0.01);
    auto op =
        std::make_shared<DirectDftOperator>(geometry, std::vector<imaging::UvwBlock>{uv.block()});
    const std::vector<double> model = rng.vector(64, 0.0, 1.0);
    std::vector<std::vector<Complex>> predicted;
    op->forward(model.data(), predicted);
    // Data = model visibilities + a constant offset c: residuals are c everywhere.
    const Complex c(0.3, -0.2);
    VisibilityBlock b;
    double sum_w = 0.0;
    for (std::size_t k = 0; k < 60; ++k) {
      b.vis.push_back(predicted[0][k] + c);
      b.weights.push_back(k < 10 ? 0.0 : 1.0 + 0.1 * double(k % 5));
      sum_w += b.weights.back();
    }
    Chi2Term chi2(op, {b});
    std::vector<double> residual;
    const FitStatistics s = residualImage(chi2, model.data(), residual);
    QCOMPARE(s.num_samples, std::size_t(50));
    QVERIFY(std::abs(s.chi2 - sum_w * std::norm(c)) < 1e-10);
    QVERIFY(std::abs(s.chi2_per_dof - sum_w * std::norm(c) / 100.0) < 1e-12);
    QVERIFY(std::abs(s.residual_vis_rms - std::abs(c)) < 1e-12);
    // Residual image = sum_k w_k Re(c exp(+2 pi i (u l + v m))) / sum w, by a direct sum.
    for (int p : {0, 9, 36, 63}) {
      const double l = geometry.l(p % 8), m = geometry.m(p / 8);
      double expected = 0.0;
      for (std::size_t k = 0; k < 60; ++k) {
        const double phase = 2.0 * M_PI * (uv.uvw_m[3 * k] * l + uv.uvw_m[3 * k + 1] * m);
        expected += b.weights[k] * (c * Complex(std::cos(phase), std::sin(phase))).real();
      }
      QVERIFY(std::abs(residual[p] - expected / sum_w) < 1e-12);
    }
  }
};

QTEST_GUILESS_MAIN(TestRmlRestore)
#include "test_rml_restore.moc"
