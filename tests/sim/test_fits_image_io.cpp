// FITS images: write/read round trips (pixels, WCS, BUNIT, beam, HISTORY), world coordinates
// against the SIN/TAN projection formulas, a CD matrix for the sky axes, and errors naming the
// file.
#include <fitsio.h>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/io/fits_image_io.h"
#include "core/sim/image_sky.h"
#include "core/util/input_error.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);

FitsImage sample() {
  FitsImage img;
  img.nx = 7;
  img.ny = 5;
  for (int i = 0; i < 35; ++i)
    img.pixels.push_back(0.001 * i - 0.01);
  img.cell_x_rad = -0.2 * kArcsec;
  img.cell_y_rad = 0.2 * kArcsec;
  img.ref_pixel_x = 3;
  img.ref_pixel_y = 2;
  img.ref_ra_rad = 4.3;
  img.ref_dec_rad = -0.42;
  img.frequency_hz = 232e9;
  img.bandwidth_hz = 2e9;
  img.bunit = "JY/PIXEL";
  img.beam = ImageBeam{1.2 * kArcsec, 0.8 * kArcsec, 0.3};
  img.object = "TEST";
  img.history = {"first line", "second line"};
  return img;
}

}  // namespace

class TestFitsImageIo : public QObject {
  Q_OBJECT
 private slots:
  void roundTripKeepsEverything_data() {
    QTest::addColumn<int>("type");
    QTest::newRow("float32") << int(FitsPixelType::Float32);
    QTest::newRow("float64") << int(FitsPixelType::Float64);
  }

  void roundTripKeepsEverything() {
    QFETCH(int, type);
    const FitsImage img = sample();
    const std::string path = dir_.path().toStdString() + "/img" + std::to_string(type) + ".fits";
    writeFitsImage(path, img, static_cast<FitsPixelType>(type));
    const FitsImage back = readFitsImage(path);
    QCOMPARE(back.nx, 7);
    QCOMPARE(back.ny, 5);
    const double tol = type == int(FitsPixelType::Float32) ? 1e-9 : 0.0;
    for (std::size_t i = 0; i < img.pixels.size(); ++i) {
      QVERIFY(std::fabs(back.pixels[i] - img.pixels[i]) <= tol);
    }
    QVERIFY(std::fabs(back.cell_x_rad - img.cell_x_rad) < 1e-15);
    QVERIFY(std::fabs(back.cell_y_rad - img.cell_y_rad) < 1e-15);
    QCOMPARE(back.ref_pixel_x, 3.0);
    QCOMPARE(back.ref_pixel_y, 2.0);
    QVERIFY(std::fabs(back.ref_ra_rad - 4.3) < 1e-13);
    QVERIFY(std::fabs(back.ref_dec_rad + 0.42) < 1e-13);
    QCOMPARE(back.projection, std::string("SIN"));
    QCOMPARE(back.frequency_hz, 232e9);
    QCOMPARE(back.bandwidth_hz, 2e9);
    QCOMPARE(back.bunit, std::string("JY/PIXEL"));
    QVERIFY(back.beam.has_value());
    QVERIFY(std::fabs(back.beam->major_fwhm_rad - 1.2 * kArcsec) < 1e-15);
    QCOMPARE(back.history.size(), std::size_t(2));
    QCOMPARE(back.history[1], std::string("second line"));
    // Header keywords as a FITS reader sees them.
    fitsfile* f = nullptr;
    int status = 0;
    fits_open_file(&f, path.c_str(), READONLY, &status);
    char ctype1[FLEN_VALUE], bunit[FLEN_VALUE];
    fits_read_key(f, TSTRING, "CTYPE1", ctype1, nullptr, &status);
    fits_read_key(f, TSTRING, "BUNIT", bunit, nullptr, &status);
    double cdelt1 = 0, crpix1 = 0;
    fits_read_key(f, TDOUBLE, "CDELT1", &cdelt1, nullptr, &status);
    fits_read_key(f, TDOUBLE, "CRPIX1", &crpix1, nullptr, &status);
    fits_close_file(f, &status);
    QCOMPARE(status, 0);
    QCOMPARE(QString(ctype1), QString("RA---SIN"));
    QCOMPARE(QString(bunit), QString("JY/PIXEL"));
    QVERIFY(std::fabs(cdelt1 + 0.2 / 3600.0) < 1e-15);
    QCOMPARE(crpix1, 4.0);
  }

  // CRVAL1 is a right ascension in [0, 360) whatever the phase centre's sign (a Measurement Set
  // may store RA in [-180, 180)): -120.8 deg is written as 239.2, the same direction.
  void rightAscensionIsWrittenInZeroTo360() {
    for (const double ra_deg : {-120.8, 359.9999999, -1e-12, 720.5}) {
      FitsImage img = sample();
      img.ref_ra_rad = ra_deg * M_PI / 180.0;
      const std::string path = dir_.path().toStdString() + "/ra.fits";
      writeFitsImage(path, img);
      fitsfile* f = nullptr;
      int status = 0;
      double crval1 = -1.0;
      fits_open_file(&f, path.c_str(), READONLY, &status);
      fits_read_key(f, TDOUBLE, "CRVAL1", &crval1, nullptr, &status);
      fits_close_file(f, &status);
      QCOMPARE(status, 0);
      QVERIFY2(crval1 >= 0.0 && crval1 < 360.0, qPrintable(QString::number(crval1, 'g', 17)));
      const double turns = (crval1 - ra_deg) / 360.0;
      QVERIFY2(std::fabs(turns - std::round(turns)) < 1e-12, qPrintable(QString::number(crval1)));
      const double back = readFitsImage(path).ref_ra_rad;
      QVERIFY(std::fabs(std::remainder(back - img.ref_ra_rad, 2.0 * M_PI)) < 1e-13);
    }
  }

  // CDi_j for the sky axes only, the degenerate FREQ and STOKES axes keeping their CDELT (the
  // standard's zero default for the missing CD3_3, CD4_4 would make the matrix singular).
  void cdMatrixForTheSkyAxesOnly() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("cd.fits").toStdString();
    writeFitsImage(path, sample());
    fitsfile* f = nullptr;
    int status = 0;
    fits_open_file(&f, path.c_str(), READWRITE, &status);
    const double cd11 = -0.2 / 3600.0, cd22 = 0.2 / 3600.0;
    fits_delete_key(f, "CDELT1", &status);
    fits_delete_key(f, "CDELT2", &status);
    fits_update_key(f, TDOUBLE, "CD1_1", const_cast<double*>(&cd11), nullptr, &status);
    fits_update_key(f, TDOUBLE, "CD2_2", const_cast<double*>(&cd22), nullptr, &status);
    fits_close_file(f, &status);
    QCOMPARE(status, 0);
    const FitsImage back = readFitsImage(path);
    QVERIFY(std::fabs(back.cell_x_rad / sample().cell_x_rad - 1.0) < 1e-12);
    QVERIFY(std::fabs(back.cell_y_rad / sample().cell_y_rad - 1.0) < 1e-12);
    QCOMPARE(back.frequency_hz, 232e9);
    QCOMPARE(back.bandwidth_hz, 2e9);
  }

  void worldCoordinatesFollowTheProjection() {
    FitsImage img = sample();
    std::vector<double> xy{3, 2, 0, 0, 6.5, 4, 1, 3.25};
    for (const char* proj : {"SIN", "TAN"}) {
      img.projection = proj;
      const auto world = fitsPixelsToWorld(img, xy);
      for (std::size_t i = 0; i < xy.size() / 2; ++i) {
        const double x = img.cell_x_rad * (xy[2 * i] - img.ref_pixel_x);
        const double y = img.cell_y_rad * (xy[2 * i + 1] - img.ref_pixel_y);
        double l = 0, m = 0;
        sim::directionCosines(world[2 * i], world[2 * i + 1], img.ref_ra_rad, img.ref_dec_rad, l,
                              m);
        // SIN: (x, y) are the direction cosines; TAN: (x, y) = (l, m) / n.
        const double n = std::sqrt(1 - l * l - m * m);
        const double ex = std::string(proj) == "SIN" ? l : l / n;
        const double ey = std::string(proj) == "SIN" ? m : m / n;
        QVERIFY2(std::fabs(ex - x) < 1e-14 && std::fabs(ey - y) < 1e-14, proj);
      }
      // East is left: a pixel with smaller x has a larger RA.
      QVERIFY(world[2] > img.ref_ra_rad);
    }
  }

  void errorsNameTheFile() {
    try {
      readFitsImage(dir_.path().toStdString() + "/missing.fits");
      QFAIL("expected an InputError");
    } catch (const InputError& e) {
      QVERIFY(QString(e.what()).contains("missing.fits"));
    }
    FitsImage bad = sample();
    bad.pixels.pop_back();
    QVERIFY_EXCEPTION_THROWN(writeFitsImage(dir_.path().toStdString() + "/bad.fits", bad),
                             InputError);
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestFitsImageIo)
#include "test_fits_image_io.moc"
