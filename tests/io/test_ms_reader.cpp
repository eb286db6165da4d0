// The Measurement Set reader on the test MS of tests/support (known content, see
// test_ms_builder.cpp): grouping by field and window, autocorrelations dropped, FLAG and FLAG_ROW,
// Stokes I weights, selection, data-column choice, WEIGHT_SPECTRUM and SIGMA fallbacks and the
// correlation order read from CORR_TYPE. Expected numbers are worked out from the builder.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/io/dataset_summary_reader.h"
#include "core/io/ms_reader.h"
#include "core/util/input_error.h"
#include "tests/io/ms_fixture_edits.h"
#include "tests/io/read_pass.h"
#include "tests/support/test_ms_builder.h"

using namespace apertura;
using namespace apertura::testing;

namespace {

// Rows of the builder by group (field, spw): (0,0) 0 2 4; (0,1) 6 10; (1,0) 1 3 5; (1,1) 9 11.
// 10 cross rows; 3 x 8 + 2 x 4 + 3 x 8 + 2 x 4 = 64 samples. Row 5 is FLAG_ROW (8 samples);
// row 9 has XX and YY flagged on channel 0 and YY on channel 3 (2 Stokes I samples).
constexpr int kCrossRows = 10;
constexpr int kSamples = 64;

PassSums readAll(const std::string& ms, const ReadOptions& o, bool keep = false) {
  auto src = openMeasurementSetReader(ms, o);
  return readPass(*src, keep);
}

}  // namespace

class TestMsReader : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = writeTestMs(path("known.ms"));
  }

  void stokesIFromTheKnownMs() {
    ReadOptions o;
    o.chunk_rows = 2;
    auto src = openMeasurementSetReader(ms_, o);
    QCOMPARE(src->info().rows, std::uint64_t(kCrossRows));
    QCOMPARE(src->info().samples, std::uint64_t(kSamples));
    QCOMPARE(src->info().data_column, std::string("DATA"));
    QCOMPARE(src->info().weight_column, std::string("WEIGHT"));
    QCOMPARE(src->info().telescope, std::string("TESTARRAY"));
    QCOMPARE(src->info().fields.size(), std::size_t(2));
    QCOMPARE(src->info().fields[1].ra_rad, 1.5);
    const PassSums s = readPass(*src, true);
    // Chunks of <= 2 rows per group: 2 + 1 + 1 + 2 + 1 + 1.
    QCOMPARE(s.chunks, std::uint64_t(6));
    QCOMPARE(s.rows, std::uint64_t(kCrossRows));
    QCOMPARE(s.samples, std::uint64_t(kSamples));
    QCOMPARE(s.unflagged, std::uint64_t(kSamples - 8 - 2));
    // DATA = 1 everywhere, WEIGHT 1 per correlation: I = 1 with w = 4 / (1 + 1) = 2.
    QCOMPARE(s.sum_w, 2.0 * (kSamples - 10));
    QCOMPARE(s.sum_wre, 2.0 * (kSamples - 10));
    QCOMPARE(s.sum_wim, 0.0);
    const VisibilityChunk& first = s.kept[0];
    QCOMPARE(first.field_id, 0);
    QCOMPARE(first.spectral_window_id, 0);
    QCOMPARE(first.first_row, std::size_t(0));
    // Rows 0 and 2; the imaging convention negates the file's UVW.
    QCOMPARE(first.uvw_m, (std::vector<double>{-30, -0.0, -0.0, 80, -60, -0.0}));
    QCOMPARE(first.time_mjd_s, (std::vector<double>{5.0e9, 5.0e9 + 20}));
    QCOMPARE(first.antenna1, (std::vector<int>{0, 1}));
    QCOMPARE(first.antenna2, (std::vector<int>{1, 2}));
    QCOMPARE(first.source_rows, (std::vector<std::uint64_t>{0, 2}));
    QCOMPARE(first.frequencies_hz.size(), std::size_t(8));
    QCOMPARE(first.frequencies_hz[7], 100e9 + 7e6);
    const VisibilityChunk& last = s.kept[5];  // rows 9 and 11 (field 1, spw 1)
    QCOMPARE(last.field_id, 1);
    QCOMPARE(last.spectral_window_id, 1);
    QCOMPARE(last.first_row, std::size_t(8));
    QCOMPARE(last.source_rows, (std::vector<std::uint64_t>{9, 11}));
    QCOMPARE(last.frequencies_hz,
             (std::vector<double>{230e9, 230e9 - 2e6, 230e9 - 4e6, 230e9 - 6e6}));
    QCOMPARE(last.weights, (std::vector<float>{0, 2, 2, 0, 2, 2, 2, 2}));
    QVERIFY(src->warnings().empty());
  }

  void singleCorrelationsAndOneHandPolicy() {
    ReadOptions o;
    o.selection.product = Product::XX;
    const PassSums xx = readAll(ms_, o);
    QCOMPARE(xx.unflagged, std::uint64_t(kSamples - 8 - 1));  // row 9 flags XX on channel 0
    QCOMPARE(xx.sum_w, double(kSamples - 9));
    o.selection.product = Product::I;
    o.selection.single_hand = SingleHandPolicy::kUseAvailable;
    const PassSums one = readAll(ms_, o);
    QCOMPARE(one.unflagged, std::uint64_t(kSamples - 9));  // channel 3 of row 9: XX alone
    QCOMPARE(one.sum_w, 2.0 * (kSamples - 10) + 1.0);
  }

  void selection() {
    ReadOptions o;
    o.selection.field_ids = {1};
    QCOMPARE(readAll(ms_, o).samples, std::uint64_t(3 * 8 + 2 * 4));
    o.selection.field_ids = {};
    o.selection.spectral_windows = {1};
    const PassSums spw1 = readAll(ms_, o, true);
    QCOMPARE(spw1.rows, std::uint64_t(4));
    QCOMPARE(spw1.samples, std::uint64_t(16));
    o.selection.spectral_windows = {};
    o.selection.channel_start = 2;
    o.selection.channel_count = 3;  // 3 of spw 0 (ch 2-4), 2 of spw 1 (ch 2-3)
    const PassSums ch = readAll(ms_, o, true);
    QCOMPARE(ch.samples, std::uint64_t(6 * 3 + 4 * 2));
    QCOMPARE(ch.kept[0].frequencies_hz,
             (std::vector<double>{100e9 + 2e6, 100e9 + 3e6, 100e9 + 4e6}));
  }

  void productsTheFeedsCannotGiveAreRefused() {
    ReadOptions o;
    o.selection.product = Product::RR;
    try {
      openMeasurementSetReader(ms_, o);
      QFAIL("RR from XX YY must be refused");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("cannot form RR from correlations XX YY"), e.what());
    }
  }

  void correctedDataIsTheDefaultWhenPresent() {
    const std::string ms = copy("corrected.ms");
    addComplexColumn(ms, "CORRECTED_DATA", [](int, int, int) { return std::complex<float>(3, 1); });
    ReadOptions o;
    const PassSums s = readAll(ms, o);
    QCOMPARE(s.sum_wre, 3.0 * s.sum_w);
    QCOMPARE(s.sum_wim, 1.0 * s.sum_w);
    o.selection.data_column = DataColumn::kData;
    QCOMPARE(readAll(ms, o).sum_wre, readAll(ms, o).sum_w);
    o.selection.data_column = DataColumn::kModelData;
    try {
      openMeasurementSetReader(ms, o);
      QFAIL("MODEL_DATA is absent");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("table MAIN has no MODEL_DATA column"), e.what());
    }
  }

  void weightSpectrumThenWeightThenSigma() {
    const std::string ms = copy("wspec.ms");
    // XX weight 1 + chan, YY weight 3: per channel w_I = 4 / (1/(1+c) + 1/3).
    addWeightSpectrum(ms, [](int, int k, int c) { return k == 0 ? 1.0f + c : 3.0f; });
    ReadOptions o;
    o.selection.spectral_windows = {1};
    o.selection.field_ids = {0};  // rows 6 and 10, nothing flagged
    auto src = openMeasurementSetReader(ms, o);
    QCOMPARE(src->info().weight_column, std::string("WEIGHT_SPECTRUM"));
    double expected = 0;
    for (int c = 0; c < 4; ++c)
      expected += 2 * 4.0 / (1.0 / (1 + c) + 1.0 / 3);
    const double got = readPass(*src).sum_w;
    // Weights are float32: agree to float precision.
    QVERIFY2(std::fabs(got - expected) < 1e-6 * expected,
             qPrintable(QString("%1 vs %2").arg(got).arg(expected)));

    const std::string sig = copy("sigma.ms");
    setSigmas(sig, 2.0f);
    removeMainColumn(sig, "WEIGHT");
    auto s2 = openMeasurementSetReader(sig, o);
    QCOMPARE(s2->info().weight_column, std::string("SIGMA"));
    // w = 1/sigma^2 = 0.25 per hand; w_I = 4 / (4 + 4) = 0.5; 8 samples.
    QCOMPARE(readPass(*s2).sum_w, 8 * 0.5);
    QVERIFY(!s2->warnings().empty());
  }

  void correlationOrderComesFromCorrType() {
    const std::string ms = copy("order.ms");
    setCorrelationTypes(ms, 0, {12, 9});  // YY XX
    fillComplexColumn(ms, "DATA", [](int, int k, int) {
      return std::complex<float>(k == 0 ? 5.0f : 3.0f, 0.0f);  // YY = 5, XX = 3
    });
    ReadOptions o;
    o.selection.field_ids = {0};
    o.selection.spectral_windows = {1};
    o.selection.product = Product::XX;
    QCOMPARE(readAll(ms, o).sum_wre, 3.0 * 8);
    o.selection.product = Product::Q;  // (XX - YY) / 2 = -1
    const PassSums q = readAll(ms, o);
    QCOMPARE(q.sum_wre, -1.0 * q.sum_w);
  }

  void nanAndInfAreFlaggedAndCounted() {
    const std::string ms = copy("nan.ms");
    fillComplexColumn(ms, "DATA", [](int r, int k, int c) {
      if (r == 0 && k == 1 && c == 2)
        return std::complex<float>(std::nanf(""), 0);
      if (r == 2 && k == 0 && c == 0)
        return std::complex<float>(0, INFINITY);
      return std::complex<float>(1, 0);
    });
    auto src = openMeasurementSetReader(ms, ReadOptions{});
    const PassSums s = readPass(*src);
    QCOMPARE(s.unflagged, std::uint64_t(kSamples - 10 - 2));
    const auto w = src->warnings();
    QCOMPARE(w.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(w[0]).contains(
                 "nan.ms: 2 correlation samples with NaN or Inf value or weight were flagged"),
             w[0].c_str());
    // A second pass does not count them twice.
    readPass(*src);
    QCOMPARE(src->warnings(), w);
  }

  void summaryExtensions() {
    const DatasetSummary s = summarizeDataset(ms_);
    // 144 cells, 16 on the two autocorrelation rows, 19 flagged (all on cross rows).
    QCOMPARE(s.unflagged_visibilities, std::uint64_t(TestMsFacts::kCells - 16 - 19));
    QCOMPARE(s.dish_diameter_m, 12.0);
    const double c = 299792458.0;
    // Longest |uvw| 500 m at 230 GHz; shortest 30 m at the lowest frequency, 100 GHz.
    QVERIFY(qFuzzyCompare(s.max_baseline_wavelengths, 500 * 230e9 / c));
    QVERIFY(qFuzzyCompare(s.min_baseline_wavelengths, 30 * 100e9 / c));
    QVERIFY(qFuzzyCompare(s.suggested_cell_rad, 1 / (5 * 500 * 230e9 / c)));
    QVERIFY(qFuzzyCompare(s.primary_beam_fwhm_rad, 1.13 * (c / 100e9) / 12));
    // 2 FWHM / cell = 1082.9 cells; the next even 2-3-5 size is 1152 = 2^7 3^2.
    QCOMPARE(s.suggested_image_size, 1152);
  }

 private:
  std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }
  std::string copy(const char* name) const {
    copyTable(ms_, path(name));
    return path(name);
  }

  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestMsReader)
#include "test_ms_reader.moc"
