// The built-in demo: deterministic (two builds give identical DATA), complete (all parts and
// the marker), not rebuilt when complete, rebuilt when outdated, never written into (or over)
// a folder of someone else's files, and its true-sky image carries the model flux.
#include <casacore/casa/Arrays/Array.h>
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>

#include "core/io/fits_image_io.h"
#include "core/io/ms_summary.h"
#include "core/sim/demo_dataset.h"
#include "core/util/input_error.h"

using namespace apertura;
namespace cc = casacore;
namespace fs = std::filesystem;

namespace {

cc::Array<cc::Complex> allData(const std::string& ms_path) {
  cc::MeasurementSet ms(ms_path);
  return cc::MSColumns(ms).data().getColumn();
}

}  // namespace

class TestSimDemo : public QObject {
  Q_OBJECT
 private slots:
  void demoIsDeterministicAndComplete() {
    const std::string a = dir_.path().toStdString() + "/a/demo";
    const std::string b = dir_.path().toStdString() + "/b/demo";
    const DemoDatasetInfo first = ensureDemo(a);
    QVERIFY(first.created);
    QCOMPARE(ensureDemoDataset(b), b + "/demo.ms");
    QVERIFY(allData(first.ms_path).nelements() > 0);
    QVERIFY(cc::allEQ(allData(first.ms_path), allData(b + "/demo.ms")));

    const DatasetSummary s = summarizeMeasurementSet(first.ms_path);
    QCOMPARE(s.rows, std::uint64_t(47616));
    QCOMPARE(s.spectral_windows.size(), std::size_t(2));
    const std::uint64_t vis = s.rows * 4;
    QVERIFY(vis >= 100000 && vis <= 300000);
    QCOMPARE(s.telescope, std::string("ALMA"));
    QVERIFY(fs::exists(a + "/COMPLETE"));

    // The true sky: Jy/pixel, SIN, centred on the phase centre, total = model flux at 232 GHz.
    const FitsImage truth = readFitsImage(first.true_sky_path);
    QCOMPARE(truth.bunit, std::string("JY/PIXEL"));
    QCOMPARE(truth.projection, std::string("SIN"));
    QVERIFY(std::fabs(truth.ref_ra_rad - s.fields[0].ra_rad) < 1e-12);
    QVERIFY(std::fabs(truth.ref_dec_rad - s.fields[0].dec_rad) < 1e-12);
    double total = 0.0;
    for (double p : truth.pixels)
      total += p;
    QVERIFY2(std::fabs(total - 0.545) < 2e-3, qPrintable(QString::number(total)));

    // A complete demo is found, not rebuilt.
    const auto stamp = fs::last_write_time(a + "/COMPLETE");
    QVERIFY(!ensureDemo(a).created);
    QVERIFY(fs::last_write_time(a + "/COMPLETE") == stamp);
  }

  // An outdated demo of ours is rebuilt in place; files the user put beside it stay.
  void outdatedDemoIsRebuiltAndUserFilesStay() {
    const std::string d = dir_.path().toStdString() + "/old/demo";
    fs::create_directories(d + "/demo.ms");
    std::ofstream(d + "/demo.ms/junk") << "partial";
    std::ofstream(d + "/COMPLETE") << "apertura-demo 0\n";
    std::ofstream(d + "/notes.txt") << "mine";
    const DemoDatasetInfo info = ensureDemo(d);
    QVERIFY(info.created);
    QVERIFY(!fs::exists(d + "/demo.ms/junk"));
    QCOMPARE(summarizeMeasurementSet(info.ms_path).rows, std::uint64_t(47616));
    QVERIFY(fs::exists(d + "/notes.txt"));
    QVERIFY(!ensureDemo(d).created);
    for (const auto& e : fs::directory_iterator(fs::path(d).parent_path()))
      QVERIFY2(e.path().filename() == "demo", e.path().c_str());  // no temporary left
  }

  // A folder of someone else's files is never emptied (it once was: issue #33).
  void foreignFolderIsRefusedUntouched() {
    const std::string d = dir_.path().toStdString() + "/mine";
    fs::create_directories(d + "/sub");
    std::ofstream(d + "/thesis.tex") << "years of work";
    std::ofstream(d + "/sub/data.csv") << "1,2";
    try {
      ensureDemo(d);
      QFAIL("expected an InputError");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("mine: is a folder with other files and no Apertura "
                                          "demo in it"),
               e.what());
    }
    QVERIFY(fs::exists(d + "/thesis.tex") && fs::exists(d + "/sub/data.csv"));
    QVERIFY(!fs::exists(d + "/demo.ms"));
    std::ofstream(dir_.path().toStdString() + "/file") << "x";
    QVERIFY_THROWS_EXCEPTION(InputError, ensureDemo(dir_.path().toStdString() + "/file"));
    // An empty folder is fine.
    fs::create_directories(dir_.path().toStdString() + "/empty");
    QVERIFY(ensureDemo(dir_.path().toStdString() + "/empty").created);
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestSimDemo)
#include "test_sim_demo.moc"
