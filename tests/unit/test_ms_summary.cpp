// Summaries of a Measurement Set written by the test itself (known content), and the errors for
// bad input. Independent of ../shared/data.
#include <casacore/tables/Tables/ScaColDesc.h>
#include <casacore/tables/Tables/SetupNewTab.h>
#include <casacore/tables/Tables/Table.h>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "core/data/dataset_summary_json.h"
#include "core/data/dataset_summary_text.h"
#include "core/io/ms_summary.h"
#include "core/util/input_error.h"
#include "tests/support/test_ms_builder.h"

using namespace apertura;
using apertura::testing::TestMsFacts;

namespace {

QString errorOf(const std::string& path) {
  try {
    summarizeMeasurementSet(path);
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestMsSummary : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_path_ = apertura::testing::writeTestMs((dir_.path() + "/known.ms").toStdString());
  }

  void countsMatchTheWrittenTable() {
    const DatasetSummary s = summarizeMeasurementSet(ms_path_);
    QCOMPARE(s.format, std::string("MeasurementSet"));
    QCOMPARE(s.telescope, std::string("TESTARRAY"));
    QCOMPARE(s.rows, std::uint64_t(TestMsFacts::kRows));
    QCOMPARE(s.autocorrelation_rows, std::uint64_t(TestMsFacts::kAutocorrelations));
    QCOMPARE(s.antennas_listed, TestMsFacts::kAntennasListed);
    QCOMPARE(s.antennas_used, TestMsFacts::kAntennasUsed);
    QCOMPARE(s.flag_cells_total, std::uint64_t(TestMsFacts::kCells));
    QCOMPARE(s.flag_cells_flagged, std::uint64_t(TestMsFacts::kFlaggedCells));
    QCOMPARE(s.max_baseline_m, TestMsFacts::kMaxBaselineM);
    QCOMPARE(s.min_baseline_m, TestMsFacts::kMinBaselineM);
    QCOMPARE(s.time_start_mjd_s, 5.0e9);
    QCOMPARE(s.time_end_mjd_s, 5.0e9 + 110.0);
    // Autocorrelations stay out of the uv sample: 10 cross rows, 2 floats each.
    QCOMPARE(s.uv_sample_m.size(), std::size_t(2 * (TestMsFacts::kRows - 2)));
  }

  void subtablesAreDecoded() {
    const DatasetSummary s = summarizeMeasurementSet(ms_path_);
    QCOMPARE(s.fields.size(), std::size_t(2));
    QCOMPARE(s.fields[1].name, std::string("SRC_B"));
    QCOMPARE(s.fields[1].ra_rad, 1.5);
    QCOMPARE(s.fields[1].dec_rad, -0.3);
    QCOMPARE(s.fields[1].frame, std::string("J2000"));
    QCOMPARE(s.spectral_windows.size(), std::size_t(2));
    QCOMPARE(s.spectral_windows[0].num_channels, 8);
    QCOMPARE(s.spectral_windows[1].num_channels, 4);
    QCOMPARE(s.spectral_windows[1].first_channel_hz, 230e9);
    QCOMPARE(s.spectral_windows[1].last_channel_hz, 230e9 - 6e6);
    QCOMPARE(s.spectral_windows[1].channel_width_hz, -2e6);
    QCOMPARE(s.spectral_windows[1].total_bandwidth_hz, 8e6);
    QCOMPARE(s.polarizations.size(), std::size_t(1));
    QCOMPARE(s.polarizations[0].correlations, (std::vector<std::string>{"XX", "YY"}));
    QVERIFY(std::find(s.columns.begin(), s.columns.end(), "DATA") != s.columns.end());
    QCOMPARE(s.maxFrequencyHz(), 230e9);
  }

  void textAndJsonCarryTheNumbers() {
    const DatasetSummary s = summarizeMeasurementSet(ms_path_);
    const QString text = QString::fromStdString(formatSummaryText(s));
    QVERIFY2(text.contains("Rows:          12 (2 autocorrelations)"), qPrintable(text));
    QVERIFY2(text.contains("Antennas:      3 used of 4 listed"), qPrintable(text));
    QVERIFY2(text.contains("SRC_B  05:43:46.481  -17:11:19.44  J2000"), qPrintable(text));
    QVERIFY2(text.contains("XX YY"), qPrintable(text));
    // 500 m at 230 GHz (lambda = 1.3034 mm) = 383598.7 wavelengths.
    QVERIFY2(text.contains("(max 383598.7 wavelengths)"), qPrintable(text));
    const QString json = QString::fromStdString(summaryToJson(s));
    QVERIFY2(json.contains("\"flag_cells_flagged\": 19"), qPrintable(json));
  }

  void missingPathIsReported() {
    const QString e = errorOf(dir_.path().toStdString() + "/nothing.ms");
    QVERIFY2(e.contains("nothing.ms") && e.contains("no such file or directory"), qPrintable(e));
  }

  void plainDirectoryIsNotATable() {
    const QString d = dir_.path() + "/plain";
    QVERIFY(QDir().mkpath(d));
    std::ofstream(d.toStdString() + "/readme.txt") << "not a table";
    const QString e = errorOf(d.toStdString());
    QVERIFY2(e.contains("plain") && e.contains("not a casacore table"), qPrintable(e));
  }

  void regularFileIsNotATable() {
    const std::string f = dir_.path().toStdString() + "/file.ms";
    std::ofstream(f) << "junk";
    QVERIFY2(errorOf(f).contains("not a casacore table"), qPrintable(errorOf(f)));
  }

  void tableWithoutUvwIsRejected() {
    const std::string path = dir_.path().toStdString() + "/no_uvw.ms";
    {
      casacore::TableDesc desc;
      desc.addColumn(casacore::ScalarColumnDesc<double>("TIME"));
      casacore::SetupNewTable setup(path, desc, casacore::Table::New);
      casacore::Table t(setup, 3);
    }
    const QString e = errorOf(path);
    QVERIFY2(e.contains("no_uvw.ms") && e.contains("has no UVW column"), qPrintable(e));
  }

 private:
  QTemporaryDir dir_;
  std::string ms_path_;
};

QTEST_GUILESS_MAIN(TestMsSummary)
#include "test_ms_summary.moc"
