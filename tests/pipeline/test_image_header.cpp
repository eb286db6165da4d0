// The FITS header shared by a run's outputs and the snapshots apertura-cli writes during a run:
// both put the phase centre at pixel (nx/2, ny/2) with the engine's cells, and each carries its
// own unit, provenance and observation keywords.
#include <QtTest>
#include <cmath>
#include <tuple>

#include "core/pipeline/image_header.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);

pipeline::ImagingProducts products() {
  pipeline::ImagingProducts p;
  p.geometry = imaging::ImageGeometry{33, 20, -0.25 * kArcsec, 0.5 * kArcsec};
  p.phase_centre_ra_rad = 1.25;
  p.phase_centre_dec_rad = -0.5;
  p.object = "DEMO_DISK";
  p.telescope = "VLA";
  p.start_time_mjd_s = 60369.0 * 86400.0 + 3723.5;
  return p;
}

engine::ImageSnapshot snapshot() {
  engine::ImageSnapshot s;
  s.name = "residual";
  s.iteration = 7;
  s.nx = 33;
  s.ny = 20;
  s.unit = "Jy/beam";
  s.cell_x_rad = -0.25 * kArcsec;
  s.cell_y_rad = 0.5 * kArcsec;
  s.ref_ra_rad = 1.25;
  s.ref_dec_rad = -0.5;
  return s;
}

}  // namespace

class TestImageHeader : public QObject {
  Q_OBJECT
 private slots:
  void runOutput() {
    const FitsImage f = pipeline::imageHeader(products(), "JY/BEAM", {"line 1", "line 2"});
    QCOMPARE(f.nx, 33);
    QCOMPARE(f.ny, 20);
    // Odd sizes: the phase centre is pixel 16 (integer nx/2), as the operator puts it.
    QCOMPARE(f.ref_pixel_x, 16.0);
    QCOMPARE(f.ref_pixel_y, 10.0);
    QCOMPARE(f.cell_x_rad, -0.25 * kArcsec);
    QCOMPARE(f.cell_y_rad, 0.5 * kArcsec);
    QCOMPARE(f.ref_ra_rad, 1.25);
    QCOMPARE(f.ref_dec_rad, -0.5);
    QCOMPARE(QString::fromStdString(f.bunit), QString("JY/BEAM"));
    QCOMPARE(QString::fromStdString(f.object), QString("DEMO_DISK"));
    QCOMPARE(QString::fromStdString(f.telescope), QString("VLA"));
    QCOMPARE(QString::fromStdString(f.date_obs), QString("2024-02-29T01:02:03.500"));
    QCOMPARE(f.history.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(f.history[1]), QString("line 2"));
    QVERIFY(f.pixels.empty());
    QVERIFY(!f.beam);
  }
  void runOutputWithoutStartTime() {
    pipeline::ImagingProducts p = products();
    p.start_time_mjd_s = 0.0;
    QVERIFY(pipeline::imageHeader(p, "", {}).date_obs.empty());
  }
  void snapshotMatchesRunGrid() {
    const FitsImage run = pipeline::imageHeader(products(), "JY/BEAM", {});
    const FitsImage snap = pipeline::snapshotHeader(snapshot());
    const auto grid = [](const FitsImage& f) {
      return std::make_tuple(f.nx, f.ny, f.ref_pixel_x, f.ref_pixel_y, f.cell_x_rad, f.cell_y_rad,
                             f.ref_ra_rad, f.ref_dec_rad, f.projection);
    };
    QVERIFY(grid(snap) == grid(run));
    // The engine's "Jy/beam" in FITS spelling; one HISTORY card naming image and iteration.
    QCOMPARE(QString::fromStdString(snap.bunit), QString("JY/BEAM"));
    QCOMPARE(snap.history.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(snap.history[0]),
             QString("Apertura snapshot: residual at iteration 7"));
    QVERIFY(snap.date_obs.empty());
  }
  void snapshotUnits() {
    engine::ImageSnapshot s = snapshot();
    s.unit = "Jy/pixel";
    QCOMPARE(QString::fromStdString(pipeline::snapshotHeader(s).bunit), QString("JY/PIXEL"));
    s.unit.clear();  // the PSF
    QVERIFY(pipeline::snapshotHeader(s).bunit.empty());
  }
};

QTEST_GUILESS_MAIN(TestImageHeader)
#include "test_image_header.moc"
