// Damaged Measurement Sets: each copy of the test MS is broken in one way and the reader (and
// `info`'s summary where relevant) must answer with an InputError that names the file and the
// problem, or a warning for what can still be read. Never a crash.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <limits>

#include "core/io/dataset_summary_reader.h"
#include "core/io/ms_reader.h"
#include "core/io/visibility_source_factory.h"
#include "core/project/project_settings.h"
#include "core/util/input_error.h"
#include "tests/io/ms_fixture_edits.h"
#include "tests/io/read_pass.h"
#include "tests/io/screened_pass.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/test_ms_builder.h"

using namespace apertura;
using namespace apertura::testing;

namespace {

// The message of the InputError that opening and reading `ms` throws; empty if none.
QString readError(const std::string& ms, const ReadOptions& o = {}) {
  try {
    auto src = openMeasurementSetReader(ms, o);
    readPass(*src);
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestMsBadInput : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    good_ = writeTestMs(path("good.ms"));
  }

  void missingPath() {
    const QString e = readError(path("absent.ms"));
    QVERIFY2(e.contains("absent.ms: no such file or directory"), qPrintable(e));
  }

  void notATable() {
    QVERIFY(QDir().mkpath(QString::fromStdString(path("plain"))));
    std::ofstream(path("plain") + "/x.txt") << "x";
    const QString e = readError(path("plain"));
    QVERIFY2(e.contains("plain: not a casacore table"), qPrintable(e));
    try {
      summarizeDataset(path("plain"));
      QFAIL("expected an error");
    } catch (const InputError& err) {
      QVERIFY2(QString(err.what()).contains("not a casacore table"), err.what());
    }
  }

  void missingRequiredColumn() {
    const std::string ms =
        damaged("no_uvw.ms", [](const std::string& p) { removeMainColumn(p, "UVW"); });
    const QString e = readError(ms);
    QVERIFY2(e.contains("no_uvw.ms: table MAIN has no UVW column"), qPrintable(e));
  }

  void missingDataColumn() {
    const std::string ms =
        damaged("no_data.ms", [](const std::string& p) { removeMainColumn(p, "DATA"); });
    const QString e = readError(ms);
    QVERIFY2(e.contains("no_data.ms: table MAIN has no DATA column"), qPrintable(e));
  }

  void missingSubtable() {
    const std::string ms =
        damaged("no_spw.ms", [](const std::string& p) { removeSubtable(p, "SPECTRAL_WINDOW"); });
    const QString e = readError(ms);
    QVERIFY2(e.contains("no_spw.ms: required subtable SPECTRAL_WINDOW is missing"), qPrintable(e));
  }

  void inconsistentShapes() {
    // DATA_DESCRIPTION 1 now claims spw 0 (8 channels) for rows holding 4 channels.
    const std::string ms =
        damaged("shapes.ms", [](const std::string& p) { setDataDescriptionWindow(p, 1, 0); });
    const QString e = readError(ms);
    QVERIFY2(e.contains("shapes.ms: inconsistent shapes: DATA row") &&
                 e.contains("expected [2, 8] from DATA_DESC_ID 1"),
             qPrintable(e));
  }

  void dataDescriptionOutOfRange() {
    const std::string ms = damaged("ddid.ms", [](const std::string& p) { setDataDescId(p, 3, 7); });
    const QString e = readError(ms);
    QVERIFY2(e.contains("MAIN row 3 has DATA_DESC_ID 7 but DATA_DESCRIPTION has 2 rows"),
             qPrintable(e));
  }

  void unknownCorrelationType() {
    const std::string ms = damaged("corr.ms", [](const std::string& p) {
      setCorrelationTypes(p, 0, {9, 99});
    });
    const QString e = readError(ms);
    QVERIFY2(e.contains("corr.ms: POLARIZATION.CORR_TYPE row 0 has unknown correlation type 99"),
             qPrintable(e));
  }

  void zeroAndNegativeFrequencies() {
    const std::string zero =
        damaged("zero_freq.ms", [](const std::string& p) { setChannelFrequency(p, 1, 2, 0.0); });
    QString e = readError(zero);
    QVERIFY2(e.contains("zero_freq.ms: SPECTRAL_WINDOW.CHAN_FREQ row 1 channel 2 has frequency 0"),
             qPrintable(e));
    const std::string neg =
        damaged("neg_freq.ms", [](const std::string& p) { setChannelFrequency(p, 0, 0, -1.0e9); });
    e = readError(neg);
    QVERIFY2(
        e.contains("row 0 channel 0 has frequency -1000000000") && e.contains("(expected > 0)"),
        qPrintable(e));
  }

  void allDataFlaggedIsAWarning() {
    const std::string ms = damaged("flagged.ms", [](const std::string& p) { setFlagRowAll(p); });
    auto src = openMeasurementSetReader(ms, ReadOptions{});
    const PassSums s = readPass(*src);
    QCOMPARE(s.unflagged, std::uint64_t(0));
    const auto w = src->warnings();
    QCOMPARE(w.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(w[0]).contains("flagged.ms: all 64 selected visibilities are "
                                                   "flagged"),
             w[0].c_str());
  }

  // Rows whose baseline cannot be real are flagged and counted, the rest read as before
  // (the UVFITS reader shares the screen: test_uvfits_bad_input).
  void impossibleGeometryAndNegativeWeightsAreFlagged() {
    const std::string ms = damaged("uvw.ms", [](const std::string& p) {
      setUvw(p, 0, std::nan(""), 0.0, 0.0);
      setUvw(p, 1, 1e30, 0.0, 0.0);
      setUvw(p, 2, 0.0, 0.0, 0.0);
      setUvw(p, 3, 0.0, -std::numeric_limits<double>::infinity(), 0.0);
      setRowWeight(p, 4, -2.0f);
    });
    auto good = openMeasurementSetReader(good_, ReadOptions{});
    auto bad = openMeasurementSetReader(ms, ReadOptions{});
    const PassSums g = readPass(*good, true), b = readPass(*bad, true);
    QCOMPARE(b.rows, g.rows);
    const ScreenComparison c = compareScreenedPass(
        g, b, [](std::uint64_t row) { return row <= 4; },
        [](std::uint64_t row) { return row <= 3; });
    QCOMPARE(c.kept_in_flagged, std::uint64_t(0));
    QCOMPARE(c.changed, std::uint64_t(0));
    QCOMPARE(c.bad_uvw, std::uint64_t(0));
    const std::uint64_t lost = c.lost;
    QVERIFY(lost > 0);
    QCOMPARE(b.unflagged, g.unflagged - lost);
    QString all;
    for (const auto& w : bad->warnings())
      all += QString::fromStdString(w) + "\n";
    QVERIFY2(all.contains("uvw.ms: 2 rows with NaN or Inf in column UVW were flagged"),
             qPrintable(all));
    QVERIFY2(all.contains("uvw.ms: 1 rows with column UVW longer than any baseline"),
             qPrintable(all));
    QVERIFY2(all.contains("uvw.ms: 1 rows with column UVW = (0, 0, 0) between two different"),
             qPrintable(all));
    QVERIFY2(all.contains("correlation samples with a negative weight (WEIGHT) were flagged"),
             qPrintable(all));
  }

  // All-zero geometry images nothing: an error naming the file and the column, not a flat map.
  void allZeroUvwIsAnError() {
    const std::string ms =
        damaged("zero_uvw.ms", [](const std::string& p) { setUvw(p, -1, 0.0, 0.0, 0.0); });
    project::ProjectSettings s = project::defaultProject();
    s.data.path = ms;
    s.imaging.nx = s.imaging.ny = 32;
    s.imaging.cell_arcsec = 1.0;
    s.optimizer.max_iterations = 1;
    const PipelineRun run = runImagingPipeline(s);
    QVERIFY(!run.finished());
    const QString e = QString::fromStdString(run.outcome.message);
    QVERIFY2(e.contains("zero_uvw.ms") && e.contains("no visibility is left to image") &&
                 e.contains("column UVW = (0, 0, 0)"),
             qPrintable(e));
  }

  void selectionMatchingNothing() {
    ReadOptions o;
    o.selection.field_ids = {5};
    const QString e = readError(good_, o);
    QVERIFY2(e.contains("good.ms: the selection matches no cross-correlation rows"), qPrintable(e));
  }

  void errorsReachTheConsumerThroughTheIoThread() {
    const std::string ms =
        damaged("shapes2.ms", [](const std::string& p) { setDataDescriptionWindow(p, 1, 0); });
    ReadOptions o;
    o.mode = ReadMode::kStreaming;
    o.chunk_rows = 1;
    auto src = openVisibilitySource(ms, o);  // opening works: the damage is in the rows
    VisibilityChunk chunk;
    int good_chunks = 0;
    try {
      while (src->next(chunk))
        ++good_chunks;
      QFAIL("expected an InputError from the I/O thread");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("inconsistent shapes"), e.what());
    }
    QCOMPARE(good_chunks, 3);  // field 0, spw 0 rows 0, 2, 4 come first
    // Resident mode meets the error while loading, i.e. when opening.
    o.mode = ReadMode::kResident;
    QVERIFY_EXCEPTION_THROWN(openVisibilitySource(ms, o), InputError);
  }

 private:
  std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }
  template <typename F>
  std::string damaged(const char* name, F damage) {
    copyTable(good_, path(name));
    damage(path(name));
    return path(name);
  }

  QTemporaryDir dir_;
  std::string good_;
};

QTEST_GUILESS_MAIN(TestMsBadInput)
#include "test_ms_bad_input.moc"
