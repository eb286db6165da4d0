// Every Measurement Set and UVFITS file under ../shared/data read through openVisibilitySource,
// compared with numbers obtained independently:
//  - MS: /usr/bin/python3 with python3-casacore + numpy, reading ANTENNA1/2, DATA (or
//    CORRECTED_DATA), FLAG, FLAG_ROW, WEIGHT_SPECTRUM (else WEIGHT) cell by cell and forming the
//    product from POLARIZATION.CORR_TYPE with the same rules (usable = unflagged, finite, w > 0,
//    value != 0; two hands: w = 1 / sum(|c_k|^2 / w_k)), summed in double.
//  - UVFITS: plain python parsing the 80-character header cards by hand and unpacking the
//    big-endian random groups with struct (no FITS library), same rules.
// Resident and streaming reads must also agree bit for bit.
#include <QCoreApplication>
#include <QtTest>
#include <cmath>
#include <cstdio>

#include "core/io/dataset_summary_reader.h"
#include "core/io/visibility_source_factory.h"
#include "tests/io/read_pass.h"
#include "tests/support/shared_data.h"

using namespace apertura;
using namespace apertura::testing;

namespace {

struct Reference {
  const char* path;
  Product product;
  std::uint64_t rows, samples, unflagged;
  double sum_w, sum_wre, sum_wim;
  int fields;
  double field0_ra, field0_dec, first_freq;
  std::size_t windows;
};

const char* const kAntennae = "alma_antennae_mosaic/all_fields.ms";
const char* const kX5707 = "alma_x5707/X5707_1spw_1scan_10chan_1time_1bl_noatm.ms";
const char* const kLwa = "ovro_lwa/2018-03-21-01_26_33_0004384620257280_000000_downselected.ms";
const char* const kVla = "vla_day2_tdem0003/day2_TDEM0003_10s_norx_1src_1spw.ms";
const char* const kMojave = "vlba_mojave/mojave.uvfits";
const char* const kEhtHi = "eht_m87_2017/SR1_M87_2017_095_hi_hops_netcal_StokesI.uvfits";
const char* const kEhtLo = "eht_m87_2017/SR1_M87_2017_095_lo_hops_netcal_StokesI.uvfits";
constexpr double kDeg = 3.14159265358979323846 / 180.0;

// rows here count (row, window) pairs: UVFITS groups x IFs.
const std::vector<Reference>& references() {
  static const std::vector<Reference> refs = {
      {kAntennae, Product::I, 74695, 74695, 74695, 251683.4215336228, -2991.432968256411,
       -948.2425872951068, 23, -3.1334548374091584, -0.3292366980142052, 344817753828.1, 1},
      {kX5707, Product::I, 40, 440, 439, 1736.7021896234603, -110.10514175685995,
       -90.00608969414532, 3, -2.715457224724682, -0.22613985506635104, 111457315488.23772, 1},
      {kLwa, Product::I, 190, 20710, 20710, 41420.0, 35360317953.145996, 11379465143.553223, 1,
       -0.18857309245756662, 0.6450617248513579, 27384000.0, 1},
      {kLwa, Product::V, 190, 20710, 20710, 41420.0, 1441587589.579712, 8583654741.251465, 1,
       -0.18857309245756662, 0.6450617248513579, 27384000.0, 1},
      {kLwa, Product::XY, 190, 20710, 20710, 20710.0, 2660440917.3793945, -2114854261.1610107, 1,
       -0.18857309245756662, 0.6450617248513579, 27384000.0, 1},
      {kVla, Product::I, 1360, 87040, 87040, 26602.315789473476, 0.9436141727370841,
       -1.6246055485283641, 1, 2.6529016266005048, 0.13097994029999152, 36304541952.42, 1},
      {kVla, Product::U, 1360, 87040, 87040, 26656.0, 0.0039023699529274064, -0.1365291010716344, 1,
       2.6529016266005048, 0.13097994029999152, 36304541952.42, 1},
      {kVla, Product::LL, 1360, 87040, 87040, 13328.0, 1.2016745430144438, -0.3714591748894033, 1,
       2.6529016266005048, 0.13097994029999152, 36304541952.42, 1},
      {kMojave, Product::I, 6300, 6300, 5946, 4660089.626275832, 7118176.959749457,
       -138396.09454197175, 1, 187.705930754 * kDeg, 12.3911232861 * kDeg, 8104458750.0, 2},
      {kMojave, Product::Q, 6300, 6300, 5946, 4154665.5092065684, -2679.2258005444087,
       3962.615121660295, 1, 187.705930754 * kDeg, 12.3911232861 * kDeg, 8104458750.0, 2},
      {kMojave, Product::RR, 6300, 6300, 5946, 3452584.936149597, 5225176.718133938,
       -81985.22246238151, 1, 187.705930754 * kDeg, 12.3911232861 * kDeg, 8104458750.0, 2},
      {kEhtHi, Product::I, 6458, 6458, 6458, 210679141.48831177, 2332929.387194768,
       14316440.585654268, 1, 187.7059307575226 * kDeg, 12.39112323919932 * kDeg, 229070703125.0,
       1},
      {kEhtLo, Product::I, 6453, 6453, 6453, 211743798.91344452, -13094075.911083952,
       8431630.310729265, 1, 187.7059307575226 * kDeg, 12.39112323919932 * kDeg, 227070703125.0, 1},
      {kEhtLo, Product::RL, 6453, 6453, 0, 0.0, 0.0, 0.0, 1, 187.7059307575226 * kDeg,
       12.39112323919932 * kDeg, 227070703125.0, 1},
  };
  return refs;
}

bool close(double a, double b, double tol) {
  return std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b));
}

std::string shared(const char* p) {
  return (apertura::testing::sharedDataDir() + "/" + p).toStdString();
}

}  // namespace

class TestReadersShared : public QObject {
  Q_OBJECT
 private slots:
  void matchesIndependentReading_data() {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < references().size(); ++i) {
      const auto& r = references()[i];
      QTest::newRow(qPrintable(
          QString("%1 %2").arg(r.path).arg(QString::fromStdString(productName(r.product)))))
          << static_cast<int>(i);
    }
  }

  void matchesIndependentReading() {
    QFETCH(int, index);
    const Reference& r = references()[static_cast<std::size_t>(index)];
    ReadOptions o;
    o.selection.product = r.product;
    o.mode = ReadMode::kStreaming;
    o.chunk_rows = 1000;
    auto streaming = openVisibilitySource(shared(r.path), o);
    o.mode = ReadMode::kResident;
    auto resident = openVisibilitySource(shared(r.path), o);
    const SourceInfo& info = streaming->info();
    QCOMPARE(info.rows, r.rows);
    QCOMPARE(info.samples, r.samples);
    QCOMPARE(info.fields.size(), std::size_t(r.fields));
    QVERIFY(close(info.fields[0].ra_rad, r.field0_ra, 1e-12));
    QVERIFY(close(info.fields[0].dec_rad, r.field0_dec, 1e-12));
    QCOMPARE(info.spectral_windows.size(), r.windows);
    QCOMPARE(info.spectral_windows[0].first_channel_hz, r.first_freq);

    const PassSums s = readPass(*streaming);
    QCOMPARE(s.rows, r.rows);
    QCOMPARE(s.samples, r.samples);
    QCOMPARE(s.unflagged, r.unflagged);
    QVERIFY2(close(s.sum_w, r.sum_w, 1e-6), qPrintable(QString::number(s.sum_w, 'g', 17)));
    QVERIFY2(close(s.sum_wre, r.sum_wre, 1e-5), qPrintable(QString::number(s.sum_wre, 'g', 17)));
    QVERIFY2(close(s.sum_wim, r.sum_wim, 1e-5), qPrintable(QString::number(s.sum_wim, 'g', 17)));

    const PassSums rs = readPass(*resident);  // bit-identical, not just close
    QCOMPARE(rs.sum_w, s.sum_w);
    QCOMPARE(rs.sum_wre, s.sum_wre);
    QCOMPARE(rs.sum_wim, s.sum_wim);
    QCOMPARE(rs.sum_uvw, s.sum_uvw);
    QCOMPARE(rs.sum_time, s.sum_time);
    QCOMPARE(rs.sum_freq, s.sum_freq);
  }

  void ehtCrossHandsAreReportedFlagged() {
    ReadOptions o;
    o.selection.product = Product::RL;
    auto src = openVisibilitySource(shared(kEhtLo), o);
    readPass(*src);
    QString all;
    for (const auto& w : src->warnings())
      all += QString::fromStdString(w) + "\n";
    // Hand parsing: of the 6453 RL samples 4688 have an Inf weight and 1765 a zero weight.
    QVERIFY2(all.contains("4688 correlation samples with NaN or Inf value or weight were flagged"),
             qPrintable(all));
    QVERIFY2(all.contains("all 6453 selected visibilities are flagged"), qPrintable(all));
  }

  void uvfitsSummaries() {
    // Header values and group counts from the same hand parsing (see the file comment).
    DatasetSummary m = summarizeDataset(shared(kMojave));
    QCOMPARE(m.format, std::string("UVFITS"));
    QCOMPARE(m.telescope, std::string("VLBA"));
    QCOMPARE(m.rows, std::uint64_t(3150));
    QCOMPARE(m.antennas_used, 10);
    QCOMPARE(m.antennas_listed, 10);
    QCOMPARE(m.polarizations[0].correlations, (std::vector<std::string>{"RR", "LL", "RL", "LR"}));
    QCOMPARE(m.spectral_windows.size(), std::size_t(2));
    QCOMPARE(m.spectral_windows[1].first_channel_hz, 8104458750.0 + 8.0e6);
    QCOMPARE(m.flag_cells_total, std::uint64_t(25200));
    QCOMPARE(m.flag_cells_flagged, std::uint64_t(1416));
    QVERIFY(close(m.time_start_mjd_s, 4657121585.005188, 1e-12));
    QVERIFY(close(m.time_end_mjd_s, 4657157085.003662, 1e-12));
    QVERIFY(close(m.min_baseline_m, 236639.8052514375, 1e-6));
    QVERIFY(close(m.max_baseline_m, 8611586.242718853, 1e-6));
    QCOMPARE(m.fields[0].name, std::string("1228+126"));

    DatasetSummary e = summarizeDataset(shared(kEhtHi));
    QCOMPARE(e.rows, std::uint64_t(6458));
    QCOMPARE(e.antennas_used, 7);
    QCOMPARE(e.antennas_listed, 8);
    QCOMPARE(e.flag_cells_total, std::uint64_t(25832));
    QCOMPARE(e.flag_cells_flagged, std::uint64_t(12916));  // RL/LR weights are Inf
    QCOMPARE(e.fields[0].frame, std::string("J2000"));
    QCOMPARE(e.spectral_windows[0].channel_width_hz, 1856000000.0);
    QVERIFY(close(e.time_start_mjd_s, 4998069965.00001, 1e-12));
    QVERIFY(close(e.max_baseline_m, 10907924.33307764, 1e-6));
  }

  void measurementSetSummaryExtensions() {
    // ALMA: 12 m dishes; 231.64 m longest baseline at 344.8 GHz (test_ms_summary_shared).
    const DatasetSummary a = summarizeDataset(shared(kAntennae));
    QCOMPARE(a.unflagged_visibilities, std::uint64_t(149390));
    QCOMPARE(a.dish_diameter_m, 12.0);
    const double lambda = 299792458.0 / 344817753828.1;
    QVERIFY(close(a.max_baseline_wavelengths, 231.6425664929008 / lambda, 1e-9));
    QVERIFY(close(a.suggested_cell_rad, lambda / (5 * 231.6425664929008), 1e-9));
    QVERIFY(close(a.primary_beam_fwhm_rad, 1.13 * lambda / 12.0, 1e-9));
    QCOMPARE(a.suggested_image_size, 240);  // 2 FWHM / cell = 218.1 -> 240 = 2^4 3 5
    // LWA: autocorrelations are not imaging data: 190 cross rows x 109 ch x 4 corr.
    const DatasetSummary l = summarizeDataset(shared(kLwa));
    QCOMPARE(l.unflagged_visibilities, std::uint64_t(190 * 109 * 4));
    // ANTENNA NAME, as python-casacore reads it (the VLA file leaves removed antennas unnamed).
    QCOMPARE(summarizeDataset(shared(kX5707)).antenna_names,
             (std::vector<std::string>{"DA41", "DA42"}));
    const std::vector<std::string> vla = {"1",  "2",  "3",  "4",  "5",  "", "7",  "8", "9",  "",
                                          "",   "12", "",   "",   "15", "", "",   "",  "19", "20",
                                          "21", "22", "23", "24", "25", "", "27", "28"};
    QCOMPARE(summarizeDataset(shared(kVla)).antenna_names, vla);
  }
};

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  if (apertura::testing::sharedDataDir().isEmpty()) {
    std::printf("SKIPPED: ../shared/data is absent\n");
    return apertura::testing::kSkipExitCode;
  }
  TestReadersShared test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_readers_shared.moc"
