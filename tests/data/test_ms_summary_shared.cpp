// `info` numbers for every Measurement Set under ../shared/data, compared with values read
// independently with python3-casacore (table(...).nrows(), getcol('ANTENNA1'/'ANTENNA2'/'UVW'/
// 'TIME'), getcell('FLAG'), the FIELD, SPECTRAL_WINDOW and POLARIZATION subtables).
#include <QCoreApplication>
#include <QtTest>
#include <cstdio>

#include "core/io/ms_summary.h"
#include "tests/support/shared_data.h"

using namespace apertura;

namespace {

struct Expected {
  const char* path;
  const char* telescope;
  std::uint64_t rows, autocorrelations;
  int antennas_listed, antennas_used, fields;
  const char* field0_name;
  double field0_ra, field0_dec;
  int nchan;
  double ref_freq, first_chan, last_chan, total_bw;
  std::vector<std::vector<std::string>> correlations;
  std::uint64_t flag_cells;
  double t0, t1, bmin, bmax;
  std::size_t columns;
};

const std::vector<Expected>& expectedSets() {
  static const std::vector<Expected> sets = {
      {"alma_antennae_mosaic/all_fields.ms",
       "ALMA",
       74695,
       0,
       15,
       14,
       23,
       "AntNorth_FIELD_1",
       -3.1334548374091584,
       -0.3292366980142052,
       1,
       344817753828.1,
       344817753828.1,
       344817753828.1,
       1841796864.0,
       {{"XX", "YY"}},
       149390,
       4813263677.374077,
       4814567095.823479,
       16.33315806016382,
       231.6425664929008,
       24},
      {"alma_x5707/X5707_1spw_1scan_10chan_1time_1bl_noatm.ms",
       "ALMA",
       40,
       0,
       2,
       2,
       3,
       "J1337-1257",
       -2.715457224724682,
       -0.22613985506635104,
       11,
       111457315488.23772,
       111457315488.23772,
       111462198300.73772,
       5371093.75,
       {{"XX", "YY"}, {"XX"}},
       880,
       5027895533.184,
       5027895769.056,
       71.57388984052137,
       71.57388984052146,
       22},
      {"ovro_lwa/2018-03-21-01_26_33_0004384620257280_000000_downselected.ms",
       "OVRO_MMA",
       210,
       20,
       256,
       20,
       1,
       "Zenith5028807244.90",
       -0.18857309245756662,
       0.6450617248513579,
       109,
       27384000.0,
       27384000.0,
       29976000.0,
       0.0,
       {{"XX", "YY", "XY", "YX"}},
       91560,
       5028807244.895898,
       5028807244.895898,
       5.390441291530852,
       91.95143332485644,
       23},
      {"vla_day2_tdem0003/day2_TDEM0003_10s_norx_1src_1spw.ms",
       "EVLA",
       1360,
       0,
       28,
       18,
       1,
       "J1008+0730",
       2.6529016266005048,
       0.13097994029999152,
       64,
       36308541952.42,
       36304541952.42,
       36312416952.42,
       8000000.0,
       {{"RR", "RL", "LR", "LL"}},
       348160,
       4778968916.000748,
       4778968995.998383,
       39.99237386834531,
       1031.2130552500305,
       23},
  };
  return sets;
}

}  // namespace

class TestMsSummaryShared : public QObject {
  Q_OBJECT
 private slots:
  void matchesIndependentReading_data() {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < expectedSets().size(); ++i) {
      QTest::newRow(expectedSets()[i].path) << static_cast<int>(i);
    }
  }

  void matchesIndependentReading() {
    QFETCH(int, index);
    const Expected& e = expectedSets()[static_cast<std::size_t>(index)];
    const DatasetSummary s =
        summarizeMeasurementSet((apertura::testing::sharedDataDir() + "/" + e.path).toStdString());
    QCOMPARE(s.telescope, std::string(e.telescope));
    QCOMPARE(s.rows, e.rows);
    QCOMPARE(s.autocorrelation_rows, e.autocorrelations);
    QCOMPARE(s.antennas_listed, e.antennas_listed);
    QCOMPARE(s.antennas_used, e.antennas_used);
    QCOMPARE(s.columns.size(), e.columns);
    QCOMPARE(s.fields.size(), std::size_t(e.fields));
    QCOMPARE(s.fields[0].name, std::string(e.field0_name));
    QCOMPARE(s.fields[0].ra_rad, e.field0_ra);
    QCOMPARE(s.fields[0].dec_rad, e.field0_dec);
    QCOMPARE(s.spectral_windows.size(), std::size_t(1));
    QCOMPARE(s.spectral_windows[0].num_channels, e.nchan);
    QCOMPARE(s.spectral_windows[0].ref_frequency_hz, e.ref_freq);
    QCOMPARE(s.spectral_windows[0].first_channel_hz, e.first_chan);
    QCOMPARE(s.spectral_windows[0].last_channel_hz, e.last_chan);
    QCOMPARE(s.spectral_windows[0].total_bandwidth_hz, e.total_bw);
    QCOMPARE(s.polarizations.size(), e.correlations.size());
    for (std::size_t p = 0; p < e.correlations.size(); ++p) {
      QCOMPARE(s.polarizations[p].correlations, e.correlations[p]);
    }
    QCOMPARE(s.flag_cells_total, e.flag_cells);
    QCOMPARE(s.flag_cells_flagged, std::uint64_t(0));
    QCOMPARE(s.time_start_mjd_s, e.t0);
    QCOMPARE(s.time_end_mjd_s, e.t1);
    QVERIFY(qFuzzyCompare(s.min_baseline_m, e.bmin));
    QVERIFY(qFuzzyCompare(s.max_baseline_m, e.bmax));
  }
};

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  if (apertura::testing::sharedDataDir().isEmpty()) {
    std::printf("SKIPPED: ../shared/data is absent\n");
    return apertura::testing::kSkipExitCode;
  }
  TestMsSummaryShared test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_ms_summary_shared.moc"
