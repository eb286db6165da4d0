// DS9 region files: every supported shape in image and sky coordinates, 1-based pixels, exclude
// regions, rotated boxes, errors with line numbers, and atomic write -> read round trips.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/pipeline/mask_raster.h"
#include "core/project/ds9_regions.h"
#include "core/util/input_error.h"

using namespace apertura;
using project::MaskRegion;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);

// A 64^2 grid of 0.1" cells about RA 180 deg, Dec -30 deg, reference pixel (32, 32).
project::RegionSkyGrid testGrid() {
  project::RegionSkyGrid g;
  g.ref_ra_rad = M_PI;
  g.ref_dec_rad = -30.0 * M_PI / 180.0;
  g.ref_pixel_x = 32.0;
  g.ref_pixel_y = 32.0;
  g.cell_x_rad = -0.1 * kArcsec;
  g.cell_y_rad = 0.1 * kArcsec;
  return g;
}

void compareValues(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  QCOMPARE(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    QVERIFY2(std::abs(got[i] - want[i]) <= tol,
             qPrintable(QString("value %1: %2 != %3").arg(i).arg(got[i], 0, 'g', 17).arg(want[i])));
  }
}

// The message of the InputError the text raises; empty when it parses.
QString parseError(const std::string& text) {
  try {
    project::parseDs9Regions(text, "bad.reg", testGrid());
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

std::string sexagesimalRa(double ra_rad) {
  const double hours = ra_rad * 12.0 / M_PI;
  const int h = int(hours);
  const int m = int((hours - h) * 60.0);
  const double s = ((hours - h) * 60.0 - m) * 60.0;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%02d:%02d:%09.6f", h, m, s);
  return buf;
}

std::string sexagesimalDec(double dec_rad) {
  const double deg = std::abs(dec_rad) * 180.0 / M_PI;
  const int d = int(deg);
  const int m = int((deg - d) * 60.0);
  const double s = ((deg - d) * 60.0 - m) * 60.0;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%c%02d:%02d:%08.5f", dec_rad < 0 ? '-' : '+', d, m, s);
  return buf;
}

}  // namespace

class TestDs9Regions : public QObject {
  Q_OBJECT
 private slots:
  void imageCoordinatesAreOneBased() {
    const std::string text =
        "# Region file format: DS9 version 4.1\n"
        "global color=green dashlist=8 3 width=1 font=\"helvetica 10 normal roman\"\n"
        "image\n"
        "box(11,21,8,4,0)\n"
        "ellipse(33,17,6,3,30) # color=red\n"
        "circle(5,5,2)\n"
        "polygon(1,1,11,1,6,9)\n"
        "-box(11,21,2,2,90)\n"
        "+box(50,50,4,2,90)\n";
    const auto r = project::parseDs9Regions(text, "mask.reg");
    QCOMPARE(r.size(), std::size_t(6));
    QCOMPARE(r[0].shape, std::string("rectangle"));
    QVERIFY(!r[0].subtract);
    compareValues(r[0].values, {6.0, 18.0, 14.0, 22.0}, 0.0);  // centre (10, 20) 0-based
    QCOMPARE(r[1].shape, std::string("ellipse"));
    compareValues(r[1].values, {32.0, 16.0, 6.0, 3.0, 30.0}, 0.0);
    QCOMPARE(r[2].shape, std::string("ellipse"));
    compareValues(r[2].values, {4.0, 4.0, 2.0, 2.0, 0.0}, 0.0);
    QCOMPARE(r[3].shape, std::string("polygon"));
    compareValues(r[3].values, {0.0, 0.0, 10.0, 0.0, 5.0, 8.0}, 0.0);
    QVERIFY(r[4].subtract);
    compareValues(r[4].values, {9.0, 19.0, 11.0, 21.0}, 0.0);
    QVERIFY(!r[5].subtract);
    // At 90 degrees width and height swap: 2 wide, 4 tall.
    compareValues(r[5].values, {48.0, 47.0, 50.0, 51.0}, 0.0);

    // The rasterised mask: 9 x 5 pixel centres in the box minus the 3 x 3 hole.
    const auto mask = pipeline::rasterizeMask({r[0], r[4]}, 64, 64);
    double on = 0.0;
    for (double v : mask)
      on += v;
    QCOMPARE(on, 45.0 - 9.0);
    QCOMPARE(mask[20 * 64 + 10], 0.0);  // the excluded centre
    QCOMPARE(mask[18 * 64 + 6], 1.0);   // a corner of the box
  }

  void semicolonsAndPhysicalAndRotbox() {
    const auto r = project::parseDs9Regions(
        "physical;circle(10,10,3) ; -rotbox(10,10,2,2,0)\n\n# a comment line\n", "x.reg");
    QCOMPARE(r.size(), std::size_t(2));
    compareValues(r[0].values, {9.0, 9.0, 3.0, 3.0, 0.0}, 0.0);
    QVERIFY(r[1].subtract);
    QCOMPARE(r[1].shape, std::string("rectangle"));
  }

  void rotatedBoxBecomesPolygon() {
    const auto r = project::parseDs9Regions("image\nbox(21,21,10,4,45)\n", "rot.reg");
    QCOMPARE(r.size(), std::size_t(1));
    QCOMPARE(r[0].shape, std::string("polygon"));
    const double c = std::cos(M_PI / 4.0), s = std::sin(M_PI / 4.0);
    std::vector<double> want;
    for (const auto& k : {std::pair{-5.0, -2.0}, {5.0, -2.0}, {5.0, 2.0}, {-5.0, 2.0}}) {
      want.push_back(20.0 + k.first * c - k.second * s);
      want.push_back(20.0 + k.first * s + k.second * c);
    }
    compareValues(r[0].values, want, 1e-12);
    // Area 40 pixels: the rasterised count is close to it, and the centre is inside.
    const auto mask = pipeline::rasterizeMask(r, 41, 41);
    double on = 0.0;
    for (double v : mask)
      on += v;
    QVERIFY2(on >= 34.0 && on <= 46.0, qPrintable(QString::number(on)));
    QCOMPARE(mask[20 * 41 + 20], 1.0);
    QCOMPARE(mask[20 * 41 + 25], 0.0);  // 5 px along +x is outside a box rotated by 45 degrees
  }

  void skyCoordinatesConvertWithTheGrid() {
    const auto g = testGrid();
    // Pixels whose sky positions the file states: centre (40, 25), polygon vertices, etc.
    const std::vector<double> px = {40.0, 25.0, 10.0, 10.0, 20.0, 10.0, 15.0, 18.0, 32.0, 32.0};
    const std::vector<double> sky = project::pixelsToSky(g, px);
    // Pixel -> sky -> pixel through wcslib is the identity.
    compareValues(project::skyToPixels(g, sky), px, 1e-9);
    const auto deg = [&](std::size_t i) { return QString::number(sky[i] * 180.0 / M_PI, 'f', 12); };
    const std::string text =
        "# Region file format: DS9 version 4.1\n"
        "fk5\n" +
        ("box(" + sexagesimalRa(sky[0]) + "," + sexagesimalDec(sky[1]) + ",0.8\",0.4\",0)\n") +
        ("ellipse(" + deg(0) + "," + deg(1) + ",0.5\",0.01',30)\n").toStdString() +
        ("polygon(" + deg(2) + "," + deg(3) + "," + deg(4) + "," + deg(5) + "," + deg(6) + "," +
         deg(7) + ")\n")
            .toStdString() +
        ("icrs;-circle(" + deg(8) + "d," + deg(9) + "d,0.0001d)\n").toStdString();
    const auto r = project::parseDs9Regions(text, "sky.reg", g);
    QCOMPARE(r.size(), std::size_t(4));
    // Sexagesimal seconds carry 1e-6 s of RA (0.15 mas = 0.0015 px) and 1e-5" of Dec.
    compareValues(r[0].values, {36.0, 23.0, 44.0, 27.0}, 2e-3);  // 8 x 4 px
    compareValues(r[1].values, {40.0, 25.0, 5.0, 6.0, 30.0}, 1e-6);
    compareValues(r[2].values, {10.0, 10.0, 20.0, 10.0, 15.0, 18.0}, 1e-6);
    QVERIFY(r[3].subtract);
    compareValues(r[3].values, {32.0, 32.0, 3.6, 3.6, 0.0}, 1e-6);  // 0.36" radius

    // Sexagesimal with letters reads the same as with colons.
    const auto letters =
        project::parseDs9Regions("fk5;circle(12h00m00s,-30d00m00s,1\")\n", "l.reg", g);
    compareValues(letters[0].values, {32.0, 32.0, 10.0, 10.0, 0.0}, 1e-6);
  }

  void badInputNamesFileAndLine() {
    struct Case {
      std::string text;
      QString expected;
    };
    const Case cases[] = {
        {"image\nbox(1,2,3,4)\npoint(5,5)\n", "bad.reg: line 3: unsupported region shape 'point'"},
        {"# header\nimage\nbox(1,2,x,4)\n", "bad.reg: line 3: expected a number for the box width"},
        {"image\nbox(1,2,3)\n", "bad.reg: line 2: box takes (x, y, width, height[, angle])"},
        {"image\npolygon(1,2,3,4)\n", "bad.reg: line 2: polygon takes at least 3 vertices"},
        {"galactic\ncircle(1,2,3)\n", "bad.reg: line 1: coordinate system 'galactic'"},
        {"image\ncircle(1,2,-3)\n", "bad.reg: line 2: the circle radius must be positive"},
        {"image\ncircle 1 2 3\n", "bad.reg: line 2: expected a region such as box"},
        {"image\nellipse(1,2,3,4,5,6,7)\n", "annuli and multi-size shapes are not supported"},
        {"fk5\ncircle(1:2:3,+95:00:00,1\")\n", "bad.reg: line 2: expected a declination"},
        {"image\ncircle(1,2,3) junk\n", "bad.reg: line 2: unexpected text after the region"},
    };
    for (const auto& c : cases) {
      const QString message = parseError(c.text);
      QVERIFY2(message.contains(c.expected), qPrintable(message + " | wanted: " + c.expected));
    }
    // Sky coordinates without a grid say what is missing.
    try {
      project::parseDs9Regions("fk5\ncircle(10,10,1\")\n", "nogrid.reg");
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("nogrid.reg: line 1: sky coordinates (fk5) need"),
               e.what());
    }
    // A missing file names its path.
    try {
      project::readDs9Regions("/nonexistent/dir/mask.reg");
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.path()), QString("/nonexistent/dir/mask.reg"));
    }
  }

  void writeReadRoundTrip() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::vector<MaskRegion> regions = {
        {"rectangle", false, {10.25, 3.5, 40.75, 30.0}},
        {"ellipse", true, {20.125, 18.5, 7.25, 3.0, 33.0}},
        {"polygon", false, {1.0, 2.0, 30.5, 4.0, 12.0, 25.75, 0.5, 20.0}},
        {"rectangle", true, {0.1, 0.2, 0.7, 13.3}},  // not dyadic
    };
    const std::string path = dir.path().toStdString() + "/mask.reg";
    project::writeDs9Regions(path, regions);
    const auto back = project::readDs9Regions(path);
    QCOMPARE(back.size(), regions.size());
    for (std::size_t i = 0; i < regions.size(); ++i) {
      QCOMPARE(back[i].shape, regions[i].shape);
      QCOMPARE(back[i].subtract, regions[i].subtract);
      // Exact for values on a binary grid, within rounding of the centre/size form otherwise.
      compareValues(back[i].values, regions[i].values, i < 3 ? 0.0 : 1e-12);
    }
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    QCOMPARE(QString::fromStdString(first), QString("# Region file format: DS9 version 4.1"));
    const QString text = QString::fromStdString(project::formatDs9Regions(regions));
    QVERIFY2(text.contains("\nbox(26.5,17.75,30.5,26.5,0)\n"), qPrintable(text));
    QVERIFY2(text.contains("\n-ellipse(21.125,19.5,7.25,3,33)"), qPrintable(text));
  }

  // fk5 (issue #35: DS9 export was pixel-only): positions in RA/Dec degrees, sizes in arcsec;
  // read back with the same grid it gives the same regions, and with another image's grid of
  // the same field (other cell and size) the same sky.
  void writeFk5RoundTrip() {
    const std::vector<MaskRegion> regions = {
        {"rectangle", false, {10.25, 3.5, 40.75, 30.0}},
        {"ellipse", true, {20.125, 18.5, 7.25, 3.0, 33.0}},
        {"polygon", false, {1.0, 2.0, 30.5, 4.0, 12.0, 25.75, 0.5, 20.0}},
    };
    const project::RegionSkyGrid grid = testGrid();
    const std::string text = project::formatDs9Regions(regions, grid);
    QVERIFY2(QString::fromStdString(text).contains("\nfk5\n"), text.c_str());
    QVERIFY(QString::fromStdString(text).contains("\","));  // sizes in arcsec
    const auto back = project::parseDs9Regions(text, "fk5.reg", grid);
    QCOMPARE(back.size(), regions.size());
    for (std::size_t i = 0; i < regions.size(); ++i) {
      QCOMPARE(back[i].shape, regions[i].shape);
      QCOMPARE(back[i].subtract, regions[i].subtract);
      compareValues(back[i].values, regions[i].values, 1e-6);
    }
    // Another image of the field at half the cell: the same sky at twice the pixels.
    project::RegionSkyGrid fine = grid;
    fine.cell_x_rad /= 2.0;
    fine.cell_y_rad /= 2.0;
    fine.ref_pixel_x = 2.0 * grid.ref_pixel_x;
    fine.ref_pixel_y = 2.0 * grid.ref_pixel_y;
    const auto there = project::parseDs9Regions(text, "fk5.reg", fine);
    const std::vector<double>& e = there[1].values;  // the ellipse, centre and radii
    QVERIFY(std::abs(e[0] - 2.0 * 20.125) < 1e-3 && std::abs(e[1] - 2.0 * 18.5) < 1e-3);
    QVERIFY(std::abs(e[2] - 2.0 * 7.25) < 1e-9 && std::abs(e[3] - 2.0 * 3.0) < 1e-9);
    QVERIFY(std::abs(e[4] - 33.0) < 1e-12);
    // Without a grid: image coordinates, as before.
    QVERIFY(QString::fromStdString(project::formatDs9Regions(regions)).contains("\nimage\n"));
  }

  void writeIsAtomic() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.path().toStdString() + "/mask.reg";
    project::writeDs9Regions(path, {{"rectangle", false, {1, 2, 3, 4}}});
    // A region that cannot be written fails before touching the existing file.
    QVERIFY_THROWS_EXCEPTION(InputError, project::writeDs9Regions(path, {{"star", false, {1}}}));
    QCOMPARE(project::readDs9Regions(path).size(), std::size_t(1));
    // An unwritable directory fails cleanly, naming the path, and leaves no temporary file.
    const std::string missing = dir.path().toStdString() + "/no/such/dir/mask.reg";
    try {
      project::writeDs9Regions(missing, {{"rectangle", false, {1, 2, 3, 4}}});
      QFAIL("no error");
    } catch (const InputError& e) {
      QCOMPARE(QString::fromStdString(e.path()), QString::fromStdString(missing));
    }
    int entries = 0;
    for ([[maybe_unused]] const auto& e :
         std::filesystem::directory_iterator(dir.path().toStdString()))
      ++entries;
    QCOMPARE(entries, 1);  // only mask.reg: no temporary sibling left behind
  }
};

QTEST_GUILESS_MAIN(TestDs9Regions)
#include "test_ds9_regions.moc"
