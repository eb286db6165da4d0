// FITS cubes read through the shared WCS reader: a written cube reads back, and the other forms the
// FITS WCS papers allow for the same grid read the same (CDi_j for the sky axes with CDELT3 for
// frequency, a full CD matrix, a reference pixel off the first plane); rotated grids and a
// spectral axis that is not FREQ on axis 3 are refused, naming the file.
#include <fitsio.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <functional>
#include <string>

#include "core/io/fits_cube_io.h"
#include "core/util/input_error.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);

FitsCube sample() {
  FitsCube c;
  c.header.nx = 6;
  c.header.ny = 4;
  c.header.cell_x_rad = -0.25 * kArcsec;
  c.header.cell_y_rad = 0.25 * kArcsec;
  c.header.ref_pixel_x = 3;
  c.header.ref_pixel_y = 2;
  c.header.ref_ra_rad = 1.1;
  c.header.ref_dec_rad = -0.6;
  c.planes = 3;
  c.frequencies_hz = {100e9, 101e9, 102e9};
  c.bandwidths_hz = {1e9, 1e9, 1e9};
  for (int i = 0; i < 6 * 4 * 3; ++i)
    c.pixels.push_back(0.01 * i);
  return c;
}

// Writes the sample, then edits its header with `edit` (cfitsio, read-write).
std::string writeEdited(const QTemporaryDir& dir, const char* name,
                        const std::function<void(fitsfile*, int&)>& edit) {
  const std::string path = dir.filePath(name).toStdString();
  writeFitsCube(path, sample(), FitsPixelType::Float64);
  fitsfile* f = nullptr;
  int status = 0;
  fits_open_file(&f, path.c_str(), READWRITE, &status);
  edit(f, status);
  fits_close_file(f, &status);
  if (status != 0)
    throw std::runtime_error("editing the test header failed: " + std::to_string(status));
  return path;
}

void setKey(fitsfile* f, int& status, const char* key, double value) {
  fits_update_key(f, TDOUBLE, key, &value, nullptr, &status);
}

void deleteKey(fitsfile* f, const char* key) {
  int s = 0;
  fits_delete_key(f, key, &s);  // absent is fine
}

// The sky axes as a CD matrix instead of CDELT1/2 (and PC, which ours does not write).
void skyAsCd(fitsfile* f, int& status) {
  const double cx = -0.25 / 3600.0, cy = 0.25 / 3600.0;
  deleteKey(f, "CDELT1");
  deleteKey(f, "CDELT2");
  setKey(f, status, "CD1_1", cx);
  setKey(f, status, "CD2_2", cy);
  setKey(f, status, "CD1_2", 0.0);
  setKey(f, status, "CD2_1", 0.0);
}

void checkSameGrid(const FitsCube& c) {
  const FitsCube ref = sample();
  QCOMPARE(c.planes, 3);
  QVERIFY(std::fabs(c.header.cell_x_rad / ref.header.cell_x_rad - 1.0) < 1e-12);
  QVERIFY(std::fabs(c.header.cell_y_rad / ref.header.cell_y_rad - 1.0) < 1e-12);
  QCOMPARE(c.header.ref_pixel_x, 3.0);
  QCOMPARE(c.header.ref_pixel_y, 2.0);
  QVERIFY(std::fabs(c.header.ref_ra_rad - 1.1) < 1e-12);
  QVERIFY(std::fabs(c.header.ref_dec_rad + 0.6) < 1e-12);
  QCOMPARE(c.header.projection, std::string("SIN"));
  for (int k = 0; k < 3; ++k)
    QCOMPARE(c.frequencies_hz[std::size_t(k)], ref.frequencies_hz[std::size_t(k)]);
  QCOMPARE(c.pixels, ref.pixels);
}

QString readError(const std::string& path) {
  try {
    readFitsCube(path);
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestFitsCubeIo : public QObject {
  Q_OBJECT
 private slots:
  void roundTrip() {
    QTemporaryDir dir;
    const std::string path = writeEdited(dir, "plain.fits", [](fitsfile*, int&) {});
    const FitsCube c = readFitsCube(path);
    checkSameGrid(c);
    QCOMPARE(c.ctype3, std::string("FREQ"));
    QCOMPARE(c.cdelt3, 1e9);
    QCOMPARE(c.crpix3, 1.0);
  }

  void cdMatrixForTheSkyAxes() {
    QTemporaryDir dir;
    // CD for RA/Dec, the frequency step still in CDELT3 (CD3_3 absent).
    checkSameGrid(readFitsCube(writeEdited(dir, "cd-sky.fits", skyAsCd)));
    // A full CD matrix: CD3_3 and CD4_4 instead of CDELT3/4.
    checkSameGrid(readFitsCube(writeEdited(dir, "cd-all.fits", [](fitsfile* f, int& status) {
      skyAsCd(f, status);
      deleteKey(f, "CDELT3");
      deleteKey(f, "CDELT4");
      setKey(f, status, "CD3_3", 1e9);
      setKey(f, status, "CD4_4", 1.0);
    })));
  }

  void referencePixelOffTheFirstPlane() {
    QTemporaryDir dir;
    // The same axis described from plane 3: CRPIX3 = 3, CRVAL3 = 102 GHz.
    const FitsCube c = readFitsCube(writeEdited(dir, "crpix3.fits", [](fitsfile* f, int& status) {
      setKey(f, status, "CRPIX3", 3.0);
      setKey(f, status, "CRVAL3", 102e9);
    }));
    checkSameGrid(c);
  }

  void rotatedOrMisplacedAxesAreRefused() {
    QTemporaryDir dir;
    std::string path = writeEdited(dir, "rotated.fits", [](fitsfile* f, int& status) {
      skyAsCd(f, status);
      setKey(f, status, "CD1_2", 1e-5);
    });
    QString e = readError(path);
    QVERIFY2(e.contains("rotated.fits") && e.contains("rotated pixel grids"), qPrintable(e));

    path = writeEdited(dir, "velocity.fits", [](fitsfile* f, int& status) {
      char vrad[] = "VRAD";
      fits_update_key(f, TSTRING, "CTYPE3", vrad, nullptr, &status);
      char unit[] = "m/s";
      fits_update_key(f, TSTRING, "CUNIT3", unit, nullptr, &status);
    });
    e = readError(path);
    QVERIFY2(e.contains("velocity.fits") && e.contains("VRAD") && e.contains("FREQ on axis 3"),
             qPrintable(e));
  }
};

QTEST_GUILESS_MAIN(TestFitsCubeIo)
#include "test_fits_cube_io.moc"
