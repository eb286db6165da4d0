// A regularizer acting on some planes of a cube only (regularizers[i].planes, issue #13), end to
// end on a simulated three-channel observation of a point source: a strong L1 term listed for
// plane 0 alone shrinks plane 0's flux and leaves planes 1 and 2 as a run without it images them
// (the same term on every plane shrinks them all); a plane past the cube's last is refused by
// name before any imaging.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/pipeline/imaging_products.h"
#include "tests/support/cube_point_source.h"
#include "tests/support/pipeline_run.h"

using namespace apertura;
using namespace apertura::testing::cube_point;

namespace {

// Largest pixel difference of plane k between two runs, relative to the plane's peak.
double planeDifference(const pipeline::ImagingProducts& a, const pipeline::ImagingProducts& b,
                       int k) {
  const std::size_t npix = kSize * kSize, offset = std::size_t(k) * npix;
  double diff = 0.0, peak = 0.0;
  for (std::size_t p = offset; p < offset + npix; ++p) {
    diff = std::max(diff, std::fabs(a.model[p] - b.model[p]));
    peak = std::max(peak, std::fabs(a.model[p]));
  }
  return diff / peak;
}

}  // namespace

class TestCubePlaneSelection : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = simulate(dir_.path().toStdString() + "/planes.ms", 0.0);
  }

  project::ProjectSettings cubeSettings() const {
    project::ProjectSettings s = testing::cube_point::cubeSettings(ms_);
    // An L2 term keeps the problem well conditioned, so every run converges (stops on the
    // relative tolerance) and planes can be compared between runs.
    s.regularizers = {{"l2", 1e5, false, {}}};
    s.optimizer.max_iterations = 800;
    s.optimizer.relative_tolerance = 1e-14;
    s.optimizer.gradient_tolerance = 0.0;
    s.output.dirty = s.output.psf = s.output.model = false;
    s.output.residual = s.output.restored = s.output.metrics_csv = false;
    return s;
  }

  void termOnPlaneZeroLeavesTheOthers() {
    project::ProjectSettings s = cubeSettings();
    const testing::PipelineRun free = testing::runImagingPipeline(s);
    QVERIFY2(free.finished(), free.outcome.message.c_str());
    // A strong L1 (smoothed: L-BFGS then converges on every plane; an unsmoothed one stalls the
    // joint line search early) on plane 0 only, then on every plane.
    s.regularizers.push_back({"l1", 3e6, false, {{"epsilon", 1e-3}}, {0}});
    const testing::PipelineRun plane0 = testing::runImagingPipeline(s);
    QVERIFY2(plane0.finished(), plane0.outcome.message.c_str());
    s.regularizers.back().planes.clear();
    const testing::PipelineRun every = testing::runImagingPipeline(s);
    QVERIFY2(every.finished(), every.outcome.message.c_str());
    for (const auto* run : {&free, &plane0, &every}) {
      QCOMPARE(run->products->planes, 3);
      QVERIFY2(run->products->iterations < 800, "a run did not converge");
    }
    const auto& a = *free.products;
    const auto& b = *plane0.products;
    const auto& c = *every.products;
    const auto info = [&](int k) {
      return qPrintable(QString("plane %1: %2 Jy without the term, %3 with it on plane 0, %4 on "
                                "every plane; pixels differ by %5 of the peak")
                            .arg(k)
                            .arg(planeFlux(a, k), 0, 'g', 9)
                            .arg(planeFlux(b, k), 0, 'g', 9)
                            .arg(planeFlux(c, k), 0, 'g', 9)
                            .arg(planeDifference(a, b, k)));
    };
    // Plane 0 loses flux, as much as when every plane has the term (the planes are independent).
    QVERIFY2(planeFlux(b, 0) < 0.9 * planeFlux(a, 0), info(0));
    QVERIFY2(std::fabs(planeFlux(b, 0) / planeFlux(c, 0) - 1.0) < 1e-3, info(0));
    for (int k : {1, 2}) {
      // Planes 1 and 2 are imaged as without the term (to the runs' convergence), whereas the
      // term on every plane shrinks them as it shrinks plane 0.
      QVERIFY2(std::fabs(planeFlux(b, k) / planeFlux(a, k) - 1.0) < 1e-3, info(k));
      QVERIFY2(planeDifference(a, b, k) < 0.02, info(k));
      QVERIFY2(planeFlux(c, k) < 0.9 * planeFlux(a, k), info(k));
    }
  }

  void planePastTheCubeIsRefused() {
    project::ProjectSettings s = cubeSettings();
    s.regularizers.push_back({"tsv-spectral", 1e-3, false, {}, {1, 3}});
    const testing::PipelineRun run = testing::runImagingPipeline(s);
    QVERIFY(run.outcome.state == engine::RunState::Failed);
    const std::string& m = run.outcome.message;
    QVERIFY2(m.find("regularizers[1].planes") != std::string::npos &&
                 m.find("plane 3") != std::string::npos && m.find("3 planes") != std::string::npos,
             m.c_str());
    QVERIFY(run.products->dirty.empty());  // refused before the first dirty image
  }

 private:
  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestCubePlaneSelection)
#include "test_cube_plane_selection.moc"
