// Dirty images against WSClean (an external reference, skipped when wsclean is not installed) on
// the shared VLA Measurement Set, with the same size, cell and weighting. WSClean grids with
// padding 2 here, like our default oversampling, and computes uniform/Briggs densities on the
// padded grid, which is our weighting field of view 0.5 (`--super-uniform 0.5`).
//
// WSClean by default also clips uniform/Briggs weights above 3 times their local mean
// (`-weighting-rank-filter 3`, a WSClean extension; plain uniform weighting, ours, has no such
// filter). On this data set that clips the few isolated, highest-weighted samples (0.2% of them)
// and moves the uniform image by 1.65% of the peak, so the filter is turned off (level 0) here.
//
// WSClean's own gridding error grows towards the image edge (its kernel is tuned for the centre
// and the aliasing suppression falls off outwards; ours is held to epsilon everywhere, see
// test_operator_accuracy), so the 1%-of-peak requirement is asserted on the inner 3/4 of the
// image and the whole-image figure is held to 3%.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <casacore/casa/Arrays/Array.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/Table.h>

#include <cmath>

#include "core/imaging/weighting.h"
#include "core/io/fits_image_io.h"
#include "tests/support/shared_data.h"

using namespace apertura;

namespace {

constexpr int kSize = 256;

bool haveWsclean() {
  QProcess p;
  p.start("wsclean", {"-version"});
  return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit;
}

QString run(const QString& program, const QStringList& args, const QString& dir) {
  QProcess p;
  p.setWorkingDirectory(dir);
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(program, args);
  if (!p.waitForFinished(300000) || p.exitCode() != 0)
    return QString::fromLocal8Bit(p.readAll()) + "\n(exit " + QString::number(p.exitCode()) + ")";
  return QString();
}

}  // namespace

class TestWscleanAgreement : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!haveWsclean())
      QSKIP("wsclean is not installed (external reference)");
    const QString data = testing::sharedDataDir();
    const QString ms = data + "/vla_day2_tdem0003/day2_TDEM0003_10s_norx_1src_1spw.ms";
    if (data.isEmpty() || !QFileInfo::exists(ms))
      QSKIP("shared VLA data set not found");
    QVERIFY(dir_.isValid());
    // WSClean may add columns to the MS it reads: give it a copy, never the shared original.
    QCOMPARE(QProcess::execute("cp", {"-r", ms, dir_.path() + "/vla.ms"}), 0);
  }

  void dirtyImagesAgree_data() {
    QTest::addColumn<QString>("ours");
    QTest::addColumn<QStringList>("theirs");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("natural") << "natural" << QStringList{"natural"} << 0.01;
    QTest::newRow("briggs 0.5") << "briggs:0.5" << QStringList{"briggs", "0.5"} << 0.01;
    QTest::newRow("briggs -1") << "briggs:-1" << QStringList{"briggs", "-1"} << 0.01;
    QTest::newRow("uniform") << "uniform" << QStringList{"uniform"} << 0.01;
  }
  void dirtyImagesAgree() {
    QFETCH(QString, ours);
    QFETCH(QStringList, theirs);
    QFETCH(double, tolerance);
    const QString tag = QString(QTest::currentDataTag()).replace(' ', '_');
    QString err =
        run(APERTURA_CLI,
            {"dirty", "vla.ms", "--size", QString::number(kSize), "--cell", "0.5", "--weight", ours,
             "--super-uniform", "0.5", "--oversampling", "2", "-o", "ap_" + tag},
            dir_.path());
    QVERIFY2(err.isEmpty(), qPrintable(err));
    err = run("wsclean",
              QStringList{"-quiet", "-size", QString::number(kSize), QString::number(kSize),
                          "-scale", "0.5asec", "-padding", "2", "-niter", "0",
                          "-weighting-rank-filter", "0", "-weight"} +
                  theirs + QStringList{"-name", "ws_" + tag, "vla.ms"},
              dir_.path());
    QVERIFY2(err.isEmpty(), qPrintable(err));
    const FitsImage a = readFitsImage((dir_.path() + "/ap_" + tag + "-dirty.fits").toStdString());
    const FitsImage b = readFitsImage((dir_.path() + "/ws_" + tag + "-dirty.fits").toStdString());
    QCOMPARE(a.nx, b.nx);
    QCOMPARE(a.ny, b.ny);
    double peak = 0.0;
    for (double v : b.pixels)
      peak = std::max(peak, std::fabs(v));
    double inner = 0.0, all = 0.0;
    const int border = kSize / 8;
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        const double d = std::fabs(a.at(x, y) - b.at(x, y)) / peak;
        all = std::max(all, d);
        if (x >= border && x < kSize - border && y >= border && y < kSize - border)
          inner = std::max(inner, d);
      }
    }
    qInfo("%s: max |ours - WSClean| / peak = %.4f (inner 3/4), %.4f (whole image)", qPrintable(tag),
          inner, all);
    QVERIFY2(inner < tolerance, qPrintable(QString("inner difference %1 of the peak").arg(inner)));
    QVERIFY2(all < 0.03, qPrintable(QString("whole-image difference %1 of the peak").arg(all)));
  }

  // Sample by sample: WSClean's stored uniform weights (-store-imaging-weights, rank filter off)
  // against ImagingWeighter on the same uvw, frequencies and data weights. This pins the density
  // grid's cell convention (cell size, floor edges, folding of (u, v) and (-u, -v)) exactly.
  void storedUniformWeightsAgree() {
    const QString ms = dir_.path() + "/weights.ms";
    QCOMPARE(QProcess::execute("cp", {"-r", dir_.path() + "/vla.ms", ms}), 0);
    const QString err =
        run("wsclean",
            {"-quiet", "-size", QString::number(kSize), QString::number(kSize), "-scale", "0.5asec",
             "-padding", "2", "-niter", "0", "-weighting-rank-filter", "0", "-weight", "uniform",
             "-store-imaging-weights", "-name", "ws_weights", ms},
            dir_.path());
    QVERIFY2(err.isEmpty(), qPrintable(err));

    casacore::Table table(ms.toStdString());
    casacore::Table spw(ms.toStdString() + "/SPECTRAL_WINDOW");
    const casacore::Array<double> chan = casacore::ArrayColumn<double>(spw, "CHAN_FREQ").get(0);
    const casacore::Array<double> uvw = casacore::ArrayColumn<double>(table, "UVW").getColumn();
    const casacore::Array<float> data_w =
        casacore::ArrayColumn<float>(table, "WEIGHT_SPECTRUM").getColumn();
    const casacore::Array<float> stored =
        casacore::ArrayColumn<float>(table, "IMAGING_WEIGHT_SPECTRUM").getColumn();
    const std::vector<double> freq(chan.begin(), chan.end()), uv(uvw.begin(), uvw.end());
    const std::size_t nrow = table.nrow(), nchan = freq.size(), ncorr = data_w.shape()[0];
    QCOMPARE(std::size_t(stored.shape()[0]), ncorr);
    // WSClean's Stokes I weight here is the lower of the XX and YY weights (XX <= YY in every
    // sample of this set, checked below); ours combine them as an inverse variance instead, so
    // this comparison feeds WSClean's data weights to both.
    const float* dw = data_w.data();
    const float* sw = stored.data();
    std::vector<float> w(nrow * nchan), theirs(nrow * nchan);
    for (std::size_t k = 0; k < w.size(); ++k) {
      QVERIFY(dw[k * ncorr] <= dw[k * ncorr + ncorr - 1]);
      w[k] = dw[k * ncorr];
      theirs[k] = sw[k * ncorr];
    }
    imaging::WeightingSettings settings;
    settings.scheme = imaging::WeightingScheme::Uniform;
    settings.super_uniform = 0.5;
    const imaging::UvwBlock block{uv.data(), nrow, freq.data(), nchan};
    const auto ours = imaging::imagingWeights(
        {block}, {w.data()},
        imaging::ImageGeometry::fromCell(kSize, kSize, 0.5 / 3600 * M_PI / 180), settings);
    // WSClean stores the density factor (our weight over the data weight) up to a global scale.
    double sum_ours = 0.0, sum_theirs = 0.0;
    for (std::size_t k = 0; k < w.size(); ++k) {
      sum_ours += ours[0][k] / w[k];
      sum_theirs += theirs[k];
    }
    std::size_t differ = 0;
    for (std::size_t k = 0; k < w.size(); ++k) {
      const double a = ours[0][k] / w[k] / sum_ours, b = theirs[k] / sum_theirs;
      if (std::fabs(a - b) > 1e-4 * std::max(a, b))
        ++differ;
    }
    qInfo("uniform weights: %zu of %zu samples differ from WSClean's by more than 0.01%%", differ,
          w.size());
    QCOMPARE(differ, std::size_t(0));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestWscleanAgreement)
#include "test_wsclean_agreement.moc"
