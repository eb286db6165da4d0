// The same simulated observation written as a Measurement Set and as UVFITS, both read back with
// our readers (openVisibilitySource): every sample must agree — uvw, frequencies, visibilities,
// weights, times, antennas — and the dirty images of the two must be the same image.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <map>
#include <tuple>

#include "core/imaging/dirty_mapper.h"
#include "core/io/visibility_source_factory.h"
#include "core/sim/simulation_request.h"
#include "core/sim/simulator.h"
#include "core/util/input_error.h"

using namespace apertura;
using namespace apertura::sim;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);

// One row of one spectral window as a reader yields it.
struct Row {
  double u = 0, v = 0, w = 0, time = 0;
  std::vector<double> freqs;
  std::vector<std::complex<float>> vis;
  std::vector<float> weight;
};
using Key = std::tuple<int, long long, int, int>;  // spw, time (ms), antenna1, antenna2

std::map<Key, Row> readAll(const std::string& path, std::vector<VisibilityChunk>& chunks) {
  ReadOptions options;
  auto source = openVisibilitySource(path, options);
  std::map<Key, Row> out;
  VisibilityChunk chunk;
  while (source->next(chunk)) {
    const std::size_t nchan = chunk.num_channels();
    for (std::size_t r = 0; r < chunk.num_rows(); ++r) {
      Row row;
      row.u = chunk.uvw_m[3 * r];
      row.v = chunk.uvw_m[3 * r + 1];
      row.w = chunk.uvw_m[3 * r + 2];
      row.time = chunk.time_mjd_s[r];
      row.freqs = chunk.frequencies_hz;
      row.vis.assign(chunk.visibilities.begin() + r * nchan,
                     chunk.visibilities.begin() + (r + 1) * nchan);
      row.weight.assign(chunk.weights.begin() + r * nchan, chunk.weights.begin() + (r + 1) * nchan);
      const Key key{chunk.spectral_window_id, std::llround(row.time * 1e3), chunk.antenna1[r],
                    chunk.antenna2[r]};
      if (out.count(key))
        throw std::runtime_error("duplicate row in " + path);
      out[key] = std::move(row);
    }
    chunks.push_back(chunk);
  }
  return out;
}

ObservationSpec observation() {
  ObservationSpec spec;
  spec.ra_rad = 2.1;
  spec.dec_rad = 0.35;
  spec.duration_h = 0.75;
  spec.integration_s = 90.0;
  // Two windows with the same channel count and width, the second below the first.
  spec.spectral_windows = {{43e9, 20e6, 3}, {42.5e9, 20e6, 3}};
  spec.sigma_jy = 0.05;
  spec.seed = 7;
  return spec;
}

SkyModel sky() {
  SkyModel s;
  s.reference_frequency_hz = 43e9;
  s.points.push_back({1.0, 2.0 * kArcsec, -1.0 * kArcsec, -0.7});
  s.gaussians.push_back({0.3, -1.5 * kArcsec, 0.5 * kArcsec, 1.0 * kArcsec, 0.5 * kArcsec, 0.4, 0});
  return s;
}

}  // namespace

class TestSimUvfits : public QObject {
  Q_OBJECT
 private slots:
  void measurementSetAndUvfitsAgree() {
    QTemporaryDir dir;
    const std::string ms = dir.filePath("sim.ms").toStdString();
    const std::string uvf = dir.filePath("sim.uvfits").toStdString();
    const ArrayLayout layout = randomCompactLayout(2000.0, 9, 25.0, 3);
    const SimulationSummary a =
        simulateObservation(sky(), layout, observation(), ms, OutputFormat::MeasurementSet, false);
    const SimulationSummary b =
        simulateObservation(sky(), layout, observation(), uvf, OutputFormat::Uvfits, false);
    QCOMPARE(a.rows, b.rows);
    QCOMPARE(a.visibilities, b.visibilities);

    std::vector<VisibilityChunk> ms_chunks, uvf_chunks;
    const auto from_ms = readAll(ms, ms_chunks);
    const auto from_uvf = readAll(uvf, uvf_chunks);
    QCOMPARE(from_ms.size(), std::size_t(a.rows));  // every row, once
    QCOMPARE(from_uvf.size(), from_ms.size());
    double worst_uvw = 0.0, worst_time = 0.0;
    std::size_t nonzero_vis = 0;
    for (const auto& [key, m] : from_ms) {
      const auto it = from_uvf.find(key);
      QVERIFY2(it != from_uvf.end(), "a Measurement Set row is missing from the UVFITS file");
      const Row& f = it->second;
      const double len = std::sqrt(m.u * m.u + m.v * m.v + m.w * m.w);
      worst_uvw = std::max({worst_uvw, std::fabs(m.u - f.u) / len, std::fabs(m.v - f.v) / len,
                            std::fabs(m.w - f.w) / len});
      worst_time = std::max(worst_time, std::fabs(m.time - f.time));
      QCOMPARE(f.freqs.size(), m.freqs.size());
      for (std::size_t c = 0; c < m.freqs.size(); ++c) {
        QVERIFY(std::fabs(f.freqs[c] - m.freqs[c]) <= 1e-6);  // Hz
        // Both files hold the same single-precision numbers: equal, not just close.
        QCOMPARE(f.vis[c], m.vis[c]);
        QCOMPARE(f.weight[c], m.weight[c]);
        nonzero_vis += std::abs(m.vis[c]) > 0.1f ? 1 : 0;
      }
    }
    QVERIFY2(worst_uvw < 1e-9, qPrintable(QString("uvw differ by %1 relative").arg(worst_uvw)));
    QVERIFY2(worst_time < 1e-4, qPrintable(QString("times differ by %1 s").arg(worst_time)));
    QVERIFY(nonzero_vis > from_ms.size());  // the comparison saw real signal
    // Weights are the simulator's 1/sigma^2 (Stokes I of two correlations: 2/sigma^2).
    QCOMPARE(from_uvf.begin()->second.weight[0], float(2.0 / (0.05 * 0.05)));
    // The second window's frequencies come from the AIPS FQ table's IF offset.
    const auto second = std::find_if(from_uvf.begin(), from_uvf.end(),
                                     [](const auto& kv) { return std::get<0>(kv.first) == 1; });
    QVERIFY(second != from_uvf.end());
    QCOMPARE(second->second.freqs[2], 42.5e9 + 40e6);

    // Dirty images of the two: the same to float rounding (the summation order differs).
    imaging::DirtyImageSettings s;
    s.geometry = imaging::ImageGeometry::fromCell(128, 128, 0.1 * kArcsec);
    s.op.epsilon = 1e-7;
    std::vector<const VisibilityChunk*> pa, pb;
    for (const auto& c : ms_chunks)
      pa.push_back(&c);
    for (const auto& c : uvf_chunks)
      pb.push_back(&c);
    const auto ia = imaging::makeDirtyImage(pa, s);
    const auto ib = imaging::makeDirtyImage(pb, s);
    QCOMPARE(ia.samples, ib.samples);
    double peak = 0.0, diff = 0.0;
    for (std::size_t i = 0; i < ia.dirty.size(); ++i) {
      peak = std::max(peak, double(std::fabs(ia.dirty[i])));
      diff = std::max(diff, double(std::fabs(ia.dirty[i] - ib.dirty[i])));
    }
    QVERIFY(peak > 0.5);
    QVERIFY2(diff < 1e-5 * peak, qPrintable(QString("dirty images differ by %1").arg(diff)));
  }

  void requestChoosesTheFormatByExtension() {
    QTemporaryDir dir;
    SimulationRequest r;
    r.points = {"1,0,0"};
    r.array = "random:300:5:12";
    r.hours = 0.2;
    r.integration_s = 120.0;
    r.output = dir.filePath("x.UVF").toStdString();
    const SimulationOutcome out = runSimulation(r);
    QVERIFY(out.format == OutputFormat::Uvfits);
    ReadOptions options;
    QCOMPARE(openVisibilitySource(r.output, options)->info().format, std::string("UVFITS"));
    r.output = dir.filePath("x.ms").toStdString();
    QVERIFY(runSimulation(r).format == OutputFormat::MeasurementSet);
    QCOMPARE(openVisibilitySource(r.output, options)->info().format, std::string("MeasurementSet"));
  }

  void refusesWhatUvfitsCannotHold() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("bad.uvfits").toStdString();
    ObservationSpec spec = observation();
    spec.spectral_windows = {{43e9, 20e6, 3}, {42e9, 20e6, 4}};
    try {
      simulateObservation(sky(), randomCompactLayout(300.0, 4, 12.0, 1), spec, path,
                          OutputFormat::Uvfits, false);
      QFAIL("unequal spectral windows were accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("same number of channels"), e.what());
      QVERIFY(QString(e.what()).startsWith(QString::fromStdString(path)));
    }
    QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0);  // no temporary left behind
  }

  void refusesABadOutputPath() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("no/such/dir/x.uvfits").toStdString();
    try {
      simulateObservation(sky(), randomCompactLayout(300.0, 4, 12.0, 1), observation(), missing,
                          OutputFormat::Uvfits, false);
      QFAIL("a missing directory was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("cannot create the file"), e.what());
    }
    // An existing file is replaced only with overwrite, and stays intact otherwise.
    const std::string path = dir.filePath("once.uvfits").toStdString();
    const ArrayLayout layout = randomCompactLayout(300.0, 4, 12.0, 1);
    simulateObservation(sky(), layout, observation(), path, OutputFormat::Uvfits, false);
    const auto size = QFileInfo(QString::fromStdString(path)).size();
    try {
      simulateObservation(sky(), layout, observation(), path, OutputFormat::Uvfits, false);
      QFAIL("an existing file was overwritten");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("already exists"), e.what());
    }
    QCOMPARE(QFileInfo(QString::fromStdString(path)).size(), size);
    simulateObservation(sky(), layout, observation(), path, OutputFormat::Uvfits, true);
    // Overwrite replaces FITS files only: a user's file of the same name stays.
    const std::string text = dir.filePath("notes.uvfits").toStdString();
    std::ofstream(text) << "not FITS";
    try {
      simulateObservation(sky(), layout, observation(), text, OutputFormat::Uvfits, true);
      QFAIL("a file that is not FITS was overwritten");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("exists and is not a FITS file"), e.what());
    }
    QCOMPARE(QFileInfo(QString::fromStdString(text)).size(), qint64(8));
  }
};

QTEST_GUILESS_MAIN(TestSimUvfits)
#include "test_sim_uvfits.moc"
