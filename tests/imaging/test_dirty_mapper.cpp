// Dirty image, PSF and clean-beam fit: flux and position of point sources, the PSF as the dirty
// image of a unit source, and the beam fit on known elliptical Gaussians.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/imaging/dirty_mapper.h"
#include "tests/imaging/dft_reference.h"

using namespace apertura;
using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

// A chunk of random baselines observing point sources (l, m, flux) with w = 0 (no w-term).
VisibilityChunk pointSourceChunk(const ImageGeometry& g,
                                 const std::vector<std::array<double, 3>>& src,
                                 std::vector<double> freq, std::size_t rows, unsigned seed) {
  std::mt19937 rng(seed);
  TestBlock b = randomBlock(rng, g, rows, std::move(freq), 0.8);
  VisibilityChunk c;
  c.frequencies_hz = b.freq;
  c.uvw_m = b.uvw;
  std::uniform_real_distribution<float> wd(0.5f, 2.0f);
  for (std::size_t s = 0; s < b.samples(); ++s) {
    double u, v, w;
    b.position(s, u, v, w);
    std::complex<double> vis = 0;
    for (const auto& p : src)
      vis += p[2] * std::polar(1.0, -2.0 * M_PI * (u * p[0] + v * p[1]));
    c.visibilities.emplace_back(vis);
    c.weights.push_back(wd(rng));
  }
  c.weights[3] = 0.0f;  // a flagged sample
  return c;
}

DirtyImageSettings settings(const ImageGeometry& g, const std::string& weighting) {
  DirtyImageSettings s;
  s.geometry = g;
  s.op.epsilon = 1e-5;
  s.op.threads = 2;
  s.weighting = WeightingSettings::parse(weighting);
  return s;
}

}  // namespace

class TestDirtyMapper : public QObject {
  Q_OBJECT
 private slots:
  // A 2.5 Jy source 6 pixels East and 4 North of the phase centre: East is towards smaller ix
  // (RA increases to the left), North towards larger iy.
  void pointSourceOffCentre_data() {
    QTest::addColumn<QString>("weighting");
    QTest::newRow("natural") << "natural";
    QTest::newRow("uniform") << "uniform";
    QTest::newRow("briggs") << "briggs:0.5";
  }
  void pointSourceOffCentre() {
    QFETCH(QString, weighting);
    const auto g = ImageGeometry::fromCell(64, 48, 3.0 * kArcsec);
    const double cell = 3.0 * kArcsec;
    const auto chunk = pointSourceChunk(g, {{6 * cell, 4 * cell, 2.5}}, {1.0e9, 1.3e9}, 400, 1);
    const auto r = makeDirtyImage({&chunk}, settings(g, weighting.toStdString()));
    const auto peak = std::max_element(r.dirty.begin(), r.dirty.end()) - r.dirty.begin();
    QCOMPARE(int(peak % g.nx), g.nx / 2 - 6);
    QCOMPARE(int(peak / g.nx), g.ny / 2 + 4);
    QVERIFY2(std::abs(r.dirty[peak] - 2.5) < 2.5e-4, qPrintable(QString::number(r.dirty[peak])));
    QCOMPARE(r.samples, chunk.visibilities.size() - 1);
    QCOMPARE(r.psf[std::size_t(g.ny / 2) * g.nx + g.nx / 2], 1.0f);
  }
  // Two sources: the dirty image is their sum of shifted PSFs (linearity, and the PSF's shape).
  void dirtyIsSumOfShiftedPsfs() {
    const auto g = ImageGeometry::fromCell(64, 64, 4.0 * kArcsec);
    const double cell = 4.0 * kArcsec;
    const auto chunk =
        pointSourceChunk(g, {{0, 0, 1.0}, {-8 * cell, 5 * cell, 0.5}}, {1.4e9}, 300, 2);
    const auto r = makeDirtyImage({&chunk}, settings(g, "natural"));
    double maxdiff = 0;
    for (int iy = 16; iy < 48; ++iy)
      for (int ix = 16; ix < 40; ++ix) {
        // source 2 sits at (ix, iy) = (nx/2 + 8, ny/2 + 5); PSF is even, so psf(-d) = psf(d)
        const double want =
            r.psf[std::size_t(iy) * g.nx + ix] + 0.5 * r.psf[std::size_t(iy - 5) * g.nx + (ix - 8)];
        maxdiff = std::max(maxdiff, std::abs(want - r.dirty[std::size_t(iy) * g.nx + ix]));
      }
    QVERIFY2(maxdiff < 1e-4, qPrintable(QString::number(maxdiff)));
  }
  // Natural weighting: the PSF equals the dirty image of a 1 Jy source at the phase centre.
  void psfIsDirtyImageOfUnitSource() {
    const auto g = ImageGeometry::fromCell(48, 48, 5.0 * kArcsec);
    const auto chunk = pointSourceChunk(g, {{0, 0, 1.0}}, {1.0e9, 1.2e9, 1.4e9}, 200, 3);
    const auto r = makeDirtyImage({&chunk}, settings(g, "natural"));
    double maxdiff = 0;
    for (std::size_t p = 0; p < r.psf.size(); ++p)
      maxdiff = std::max(maxdiff, double(std::abs(r.psf[p] - r.dirty[p])));
    QVERIFY2(maxdiff < 1e-5, qPrintable(QString::number(maxdiff)));
    // The dirty image against the direct sum at a few pixels.
    TestBlock b{chunk.uvw_m, chunk.frequencies_hz};
    for (int ix : {10, 24, 30})
      for (int iy : {5, 24, 40}) {
        double num = 0;
        for (std::size_t s = 0; s < b.samples(); ++s) {
          double u, v, w;
          b.position(s, u, v, w);
          num += chunk.weights[s] *
                 std::real(std::complex<double>(chunk.visibilities[s]) *
                           std::polar(1.0, 2.0 * M_PI * (u * g.l(ix) + v * g.m(iy))));
        }
        QVERIFY(std::abs(num / r.sum_weights - r.dirty[std::size_t(iy) * g.nx + ix]) < 1e-5);
      }
  }
  void beamFitRecoversEllipticalGaussian_data() {
    QTest::addColumn<double>("bmaj");
    QTest::addColumn<double>("bmin");
    QTest::addColumn<double>("bpa");
    QTest::newRow("round") << 12.0 << 12.0 << 0.0;
    QTest::newRow("pa 30") << 20.0 << 9.0 << 30.0;
    QTest::newRow("pa -60") << 15.0 << 6.0 << -60.0;
    QTest::newRow("pa 90") << 14.0 << 7.0 << 90.0;
    QTest::newRow("undersampled") << 4.0 << 2.5 << 45.0;
  }
  void beamFitRecoversEllipticalGaussian() {
    QFETCH(double, bmaj);
    QFETCH(double, bmin);
    QFETCH(double, bpa);
    const auto g = ImageGeometry::fromCell(64, 64, 2.0 * kArcsec);
    const CleanBeam truth{bmaj * kArcsec, bmin * kArcsec, bpa * M_PI / 180.0};
    const CleanBeam fit = fitCleanBeam(gaussianBeamImage(truth, g), g);
    QVERIFY2(std::abs(fit.bmaj / truth.bmaj - 1) < 1e-3,
             qPrintable(QString::number(fit.bmaj / kArcsec)));
    QVERIFY2(std::abs(fit.bmin / truth.bmin - 1) < 1e-3,
             qPrintable(QString::number(fit.bmin / kArcsec)));
    if (bmaj != bmin) {
      double dpa = std::remainder(fit.bpa - truth.bpa, M_PI);
      QVERIFY2(std::abs(dpa) < 1e-3, qPrintable(QString::number(fit.bpa * 180 / M_PI)));
    }
  }
  // The PSF of an east-west-only array is elongated north-south: BPA ~ 0.
  void beamOfEastWestArray() {
    const auto g = ImageGeometry::fromCell(128, 128, 2.0 * kArcsec);
    std::mt19937 rng(9);
    auto chunk = pointSourceChunk(g, {{0, 0, 1.0}}, {1.4e9}, 300, 4);
    std::uniform_real_distribution<double> d(-1, 1);
    for (std::size_t r = 0; r < chunk.num_rows(); ++r)
      chunk.uvw_m[3 * r + 1] *= 0.3;
    const auto res = makeDirtyImage({&chunk}, settings(g, "natural"));
    QVERIFY(res.beam.bmaj > 2.0 * res.beam.bmin);
    QVERIFY2(std::abs(res.beam.bpa) < 5.0 * M_PI / 180.0,
             qPrintable(QString::number(res.beam.bpa * 180 / M_PI)));
  }
};

QTEST_GUILESS_MAIN(TestDirtyMapper)
#include "test_dirty_mapper.moc"
