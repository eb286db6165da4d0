// `apertura-cli dirty` end to end on a simulated two-window observation: selection options, the
// combined (MFS) image and one image per spectral window with its own frequency and beam.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "core/io/fits_image_io.h"
#include "core/sim/array_layout.h"
#include "core/sim/simulator.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr int kSize = 64;
constexpr double kCell = 0.15;  // arcsec

struct Run {
  int code = -1;
  QString output;
};

Run cli(const QStringList& args) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(APERTURA_CLI, args);
  Run r;
  if (p.waitForFinished(120000))
    r.code = p.exitCode();
  r.output = QString::fromLocal8Bit(p.readAll());
  return r;
}

std::size_t peakIndex(const FitsImage& img) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < img.pixels.size(); ++i)
    if (img.pixels[i] > img.pixels[k])
      k = i;
  return k;
}

}  // namespace

class TestDirtyCommand : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = dir_.path() + "/two-spw.ms";
    sim::SkyModel sky;
    sky.reference_frequency_hz = 100e9;
    sky.points.push_back({1.0, 6 * kCell * kArcsec, -4 * kCell * kArcsec, 0.0});
    sim::ObservationSpec spec;
    spec.dec_rad = -0.5;
    spec.duration_h = 1.0;
    spec.integration_s = 120.0;
    // 100 GHz and 230 GHz: the windows' beams differ by more than a factor 2.
    spec.spectral_windows = {sim::SpectralWindowSpec{100e9, 50e6, 2},
                             sim::SpectralWindowSpec{230e9, 50e6, 2}};
    sim::simulateMeasurementSet(sky, sim::almaCompactLayout(), spec, ms_.toStdString(), false);
  }

  void perSpectralWindowImages() {
    const QString prefix = dir_.path() + "/img";
    const Run r = cli({"dirty", ms_, "--size", QString::number(kSize), "--cell",
                       QString::number(kCell), "--weight", "natural", "--per-spw", "-o", prefix});
    QVERIFY2(r.code == 0, qPrintable(r.output));
    const FitsImage mfs = readFitsImage((prefix + "-dirty.fits").toStdString());
    const FitsImage low = readFitsImage((prefix + "-spw0-dirty.fits").toStdString());
    const FitsImage high = readFitsImage((prefix + "-spw1-dirty.fits").toStdString());
    QVERIFY(QFileInfo::exists(prefix + "-spw1-psf.fits"));
    // Each window's image sits at its own frequency; the MFS image spans both.
    QVERIFY(std::fabs(low.frequency_hz - 100.025e9) < 1e3);
    QVERIFY(std::fabs(high.frequency_hz - 230.025e9) < 1e3);
    QVERIFY(std::fabs(mfs.frequency_hz - 165.025e9) < 1e3);
    // A flat-spectrum point source: every image puts 1 Jy/beam on its pixel (RA to the left).
    const std::size_t want = std::size_t(kSize / 2 - 4) * kSize + (kSize / 2 - 6);
    for (const FitsImage* img : {&mfs, &low, &high}) {
      QCOMPARE(peakIndex(*img), want);
      QVERIFY2(std::fabs(img->pixels[want] - 1.0) < 0.02,
               qPrintable(QString::number(img->pixels[want])));
    }
    // The beam scales with wavelength: 230 GHz is about 2.3 times sharper than 100 GHz.
    QVERIFY(low.beam && high.beam && mfs.beam);
    const double ratio = low.beam->major_fwhm_rad / high.beam->major_fwhm_rad;
    QVERIFY2(ratio > 1.9 && ratio < 2.7, qPrintable(QString::number(ratio)));
    QVERIFY(mfs.beam->major_fwhm_rad < low.beam->major_fwhm_rad);
    QVERIFY(mfs.beam->major_fwhm_rad > high.beam->major_fwhm_rad);
  }

  void selectionOptions() {
    const QString prefix = dir_.path() + "/sel";
    Run r = cli({"dirty", ms_, "--size", QString::number(kSize), "--cell", QString::number(kCell),
                 "--spw", "1", "--channels", "1:1", "--product", "XX", "-o", prefix});
    QVERIFY2(r.code == 0, qPrintable(r.output));
    const FitsImage one = readFitsImage((prefix + "-dirty.fits").toStdString());
    QVERIFY(std::fabs(one.frequency_hz - 230.05e9) < 1e3);  // second channel of window 1 only

    r = cli({"dirty", ms_, "--channels", "3:1", "-o", prefix});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.output.contains("--channels: expected START or START:END"), qPrintable(r.output));
    r = cli({"dirty", ms_, "--product", "ZZ", "-o", prefix});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.output.contains("unknown product 'ZZ'"), qPrintable(r.output));
    r = cli({"dirty", ms_, "--field", "4", "-o", prefix});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.output.contains("two-spw.ms") && r.output.contains("matches no"),
             qPrintable(r.output));
  }

 private:
  QTemporaryDir dir_;
  QString ms_;
};

QTEST_GUILESS_MAIN(TestDirtyCommand)
#include "test_dirty_command.moc"
