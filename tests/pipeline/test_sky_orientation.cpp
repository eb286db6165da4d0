// The sign convention of uvw decides whether images come out mirrored, and a mirrored image looks
// just as plausible as the right one. Two checks that cannot be fooled by a self-consistent
// simulator and imager: a real jet whose direction is known, and WSClean on our simulated data.
#include <QCoreApplication>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstdlib>

#include "core/imaging/dirty_mapper.h"
#include "core/io/fits_image_io.h"
#include "core/io/visibility_source_factory.h"
#include "core/sim/simulation_request.h"
#include "tests/support/shared_data.h"

using namespace apertura;

class TestSkyOrientation : public QObject {
  Q_OBJECT
 private slots:
  // MOJAVE VLBA 8 GHz of M87: the jet leaves the core towards position angle about -70 deg
  // (west-northwest), i.e. to the right (+x, RA decreasing) and up (+y) of the peak.
  void m87JetPointsWestNorthwest() {
    const QString data = testing::sharedDataDir();
    if (data.isEmpty())
      QSKIP("../shared/data is absent");
    auto source = openVisibilitySource((data + "/vlba_mojave/mojave.uvfits").toStdString(), {});
    std::vector<VisibilityChunk> chunks;
    VisibilityChunk c;
    while (source->next(c))
      chunks.push_back(c);
    std::vector<const VisibilityChunk*> ptrs;
    for (const auto& x : chunks)
      ptrs.push_back(&x);
    imaging::DirtyImageSettings s;
    s.geometry = imaging::ImageGeometry::fromCell(256, 256, 0.2e-3 / 206264.806);
    s.weighting = imaging::WeightingSettings::parse("uniform");
    const auto r = imaging::makeDirtyImage(ptrs, s);
    std::size_t peak = 0;
    for (std::size_t i = 0; i < r.dirty.size(); ++i) {
      if (r.dirty[i] > r.dirty[peak])
        peak = i;
    }
    double sx = 0, sy = 0, sw = 0;
    for (std::size_t i = 0; i < r.dirty.size(); ++i) {
      if (r.dirty[i] < 0.15f * r.dirty[peak])
        continue;
      sx += r.dirty[i] * double(int(i % 256) - int(peak % 256));
      sy += r.dirty[i] * double(int(i / 256) - int(peak / 256));
      sw += r.dirty[i];
    }
    qInfo("emission centroid offset from the core: %.2f px west, %.2f px north", sx / sw, sy / sw);
    QVERIFY2(sx / sw > 0.5, "the jet is not west of the core: image mirrored?");
    QVERIFY2(sy / sw > 0.0, "the jet is not north of the core: image mirrored?");
  }

  // WSClean (when installed) images our simulated source where we put it.
  void wscleanSeesTheSimulatedSourceInPlace() {
    if (std::system("command -v wsclean > /dev/null 2>&1") != 0) {
      QSKIP("wsclean is not installed (external reference)");
    }
    QTemporaryDir dir;
    sim::SimulationRequest req;
    req.points = {"1,0.9,0.6"};  // 6 cells east, 4 north at 0.15 arcsec
    req.ra = "68.75";
    req.dec = "-28.6";
    req.hours = 0.5;
    req.integration_s = 120.0;
    req.output = (dir.path() + "/sim.ms").toStdString();
    sim::runSimulation(req);
    const std::string cmd = "cd " + dir.path().toStdString() +
                            " && wsclean -quiet -size 128 128 -scale 0.15asec -niter 0 -name ws "
                            "sim.ms > wsclean.log 2>&1";
    QCOMPARE(std::system(cmd.c_str()), 0);
    const FitsImage img = readFitsImage(dir.path().toStdString() + "/ws-dirty.fits");
    std::size_t peak = 0;
    for (std::size_t i = 0; i < img.pixels.size(); ++i) {
      if (img.pixels[i] > img.pixels[peak])
        peak = i;
    }
    QCOMPARE(int(peak % 128), 64 - 6);  // RA increases to the left
    QCOMPARE(int(peak / 128), 64 + 4);
    QVERIFY(std::fabs(img.pixels[peak] - 1.0) < 0.05);
  }
};

QTEST_GUILESS_MAIN(TestSkyOrientation)
#include "test_sky_orientation.moc"
