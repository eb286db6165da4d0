// The UVFITS reader and summary on a file the test writes with cfitsio (tests/io/uvfits_fixture):
// UU/VV/WW in seconds with PSCAL, two DATE parameters, BASELINE (256 and 2048 encodings) or
// ANTENNA1/ANTENNA2, STOKES and IF axes, the AIPS FQ and AN tables. Expected numbers come from
// the fixture's value/weight formulas.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <set>

#include "core/data/dataset_summary_json.h"
#include "core/data/dataset_summary_text.h"
#include "core/io/dataset_summary_reader.h"
#include "core/io/uvfits_reader.h"
#include "core/util/input_error.h"
#include "tests/io/read_pass.h"
#include "tests/io/uvfits_fixture.h"

using namespace apertura;
using namespace apertura::testing;
using F = UvfitsFixture;

namespace {

constexpr double kC = 299792458.0;

struct Expected {
  std::uint64_t unflagged = 0;
  double sum_w = 0, sum_wre = 0, sum_wim = 0;
};

// Stokes I = (RR + LL) / 2 over the cross-correlation groups, from the fixture's formulas.
Expected expectedStokesI(bool one_hand) {
  Expected e;
  const F::Options o;
  for (int g = 0; g < F::kGroups; ++g) {
    if (F::antenna1(g) == F::antenna2(g, o))
      continue;
    for (int i = 0; i < F::kIfs; ++i) {
      for (int c = 0; c < F::kChannels; ++c) {
        const auto rr = F::value(g, i, c, 0), ll = F::value(g, i, c, 1);
        const double wr = F::weight(g, i, c, 0, o), wl = F::weight(g, i, c, 1, o);
        const bool ok_r = std::isfinite(rr.real()) && wr > 0,
                   ok_l = std::isfinite(ll.real()) && wl > 0;
        std::complex<double> v;
        double w = 0;
        if (ok_r && ok_l) {
          v = 0.5 * (std::complex<double>(rr) + std::complex<double>(ll));
          w = 4.0 / (1.0 / wr + 1.0 / wl);
        } else if (one_hand && (ok_r || ok_l)) {
          v = ok_r ? std::complex<double>(rr) : std::complex<double>(ll);
          w = ok_r ? wr : wl;
        } else {
          continue;
        }
        ++e.unflagged;
        e.sum_w += w;
        e.sum_wre += w * v.real();
        e.sum_wim += w * v.imag();
      }
    }
  }
  return e;
}

bool close(double a, double b) {
  return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b));
}

}  // namespace

class TestUvfitsReader : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    file_ = F::write(path("known.uvfits"));
  }

  void stokesIAndLayout() {
    ReadOptions o;
    o.chunk_rows = 2;
    auto src = openUvfitsReader(file_, o);
    QCOMPARE(src->info().format, std::string("UVFITS"));
    QCOMPARE(src->info().rows, std::uint64_t(5 * F::kIfs));
    QCOMPARE(src->info().samples, std::uint64_t(5 * F::kIfs * F::kChannels));
    QCOMPARE(src->info().spectral_windows.size(), std::size_t(2));
    QCOMPARE(src->info().spectral_windows[1].first_channel_hz, F::frequencyHz(1, 0));
    QCOMPARE(src->info().fields[0].name, std::string("TESTSRC"));
    QVERIFY(close(src->info().fields[0].ra_rad, F::kRaDeg * M_PI / 180));
    const PassSums s = readPass(*src, true);
    QCOMPARE(s.chunks, std::uint64_t(6));  // blocks {0,1} {2,4} {5} x 2 IFs
    const Expected e = expectedStokesI(false);
    QCOMPARE(s.unflagged, e.unflagged);
    QCOMPARE(e.unflagged, std::uint64_t(28));  // 30 minus the flagged LL and the NaN RR
    QVERIFY2(close(s.sum_w, e.sum_w), qPrintable(QString::number(s.sum_w)));
    QVERIFY(close(s.sum_wre, e.sum_wre));
    QVERIFY(close(s.sum_wim, e.sum_wim));

    const VisibilityChunk& c0 = s.kept[0];  // IF 1 of groups 0 and 1
    QCOMPARE(c0.spectral_window_id, 0);
    QCOMPARE(c0.frequencies_hz, (std::vector<double>{8.000e9, 8.001e9, 8.002e9}));
    // The imaging convention negates the file's UVW.
    QVERIFY(close(c0.uvw_m[0], -F::uMetres(0)));
    QVERIFY(close(c0.uvw_m[4], -F::vMetres(1)));
    QVERIFY(close(c0.uvw_m[5], -F::wMetres(1)));
    const double t0 = (F::kJdStart - 2400000.5) * 86400.0;
    QVERIFY(std::fabs(c0.time_mjd_s[1] - (t0 + F::timeOffsetS(1))) < 1e-3);
    QCOMPARE(c0.antenna1, (std::vector<int>{0, 0}));
    QCOMPARE(c0.antenna2, (std::vector<int>{1, 2}));
    QCOMPARE(c0.source_rows, (std::vector<std::uint64_t>{0, 1}));  // group indices
    const VisibilityChunk& c1 = s.kept[1];                         // IF 2 of the same groups
    QCOMPARE(c1.source_rows, c0.source_rows);
    QCOMPARE(s.kept[2].source_rows, (std::vector<std::uint64_t>{2, 4}));  // group 3 is an auto
    QCOMPARE(c1.spectral_window_id, 1);
    QCOMPARE(c1.frequencies_hz[0], 8.032e9);
    QCOMPARE(c1.first_row, std::size_t(2));

    const auto w = src->warnings();
    QCOMPARE(w.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(w[0]).contains("1 correlation samples with NaN or Inf"),
             w[0].c_str());
  }

  void oneHandAndCrossHands() {
    ReadOptions o;
    o.selection.single_hand = SingleHandPolicy::kUseAvailable;
    const PassSums one = readPass(*openUvfitsReader(file_, o));
    const Expected e = expectedStokesI(true);
    QCOMPARE(one.unflagged, std::uint64_t(30));
    QVERIFY(close(one.sum_w, e.sum_w));
    QVERIFY(close(one.sum_wim, e.sum_wim));
    // Q = (RL + LR) / 2 = re + 1i, w = 4 / (1/3 + 1/4) = 48/7; RL of group 2 is exactly zero.
    o.selection.product = Product::Q;
    auto q = openUvfitsReader(file_, o);
    const PassSums qs = readPass(*q);
    QCOMPARE(qs.unflagged, std::uint64_t(29));
    QVERIFY(close(qs.sum_w, 29 * 48.0 / 7.0));
    QVERIFY(close(qs.sum_wim, qs.sum_w));
    bool zero_warned = false;
    for (const auto& w : q->warnings()) {
      zero_warned |= QString::fromStdString(w).contains(
          "1 correlation samples exactly zero with positive weight were flagged");
    }
    QVERIFY(zero_warned);
  }

  void selectionOfIfsAndChannels() {
    ReadOptions o;
    o.selection.spectral_windows = {1};
    o.selection.channel_start = 1;
    const PassSums s = readPass(*openUvfitsReader(file_, o), true);
    QCOMPARE(s.rows, std::uint64_t(5));
    QCOMPARE(s.samples, std::uint64_t(10));
    QCOMPARE(s.kept[0].frequencies_hz, (std::vector<double>{8.033e9, 8.034e9}));
  }

  void baselineEncodings() {
    F::Options wide;
    wide.wide_array = true;
    const PassSums w =
        readPass(*openUvfitsReader(F::write(path("wide.uvfits"), wide), ReadOptions{}), true);
    QCOMPARE(w.kept.back().antenna1.back(), 2);    // antenna 3
    QCOMPARE(w.kept.back().antenna2.back(), 299);  // antenna 300, 2048-style encoding
    F::Options ants;
    ants.antenna_params = true;
    const PassSums a =
        readPass(*openUvfitsReader(F::write(path("ants.uvfits"), ants), ReadOptions{}));
    const PassSums b = readPass(*openUvfitsReader(file_, ReadOptions{}));
    QCOMPARE(a.rows, b.rows);
    QCOMPARE(a.sum_wre, b.sum_wre);
    QCOMPARE(a.sum_uvw, b.sum_uvw);
  }

  // A multi-source file: fields come from the AIPS SU table (names, positions), in table order,
  // and each group goes to the field whose ID. NO. its SOURCE parameter gives.
  void multiSourceFields() {
    F::Options opt;
    opt.multi_source = true;
    const std::string path2 = F::write(path("multi.uvfits"), opt);
    const DatasetSummary s = summarizeDataset(path2);
    QCOMPARE(s.fields.size(), std::size_t(2));
    QCOMPARE(s.fields[0].name, std::string("SRC_B"));
    QCOMPARE(s.fields[1].name, std::string("SRC_A"));
    QVERIFY(close(s.fields[0].ra_rad, F::kSourceBRaDeg * M_PI / 180));
    QVERIFY(close(s.fields[0].dec_rad, F::kSourceBDecDeg * M_PI / 180));
    QVERIFY(close(s.fields[1].ra_rad, F::kSourceARaDeg * M_PI / 180));
    QCOMPARE(s.fields[1].frame, std::string("J2000"));

    ReadOptions o;
    o.selection.field_ids = {1};  // SRC_A: SOURCE ID 3, groups 0-2 (group 2 is not an auto)
    auto src = openUvfitsReader(path2, o);
    QCOMPARE(src->info().fields.size(), std::size_t(2));
    QCOMPARE(src->info().fields[1].name, std::string("SRC_A"));
    const PassSums a = readPass(*src, true);
    std::set<std::uint64_t> groups;
    for (const auto& c : a.kept) {
      QCOMPARE(c.field_id, 1);
      groups.insert(c.source_rows.begin(), c.source_rows.end());
    }
    QCOMPARE(groups, (std::set<std::uint64_t>{0, 1, 2}));
    o.selection.field_ids = {0};  // SRC_B: groups 3-5 minus the autocorrelation (group 3)
    const PassSums b = readPass(*openUvfitsReader(path2, o), true);
    groups.clear();
    for (const auto& c : b.kept) {
      QCOMPARE(c.field_id, 0);
      groups.insert(c.source_rows.begin(), c.source_rows.end());
    }
    QCOMPARE(groups, (std::set<std::uint64_t>{4, 5}));

    opt.unknown_source = true;
    const std::string bad = F::write(path("unknown-source.uvfits"), opt);
    try {
      openUvfitsReader(bad, ReadOptions{});
      QFAIL("a SOURCE ID missing from the SU table was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("unknown-source.uvfits") &&
                   QString(e.what()).contains("SOURCE parameter is 5"),
               e.what());
    }
  }

  // Several FQ rows: the groups' FREQSEL picks the row whose IF offsets apply; groups using two
  // setups are refused rather than imaged with one setup's frequencies.
  void frequencySetups() {
    F::Options opt;
    opt.second_setup = true;
    opt.freqsel = 2;
    const std::string second = F::write(path("setup2.uvfits"), opt);
    auto src = openUvfitsReader(second, ReadOptions{});
    const auto& spw = src->info().spectral_windows;
    QCOMPARE(spw.size(), std::size_t(2));
    QCOMPARE(spw[0].first_channel_hz, F::frequencyHz(0, 0) + F::kSetup2OffsetHz);
    QCOMPARE(spw[1].first_channel_hz, F::frequencyHz(1, 0) + F::kSetup2OffsetHz);
    VisibilityChunk c;
    QVERIFY(src->next(c));
    QCOMPARE(c.frequencies_hz[0], F::frequencyHz(0, 0) + F::kSetup2OffsetHz);
    QCOMPARE(summarizeDataset(second).spectral_windows[1].first_channel_hz,
             F::frequencyHz(1, 0) + F::kSetup2OffsetHz);
    // Without a FREQSEL parameter every group uses FRQSEL 1.
    opt.freqsel = 0;
    const std::string first = F::write(path("setup1.uvfits"), opt);
    QCOMPARE(openUvfitsReader(first, ReadOptions{})->info().spectral_windows[0].first_channel_hz,
             F::frequencyHz(0, 0));
    opt.freqsel = 2;
    opt.mixed_freqsel = true;
    const std::string mixed = F::write(path("mixed-setups.uvfits"), opt);
    for (int pass = 0; pass < 2; ++pass) {
      try {
        if (pass == 0)
          openUvfitsReader(mixed, ReadOptions{});
        else
          summarizeDataset(mixed);
        QFAIL("groups with two frequency setups were accepted");
      } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains("mixed-setups.uvfits") &&
                     QString(e.what()).contains("FREQSEL 1, 2"),
                 e.what());
      }
    }
    opt.mixed_freqsel = false;
    opt.freqsel = 3;
    try {
      openUvfitsReader(F::write(path("setup3.uvfits"), opt), ReadOptions{});
      QFAIL("FREQSEL 3 without an FQ row was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("FREQSEL 3"), e.what());
    }
  }

  void summary() {
    const DatasetSummary s = summarizeDataset(file_);
    QCOMPARE(s.format, std::string("UVFITS"));
    QCOMPARE(s.telescope, std::string("TESTVLBI"));
    QCOMPARE(s.rows, std::uint64_t(F::kGroups));
    QCOMPARE(s.autocorrelation_rows, std::uint64_t(F::kAutocorrelations));
    QCOMPARE(s.antennas_listed, F::kAntennas);
    QCOMPARE(s.antennas_used, 3);
    QCOMPARE(s.antenna_names, (std::vector<std::string>{"AN1", "AN2", "AN3", "AN4"}));
    QVERIFY(formatSummaryText(s).find("Antenna names: AN1, AN2, AN3, AN4\n") != std::string::npos);
    QVERIFY(summaryToJson(s, -1).find(R"("antenna_names":["AN1","AN2","AN3","AN4"])") !=
            std::string::npos);
    DatasetSummary many;
    for (int a = 0; a < 35; ++a)
      many.antenna_names.push_back("S" + std::to_string(a));
    const std::string text = formatSummaryText(many);
    QVERIFY2(text.find("S28, S29, … (5 more)\n") != std::string::npos, text.c_str());
    QVERIFY(text.find("S30") == std::string::npos);
    QCOMPARE(s.polarizations.size(), std::size_t(1));
    QCOMPARE(s.polarizations[0].correlations, (std::vector<std::string>{"RR", "LL", "RL", "LR"}));
    QCOMPARE(s.spectral_windows.size(), std::size_t(2));
    QCOMPARE(s.spectral_windows[1].first_channel_hz, 8.032e9);
    QCOMPARE(s.spectral_windows[1].last_channel_hz, 8.034e9);
    QCOMPARE(s.spectral_windows[1].channel_width_hz, 1.0e6);
    QCOMPARE(s.spectral_windows[1].total_bandwidth_hz, 3.0e6);
    QCOMPARE(s.fields[0].frame, std::string("J2000"));
    QCOMPARE(s.columns.size(), std::size_t(7));
    QCOMPARE(s.flag_cells_total, std::uint64_t(144));
    QCOMPARE(s.flag_cells_flagged, std::uint64_t(1));
    QCOMPARE(s.unflagged_visibilities, std::uint64_t(5 * 24 - 1));
    QVERIFY(close(s.max_baseline_m, std::sqrt(6000.0 * 6000 + 2250.0 * 2250 + 50.0 * 50)));
    QVERIFY(close(s.min_baseline_m, std::sqrt(1000.0 * 1000 + 250.0 * 250)));
    const double t0 = (F::kJdStart - 2400000.5) * 86400.0;
    QVERIFY(std::fabs(s.time_start_mjd_s - (t0 + 3600)) < 1e-3);
    QVERIFY(std::fabs(s.time_end_mjd_s - (t0 + 3750)) < 1e-3);
    // Imaging suggestions: cell = 1 / (5 B_max/lambda_min), FWHM = 1.13 lambda_max / 25 m.
    QCOMPARE(s.dish_diameter_m, F::kDishDiameterM);
    QVERIFY(close(s.max_baseline_wavelengths, s.max_baseline_m * 8.034e9 / kC));
    QVERIFY(close(s.suggested_cell_rad, 1.0 / (5 * s.max_baseline_wavelengths)));
    QVERIFY(close(s.primary_beam_fwhm_rad, 1.13 * (kC / 8.0e9) / 25.0));
    // 2 FWHM / cell = 2908.8 cells; the next even 2-3-5 size is 2916 = 2^2 3^6.
    QCOMPARE(s.suggested_image_size, 2916);
    QVERIFY(!s.image_size_capped);
  }

 private:
  std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }
  QTemporaryDir dir_;
  std::string file_;
};

QTEST_GUILESS_MAIN(TestUvfitsReader)
#include "test_uvfits_reader.moc"
