// Simulated Measurement Sets read back with casacore: subtables, row order, UVW (CASA sign),
// DATA equal to the model, WEIGHT/SIGMA, noise statistics, determinism and overwrite rules.
#include <casacore/casa/Arrays/ArrayMath.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/measures/Measures/Stokes.h>
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/sim/predict.h"
#include "core/sim/simulator.h"
#include "core/util/input_error.h"

using namespace apertura;
using namespace apertura::sim;
namespace cc = casacore;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);

ObservationSpec smallObservation() {
  ObservationSpec spec;
  spec.ra_rad = 1.1;
  spec.dec_rad = -0.45;
  spec.duration_h = 0.5;
  spec.integration_s = 300.0;  // 6 integrations
  spec.spectral_windows = {{230e9, 50e6, 3}, {245e9, -25e6, 5}};
  return spec;
}

std::vector<std::complex<float>> readData(const std::string& path) {
  cc::MeasurementSet ms(path);
  cc::MSColumns c(ms);
  std::vector<std::complex<float>> out;
  for (cc::rownr_t r = 0; r < ms.nrow(); ++r) {
    const cc::Matrix<cc::Complex> d = c.data()(r);
    for (const auto& x : d)
      out.emplace_back(x.real(), x.imag());
  }
  return out;
}

}  // namespace

class TestSimMeasurementSet : public QObject {
  Q_OBJECT
 private slots:
  void writesAStandardMeasurementSet() {
    SkyModel sky;
    sky.reference_frequency_hz = 230e9;
    sky.points.push_back({1.5, 3.0 * kArcsec, -2.0 * kArcsec, 0.0});
    sky.gaussians.push_back(
        {0.4, -1.0 * kArcsec, 1.0 * kArcsec, 1.2 * kArcsec, 0.6 * kArcsec, 0.5, 0.0});
    const ArrayLayout layout = randomCompactLayout(200.0, 6, 12.0, 5);
    ObservationSpec spec = smallObservation();
    spec.basis = CorrelationBasis::Circular;
    const std::string path = dir_.path().toStdString() + "/model.ms";
    const SimulationSummary s = simulateMeasurementSet(sky, layout, spec, path, false);
    QCOMPARE(s.rows, std::uint64_t(6 * 15 * 2));
    QCOMPARE(s.visibilities, std::uint64_t(6 * 15 * (3 + 5)));

    cc::MeasurementSet ms(path);
    cc::MSColumns c(ms);
    QCOMPARE(ms.nrow(), cc::rownr_t(180));
    QCOMPARE(ms.antenna().nrow(), cc::rownr_t(6));
    QCOMPARE(ms.feed().nrow(), cc::rownr_t(6));
    QCOMPARE(ms.observation().nrow(), cc::rownr_t(1));
    QCOMPARE(ms.dataDescription().nrow(), cc::rownr_t(2));
    QCOMPARE(c.observation().telescopeName()(0), cc::String("RANDOM"));
    QVERIFY(ms.history().nrow() >= 1);
    const cc::Vector<int> corr = c.polarization().corrType()(0);
    QCOMPARE(corr(0), int(cc::Stokes::RR));
    QCOMPARE(corr(1), int(cc::Stokes::LL));
    QCOMPARE(c.feed().polarizationType()(0)(cc::IPosition(1, 1)), cc::String("L"));
    const cc::Vector<double> f1 = c.spectralWindow().chanFreq()(1);
    QCOMPARE(f1.nelements(), std::size_t(5));
    QCOMPARE(f1(4), 245e9 - 4 * 25e6);

    // Rows: time, then spectral window, then baseline; the model is in DATA for both
    // correlations (noiseless), with UVW = X(antenna1) - X(antenna2).
    std::vector<Vec3> pos;
    for (std::size_t i = 0; i < layout.antennas.size(); ++i)
      pos.push_back(layout.position(i));
    const UvwFrame frame{spec.ra_rad, spec.dec_rad, layout.centre(), {}};
    double worst_uvw = 0.0, worst_vis = 0.0;
    for (cc::rownr_t r = 0; r < ms.nrow(); ++r) {
      const int spw = c.dataDescId()(r);
      QCOMPARE(spw, int((r / 15) % 2));
      QCOMPARE(c.time()(r), s.start_time_mjd_s + (double(r / 30) + 0.5) * 300.0);
      const int a1 = c.antenna1()(r), a2 = c.antenna2()(r);
      QVERIFY(a1 < a2);
      std::vector<Vec3> au;
      antennaUvw(c.time()(r), frame, pos, au);
      const cc::Vector<double> uvw = c.uvw()(r);
      for (int k = 0; k < 3; ++k)
        worst_uvw = std::max(worst_uvw, std::fabs(uvw(k) - (au[a1][k] - au[a2][k])));
      const cc::Vector<double> freqs = c.spectralWindow().chanFreq()(spw);
      std::vector<double> fv(freqs.begin(), freqs.end());
      std::vector<std::complex<double>> model(fv.size());
      // DATA follows the imaging convention, whose uvw is minus the MS UVW column.
      const double u[3] = {-uvw(0), -uvw(1), -uvw(2)};
      predictVisibilities(sky, u, 1, fv, model.data());
      const cc::Matrix<cc::Complex> data = c.data()(r);
      QCOMPARE(data.shape(), cc::IPosition(2, 2, int(fv.size())));
      for (std::size_t ch = 0; ch < fv.size(); ++ch) {
        for (int p = 0; p < 2; ++p) {
          const cc::Complex d = data(p, ch);
          worst_vis =
              std::max(worst_vis, std::abs(std::complex<double>(d.real(), d.imag()) - model[ch]));
        }
      }
      QCOMPARE(c.weight()(r)(cc::IPosition(1, 0)), 1.0f);
      QVERIFY(!c.flagRow()(r));
      QVERIFY(!cc::anyTrue(c.flag()(r)));
    }
    QVERIFY2(worst_uvw < 1e-9, qPrintable(QString::number(worst_uvw)));
    QVERIFY2(worst_vis < 1e-6, qPrintable(QString::number(worst_vis)));
    QVERIFY(std::abs(s.start_time_mjd_s - startTimeForHourAngle(spec, layout)) < 1e-6);
  }

  void noiseHasTheRequestedSigma() {
    SkyModel sky;  // empty sky: DATA is pure noise
    const ArrayLayout layout = randomCompactLayout(300.0, 12, 12.0, 9);
    ObservationSpec spec = smallObservation();
    spec.sigma_jy = 0.37;
    spec.seed = 11;
    const std::string path = dir_.path().toStdString() + "/noise.ms";
    simulateMeasurementSet(sky, layout, spec, path, false);
    const auto data = readData(path);
    const double n = static_cast<double>(data.size());
    double sr = 0, si = 0, srr = 0, sii = 0, sri = 0;
    for (const auto& v : data) {
      sr += v.real();
      si += v.imag();
      srr += v.real() * v.real();
      sii += v.imag() * v.imag();
      sri += v.real() * v.imag();
    }
    const double sigma = 0.37;
    // Means within 5 standard errors; variances within 5 standard errors (var of s^2 = 2 s^4/n).
    QVERIFY(std::fabs(sr / n) < 5 * sigma / std::sqrt(n));
    QVERIFY(std::fabs(si / n) < 5 * sigma / std::sqrt(n));
    const double tol = 5 * std::sqrt(2.0 / n) * sigma * sigma;
    QVERIFY2(std::fabs(srr / n - sigma * sigma) < tol,
             qPrintable(QString::number(std::sqrt(srr / n))));
    QVERIFY2(std::fabs(sii / n - sigma * sigma) < tol,
             qPrintable(QString::number(std::sqrt(sii / n))));
    QVERIFY(std::fabs(sri / n) < 5 * sigma * sigma / std::sqrt(n));
    cc::MeasurementSet ms(path);
    cc::MSColumns c(ms);
    QCOMPARE(c.sigma()(0)(cc::IPosition(1, 1)), 0.37f);
    QVERIFY(std::fabs(c.weight()(0)(cc::IPosition(1, 1)) - 1.0f / (0.37f * 0.37f)) < 1e-3f);

    // Same seed, same data; another seed, other data.
    const std::string again = dir_.path().toStdString() + "/noise_again.ms";
    simulateMeasurementSet(sky, layout, spec, again, false);
    QVERIFY(readData(again) == data);
    spec.seed = 12;
    simulateMeasurementSet(sky, layout, spec, again, true);
    QVERIFY(readData(again) != data);
  }

  void sefdGivesTheRadiometerSigma() {
    ObservationSpec spec = smallObservation();
    spec.sefd_jy = 5000.0;
    const auto s = noiseSigmas(spec);
    QCOMPARE(s.size(), std::size_t(2));
    QVERIFY(std::fabs(s[0] - 5000.0 / std::sqrt(2.0 * 50e6 * 300.0)) < 1e-12);
    QVERIFY(std::fabs(s[1] - 5000.0 / std::sqrt(2.0 * 25e6 * 300.0)) < 1e-12);
  }

  void refusesToOverwriteAndLeavesNoTemporaries() {
    SkyModel sky;
    sky.points.push_back({1.0, 0.0, 0.0, 0.0});
    const ArrayLayout layout = randomCompactLayout(100.0, 3, 12.0, 1);
    const std::string path = dir_.path().toStdString() + "/once.ms";
    simulateMeasurementSet(sky, layout, smallObservation(), path, false);
    try {
      simulateMeasurementSet(sky, layout, smallObservation(), path, false);
      QFAIL("expected an InputError");
    } catch (const InputError& e) {
      QVERIFY(QString(e.what()).contains("already exists"));
    }
    simulateMeasurementSet(sky, layout, smallObservation(), path, true);
    // --overwrite replaces a Measurement Set only, never a folder or file that merely has the
    // name (a folder of anything was once deleted: issue #33).
    const std::string folder = dir_.path().toStdString() + "/results.ms";
    std::filesystem::create_directories(folder + "/sub");
    std::ofstream(folder + "/sub/notes.txt") << "mine";
    const std::string file = dir_.path().toStdString() + "/plain.ms";
    std::ofstream(file) << "mine";
    for (const std::string& p : {folder, file}) {
      try {
        simulateMeasurementSet(sky, layout, smallObservation(), p, true);
        QFAIL("expected an InputError");
      } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains("exists and is not a Measurement Set; refusing to "
                                            "replace it"),
                 e.what());
      }
    }
    QVERIFY(std::filesystem::exists(folder + "/sub/notes.txt"));
    QVERIFY(std::filesystem::is_regular_file(file));
    for (const auto& entry : std::filesystem::directory_iterator(dir_.path().toStdString())) {
      QVERIFY2(entry.path().string().find(".tmp-") == std::string::npos, entry.path().c_str());
    }
  }

 private:
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestSimMeasurementSet)
#include "test_sim_measurement_set.moc"
