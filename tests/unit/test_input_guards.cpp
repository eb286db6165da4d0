// Bad settings and paths refused before any work, naming the setting (issue #33): numbers beyond
// a double's range in a project file, thread counts, image extents the sky or the data cannot
// fill, tapers wider than the image, and outputs that would replace an input.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/data/uv_extent.h"
#include "core/imaging/geometry_check.h"
#include "core/io/replaceable_output.h"
#include "core/project/json_error_location.h"
#include "core/project/project_file.h"
#include "core/util/input_error.h"
#include "tests/project/project_load_error.h"

using namespace apertura;
namespace fs = std::filesystem;

namespace {

constexpr double kArcsec = M_PI / 180.0 / 3600.0;

std::string projectText(const std::string& imaging, const std::string& regularizers = "[]") {
  return R"({"schema_version": 2, "data": {"path": "x.ms"}, "imaging": {)" + imaging +
         R"(}, "regularizers": )" + regularizers + "}";
}

// The InputError `fn` throws: its setting (path()) and message; fails the test if none is thrown.
template <typename F>
InputError thrown(F fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e;
  }
  return InputError("", "nothing thrown");
}

}  // namespace

class TestInputGuards : public QObject {
  Q_OBJECT

 private slots:
  void jsonErrorNamesTheKeyPath() {
    const auto at = project::locateJsonError(R"({"a": {"b": [1, true, {"c": 1e999}]}})");
    QCOMPARE(QString::fromStdString(at.path), QString("a.b[2].c"));
    QVERIFY(at.problem.find("beyond the range of a double") != std::string::npos);
    const auto syntax = project::locateJsonError(R"({"x": [1, 2,, 3]})");
    QCOMPARE(QString::fromStdString(syntax.path), QString("x[2]"));
  }

  void projectNumberOverflowNamesFileAndSetting() {
    const QString e = project::test::loadError(
        projectText(R"("nx": 64, "ny": 64)", R"([{"type": "l1", "lambda": 1e999}])"));
    QVERIFY2(e.contains("p.apertura") && e.contains("regularizers[0].lambda"), qPrintable(e));
    QVERIFY(project::test::loadError(projectText(R"("nx": 64, "ny": 64, "cell_arcsec": -1e400)"))
                .contains("imaging.cell_arcsec"));
  }

  void threadCountIsBounded() {
    QVERIFY(project::test::loadError(projectText(R"("threads": 4096)")).isEmpty());
    const QString e = project::test::loadError(projectText(R"("threads": 2147483647)"));
    QVERIFY2(e.contains("imaging.threads") && e.contains("4096"), qPrintable(e));
  }

  void imageMustStayOnTheSky() {
    using imaging::ImageGeometry;
    // Half of 128 cells of 1/64 rad reach l = 1: beyond the sky; just below passes.
    const auto e = thrown([] {
      imaging::checkImageExtent(ImageGeometry::fromCell(128, 128, 1.0 / 64), 0.0, "cell");
    });
    QCOMPARE(QString::fromStdString(e.path()), QString("cell"));
    imaging::checkImageExtent(ImageGeometry::fromCell(128, 128, 0.999 / 64), 0.0, "cell");
    const auto huge = thrown([] {
      imaging::checkImageExtent(ImageGeometry::fromCell(128, 128, 1e308 * kArcsec), 0.0, "c");
    });
    QCOMPARE(QString::fromStdString(huge.path()), QString("c"));
  }

  void imageMustSpanTheFinestFringe() {
    using imaging::ImageGeometry;
    const double max_uv = 1e5;  // finest fringe 1e-5 rad
    // 100 cells of 1.01e-7 rad span 1.01e-5 rad > the fringe; 0.99e-7 rad cells do not.
    imaging::checkImageExtent(ImageGeometry::fromCell(100, 100, 1.01e-7), max_uv, "k");
    const auto e = thrown([&] {
      imaging::checkImageExtent(ImageGeometry::fromCell(100, 100, 0.99e-7), max_uv, "k");
    });
    QCOMPARE(QString::fromStdString(e.path()), QString("k"));
    QVERIFY(e.problem().find("finest fringe") != std::string::npos);
    const auto tiny = thrown([&] {
      imaging::checkImageExtent(ImageGeometry::fromCell(128, 128, 1e-308 * kArcsec), max_uv, "k");
    });
    QCOMPARE(QString::fromStdString(tiny.path()), QString("k"));
  }

  void longestBaselineOfAChunk() {
    // The finest fringe the extent check compares with: the longest u, v over the rows (w does
    // not count), in wavelengths at the highest channel.
    VisibilityChunk c;
    c.uvw_m = {3.0, 4.0, 100.0, -6.0, 8.0, 0.0, 1.0, 1.0, 1.0};
    c.frequencies_hz = {2e8, 299792458.0, 1e8};  // highest: c, so 10 m is 10 wavelengths
    QCOMPARE(longestBaselineMetres(c), 10.0);
    QCOMPARE(longestBaselineWavelengths(c), 10.0);
    QCOMPARE(longestBaselineMetres(VisibilityChunk{}), 0.0);
  }

  void taperMustBeNarrowerThanTheImage() {
    const auto g = imaging::ImageGeometry::fromCell(100, 100, 1.0 * kArcsec);  // 100" across
    imaging::checkTaper(std::nullopt, g, "t");
    imaging::checkTaper(99.0, g, "t");
    QCOMPARE(QString::fromStdString(thrown([&] { imaging::checkTaper(101.0, g, "t"); }).path()),
             QString("t"));
    QCOMPARE(QString::fromStdString(thrown([&] { imaging::checkTaper(1e308, g, "t"); }).path()),
             QString("t"));
  }

  void outputMustNotReplaceAnInput() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    fs::create_directories(d / "in.ms" / "ANTENNA");
    std::ofstream(d / "sky.fits") << "x";
    std::ofstream(d / "in.ms" / "sky.fits") << "x";
    const std::string sky = (d / "sky.fits").string(), ms = (d / "in.ms").string();
    const auto same = thrown([&] { requireOutputApartFromInputs(sky, {{"--sky-fits", sky}}); });
    QCOMPARE(QString::fromStdString(same.path()), QString::fromStdString(sky));
    QVERIFY(same.problem().find("--sky-fits") != std::string::npos);
    // Through another spelling of the same path, and an input inside the output folder.
    const std::string other = (d / "in.ms" / ".." / "sky.fits").string();
    QVERIFY(!thrown([&] {
               requireOutputApartFromInputs(other, {{"--sky-fits", sky}});
             })
                 .path()
                 .empty());
    QVERIFY(!thrown([&] {
               requireOutputApartFromInputs(ms, {{"--sky-fits", (d / "in.ms/sky.fits").string()}});
             })
                 .path()
                 .empty());
    // Siblings, a name that merely starts like the input, and absent outputs pass.
    fs::create_directories(d / "in.ms2");
    requireOutputApartFromInputs((d / "in.ms2").string(), {{"--array", ms}});
    requireOutputApartFromInputs((d / "new.ms").string(), {{"--array", ms}, {"--sky-fits", sky}});
    requireOutputApartFromInputs(ms, {{"--sky-fits", ""}});
  }
};

QTEST_GUILESS_MAIN(TestInputGuards)
#include "test_input_guards.moc"
