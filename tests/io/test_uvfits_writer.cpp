// The UVFITS writer: what it writes is what our reader decodes (layout, FQ and AN tables, random
// parameters), the AN table holds the antenna positions, the keyword conventions match a real
// AIPS file (the shared VLBA file, read with our reader only), and misuse gives clear errors.
#include <fitsio.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/io/uvfits_handle.h"
#include "core/io/uvfits_layout.h"
#include "core/io/uvfits_writer.h"
#include "core/util/input_error.h"
#include "tests/support/shared_data.h"

using namespace apertura;

namespace {

constexpr double kC = 299792458.0;

MsLayout layout(int antennas, CorrelationBasis basis) {
  MsLayout l;
  l.telescope_name = "TESTARRAY";
  l.observer = "me";
  for (int a = 0; a < antennas; ++a) {
    MsAntennaInfo info;
    info.name = "A" + std::to_string(a);
    info.position_itrf_m[0] = 2225000.0 + 37.5 * a;
    info.position_itrf_m[1] = -5440000.0 - 11.25 * a * a;
    info.position_itrf_m[2] = -2481000.0 + 3.0 * a;
    info.dish_diameter_m = 12.0 + a;
    info.mount = a == 0 ? "EQUATORIAL" : "ALT-AZ";
    l.antennas.push_back(info);
  }
  l.fields.push_back({"TARGET", 1.25, -0.5});
  for (int s = 0; s < 3; ++s) {
    MsSpectralWindowInfo w;
    for (int c = 0; c < 4; ++c)
      w.channel_frequencies_hz.push_back(100e9 + 2e9 * s + c * 31.25e6);
    w.channel_width_hz = 31.25e6;
    l.spectral_windows.push_back(w);
  }
  l.basis = basis;
  l.start_time_mjd_s = 60390.0 * 86400.0 + 86000.0;  // near midnight: the run crosses it
  l.history = {"a test"};
  return l;
}

// Rows of all baselines at `times` integrations, one block per time and spectral window.
std::vector<MsRowBlock> blocks(const MsLayout& l, int times) {
  std::vector<MsRowBlock> out;
  const int n = static_cast<int>(l.antennas.size());
  for (int t = 0; t < times; ++t) {
    for (int s = 0; s < 3; ++s) {
      MsRowBlock b;
      b.data_desc_id = s;
      b.interval_s = 300.0;
      for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
          b.antenna1.push_back(i);
          b.antenna2.push_back(j);
          b.time_mjd_s.push_back(l.start_time_mjd_s + 150.0 + 300.0 * t);
          for (int k = 0; k < 3; ++k)
            b.uvw_m.push_back(123.456789 * (i + 1) - 98.7654321 * (j + k) + 1e-3 * t);
          for (int c = 0; c < 4; ++c) {
            for (int p = 0; p < 2; ++p)
              b.data.emplace_back(float(i + 0.25f * c + s), float(j - 0.5f * p + t));
          }
          b.weight.push_back(4.0f + s);
          b.weight.push_back(5.0f + s);
        }
      }
      out.push_back(b);
    }
  }
  return out;
}

std::vector<double> column(UvfitsHandle& f, const char* extname, const char* name, long rows,
                           long repeat) {
  int status = 0, col = 0;
  fits_movnam_hdu(f.get(), BINARY_TBL, const_cast<char*>(extname), 0, &status);
  fits_get_colnum(f.get(), CASEINSEN, const_cast<char*>(name), &col, &status);
  std::vector<double> out(static_cast<std::size_t>(rows * repeat));
  int anynul = 0;
  fits_read_col(f.get(), TDOUBLE, col, 1, 1, rows * repeat, nullptr, out.data(), &anynul, &status);
  f.check(status, std::string("reading ") + name);
  return out;
}

double keyOf(UvfitsHandle& f, const char* name) {
  double v = 0;
  int status = 0;
  fits_read_key(f.get(), TDOUBLE, name, &v, nullptr, &status);
  f.check(status, name);
  return v;
}

// Writes one integration of `l` (groups: its baselines) to `path`; returns `path`.
std::string writeOneIntegration(const std::string& path, const MsLayout& l, std::uint64_t groups) {
  UvfitsWriteOptions o;
  o.groups = groups;
  UvfitsWriter w(path, l, o);
  for (const auto& b : blocks(l, 1))
    w.write(b);
  w.close();
  return path;
}

}  // namespace

class TestUvfitsWriter : public QObject {
  Q_OBJECT
 private slots:
  void writesWhatTheReaderDecodes() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("w.uvfits").toStdString();
    const MsLayout l = layout(5, CorrelationBasis::Linear);
    const auto rows = blocks(l, 2);
    UvfitsWriteOptions o;
    o.groups = 2 * 10;
    {
      UvfitsWriter w(path, l, o);
      for (const auto& b : rows)
        w.write(b);
      QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));  // not before close()
      w.close();
      QCOMPARE(w.groupsWritten(), std::uint64_t(20));
    }
    UvfitsHandle f(path);
    UvfitsLayout L = readUvfitsLayout(f);
    QCOMPARE(L.bitpix, -64);
    QCOMPARE(L.gcount, 20LL);
    QCOMPARE(L.nif, std::size_t(3));
    QCOMPARE(L.nchan, std::size_t(4));
    QCOMPARE(L.ncomplex, std::size_t(3));
    QCOMPARE(L.correlations.size(), std::size_t(2));
    QCOMPARE(L.correlations[0], Correlation::XX);
    QCOMPARE(L.correlations[1], Correlation::YY);
    QCOMPARE(L.telescope, std::string("TESTARRAY"));
    QCOMPARE(L.object, std::string("TARGET"));
    QCOMPARE(L.frame, std::string("J2000"));
    QVERIFY(std::fabs(L.ra_rad - 1.25) < 1e-14 && std::fabs(L.dec_rad + 0.5) < 1e-14);
    QCOMPARE(L.antennas_listed, 5);
    QCOMPARE(L.antenna_names[3], std::string("A3"));
    QCOMPARE(L.dish_diameters_m[4], 16.0);
    QCOMPARE(L.date_params.size(), std::size_t(2));
    for (std::size_t s = 0; s < 3; ++s) {
      const auto freqs = L.channelFrequencies(s);
      for (std::size_t c = 0; c < 4; ++c)
        QCOMPARE(freqs[c], l.spectral_windows[s].channel_frequencies_hz[c]);
      QCOMPARE(L.if_channel_width_hz[s], 31.25e6);
      QCOMPARE(L.if_total_bandwidth_hz[s], 125e6);
    }
    // Every group: parameters and data where the reader looks for them.
    std::vector<double> raw(static_cast<std::size_t>(L.pcount));
    std::vector<double> data(L.group_elements);
    for (long long g = 0; g < L.gcount; ++g) {
      int status = 0, anynul = 0;
      fits_read_grppar_dbl(f.get(), long(g + 1), 1, L.pcount, raw.data(), &status);
      fits_read_img_dbl(f.get(), long(g + 1), 1, LONGLONG(L.group_elements), 0.0, data.data(),
                        &anynul, &status);
      f.check(status, "group");
      const GroupParams p = decodeGroupParams(L, raw.data(), g);
      const MsRowBlock& b = rows[std::size_t(g / 10) * 3];
      const std::size_t r = std::size_t(g % 10);
      QCOMPARE(p.antenna1, b.antenna1[r]);
      QCOMPARE(p.antenna2, b.antenna2[r]);
      QVERIFY(std::fabs(p.u_m - b.uvw_m[3 * r]) <= 1e-12 * std::fabs(b.uvw_m[3 * r]));
      QVERIFY(std::fabs(p.w_m - b.uvw_m[3 * r + 2]) <= 1e-12 * std::fabs(b.uvw_m[3 * r + 2]));
      QVERIFY(std::fabs(p.time_mjd_s - b.time_mjd_s[r]) < 1e-4);
      QCOMPARE(raw[6], 300.0);  // INTTIM
      for (std::size_t s = 0; s < 3; ++s) {
        const MsRowBlock& bs = rows[std::size_t(g / 10) * 3 + s];
        for (std::size_t c = 0; c < 4; ++c) {
          for (std::size_t k = 0; k < 2; ++k) {
            const auto v = bs.data[(r * 4 + c) * 2 + k];
            QCOMPARE(data[L.offset(0, k, c, s)], double(v.real()));
            QCOMPARE(data[L.offset(1, k, c, s)], double(v.imag()));
            QCOMPARE(data[L.offset(2, k, c, s)], double(bs.weight[r * 2 + k]));
          }
        }
      }
    }
    // The second integration crosses midnight: the first DATE holds the day offset.
    int status = 0;
    fits_read_grppar_dbl(f.get(), 1, 1, L.pcount, raw.data(), &status);
    QCOMPARE(raw[4], 0.0);
    QVERIFY(raw[5] > 0.99 && raw[5] < 1.0);
    fits_read_grppar_dbl(f.get(), 20, 1, L.pcount, raw.data(), &status);
    QCOMPARE(raw[4], 1.0);
    QVERIFY(raw[5] > 0.0 && raw[5] < 0.01);
    QCOMPARE(L.params[4].zero, 60390.0 + 2400000.5);
  }

  void antennaTableHoldsThePositions() {
    QTemporaryDir dir;
    const MsLayout l = layout(4, CorrelationBasis::Circular);
    const std::string path = writeOneIntegration(dir.filePath("an.uvfits").toStdString(), l, 6);
    UvfitsHandle f(path);
    const auto xyz = column(f, "AIPS AN", "STABXYZ", 4, 3);
    const double centre[3] = {keyOf(f, "ARRAYX"), keyOf(f, "ARRAYY"), keyOf(f, "ARRAYZ")};
    for (int a = 0; a < 4; ++a) {
      for (int i = 0; i < 3; ++i) {
        QVERIFY(std::fabs(xyz[std::size_t(3 * a + i)] + centre[i] -
                          l.antennas[std::size_t(a)].position_itrf_m[i]) < 1e-6);
      }
    }
    QCOMPARE(column(f, "AIPS AN", "MNTSTA", 4, 1)[0], 1.0);  // equatorial
    QCOMPARE(column(f, "AIPS AN", "NOSTA", 4, 1)[3], 4.0);
    QVERIFY(std::fabs(keyOf(f, "FREQ") - 100e9) < 1e-3);
    QVERIFY(keyOf(f, "GSTIA0") >= 0.0 && keyOf(f, "GSTIA0") < 360.0);
    QCOMPARE(column(f, "AIPS FQ", "SIDEBAND", 1, 3)[2], 1.0);
    QCOMPARE(column(f, "AIPS FQ", "IF FREQ", 1, 3)[2], 4e9);
    UvfitsHandle g(path);
    const UvfitsLayout L = readUvfitsLayout(g);
    QCOMPARE(L.correlations[0], Correlation::RR);
    QCOMPARE(L.correlations[1], Correlation::LL);
  }

  // The layout of a real AIPS file (VLBA, MOJAVE), as our reader decodes it: the same axis order,
  // random parameter names and tables.
  void followsTheConventionsOfARealAipsFile() {
    if (testing::sharedDataDir().isEmpty())
      QSKIP("../shared/data is absent");
    UvfitsHandle real((testing::sharedDataDir() + "/vlba_mojave/mojave.uvfits").toStdString());
    const UvfitsLayout R = readUvfitsLayout(real);
    QTemporaryDir dir;
    const std::string path = writeOneIntegration(dir.filePath("ours.uvfits").toStdString(),
                                                 layout(3, CorrelationBasis::Circular), 3);
    UvfitsHandle ours(path);
    const UvfitsLayout O = readUvfitsLayout(ours);
    QCOMPARE(O.complex_axis, R.complex_axis);
    QCOMPARE(O.stokes_axis, R.stokes_axis);
    QCOMPARE(O.freq_axis, R.freq_axis);
    QCOMPARE(O.if_axis, R.if_axis);
    QCOMPARE(O.axis_length.size(), R.axis_length.size());
    QCOMPARE(O.params.size(), R.params.size());
    for (std::size_t i = 0; i < R.params.size(); ++i)
      QCOMPARE(O.params[i].type.substr(0, 4), R.params[i].type.substr(0, 4));
    QCOMPARE(O.uu, R.uu);
    QCOMPARE(O.baseline, R.baseline);
    QCOMPARE(O.date_params, R.date_params);
    QCOMPARE(O.params[std::size_t(O.date_params[0])].zero > 2.4e6,
             R.params[std::size_t(R.date_params[0])].zero > 2.4e6);
    QCOMPARE(O.frame, R.frame);
    QVERIFY(O.warnings.empty());  // FQ and AN tables found, weights present
    QCOMPARE(O.frequency_setups.size(), R.frequency_setups.size());
    QCOMPARE(O.correlations[0], R.correlations[0]);
    QCOMPARE(O.correlations[1], R.correlations[1]);
  }

  // A phase centre stored west of RA 0 (negative) is written as RA in [0, 360), the same
  // direction: OBSRA and the RA axis' CRVAL.
  void rightAscensionIsWrittenInZeroTo360() {
    QTemporaryDir dir;
    MsLayout l = layout(3, CorrelationBasis::Linear);
    l.fields[0].ra_rad = -120.8 * M_PI / 180.0;
    UvfitsHandle f(writeOneIntegration(dir.filePath("ra.uvfits").toStdString(), l, 3));
    QVERIFY(std::fabs(keyOf(f, "OBSRA") - 239.2) < 1e-9);
    QVERIFY(std::fabs(keyOf(f, "CRVAL6") - 239.2) < 1e-9);
  }

  void misuseGivesClearErrors() {
    QTemporaryDir dir;
    const MsLayout l = layout(3, CorrelationBasis::Linear);
    UvfitsWriteOptions o;
    o.groups = 3;
    const std::string path = dir.filePath("x.uvfits").toStdString();
    {
      UvfitsWriter w(path, l, o);
      const auto b = blocks(l, 1);
      w.write(b[0]);
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, w.write(b[2]));  // spw 1 expected
      // Destroyed without close(): nothing is left behind.
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0);
    {
      UvfitsWriter w(path, l, o);
      w.write(blocks(l, 1)[0]);
      QVERIFY_THROWS_EXCEPTION(std::logic_error, w.close());  // 2 spectral windows missing
    }
    QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));
    MsLayout uneven = l;
    uneven.spectral_windows[1].channel_width_hz = 15.625e6;
    try {
      UvfitsWriter w(path, uneven, o);
      QFAIL("spectral windows of different widths were accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("same channel width"), e.what());
    }
    try {
      UvfitsWriter w(dir.filePath("missing/x.uvfits").toStdString(), l, o);
      QFAIL("a missing directory was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("missing/x.uvfits: cannot create the file"), e.what());
    }
  }

  void knowsUvfitsByExtension() {
    QVERIFY(hasUvfitsExtension("a/b.uvfits"));
    QVERIFY(hasUvfitsExtension("B.UVF"));
    QVERIFY(hasUvfitsExtension("c.fits"));
    QVERIFY(!hasUvfitsExtension("d.ms"));
    QVERIFY(!hasUvfitsExtension("uvfits"));
  }
};

QTEST_GUILESS_MAIN(TestUvfitsWriter)
#include "test_uvfits_writer.moc"
