// The CSV reader plugin: simulated visibilities written as CSV (metres, and wavelengths with
// sigmas) are read through the plugin, imaged (dirty image peak on the source with its flux), and
// imaged with RML and the wavelet plugin's regularizer through the whole pipeline (L-BFGS, FISTA
// and the test optimizer plugin bb-descent). Bad files are refused with the line and the column.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <complex>
#include <fstream>

#include "core/engine/engine.h"
#include "core/imaging/dirty_mapper.h"
#include "core/io/dataset_summary_reader.h"
#include "core/io/row_partition.h"
#include "core/io/visibility_source_factory.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/project/project_settings.h"
#include "core/sim/predict.h"
#include "core/util/input_error.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kC = 299792458.0;
constexpr double kCellArcsec = 0.1;
constexpr int kSize = 64;
constexpr int kEastCells = 5;
constexpr int kNorthCells = -7;
constexpr double kFlux = 2.0;

struct Visibility {
  double u, v, w, f;  // uvw in metres, as a Measurement Set stores them
  std::complex<double> value;
};

// Deterministic uv coverage: baselines up to 400 m at three interleaved frequencies.
std::vector<Visibility> simulate() {
  sim::SkyModel sky;
  sky.reference_frequency_hz = 230e9;
  sky.points.push_back(
      {kFlux, kEastCells * kCellArcsec * kArcsec, kNorthCells * kCellArcsec * kArcsec, 0.0});
  std::vector<Visibility> out;
  std::uint64_t state = 99;
  auto uniform = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 11) / double(1ULL << 53);
  };
  for (int k = 0; k < 3000; ++k) {
    const double r = 20.0 + 380.0 * std::sqrt(uniform());
    const double phi = 2.0 * M_PI * uniform();
    Visibility vis{r * std::cos(phi),
                   r * std::sin(phi),
                   20.0 * (uniform() - 0.5),
                   (228.0 + 2.0 * (k % 3)) * 1e9,
                   {}};
    // The imaging convention is the negative of the file's uvw (VisibilityChunk::uvw_m).
    const double imaging_uvw[3] = {-vis.u, -vis.v, -vis.w};
    sim::predictVisibilities(sky, imaging_uvw, 1, {vis.f}, &vis.value);
    out.push_back(vis);
  }
  return out;
}

void writeCsv(const std::string& path, const std::vector<Visibility>& data, bool wavelengths) {
  std::ofstream out(path);
  out.precision(17);
  out << "# simulated point source\n# telescope = TESTARRAY\n# phase_centre_deg = 30.0 -20.0\n";
  if (wavelengths)
    out << "u_lambda, v_lambda, w_lambda, frequency_ghz, re_jy, im_jy, sigma_jy\n";
  else
    out << "u_m,v_m,w_m,frequency_hz,re_jy,im_jy,weight\n";
  for (const auto& d : data) {
    const double s = wavelengths ? d.f / kC : 1.0;
    out << d.u * s << "," << d.v * s << "," << d.w * s << "," << (wavelengths ? d.f / 1e9 : d.f)
        << "," << d.value.real() << "," << d.value.imag() << "," << (wavelengths ? 0.5 : 4.0)
        << "\n";
  }
}

std::vector<float> dirtyImage(const std::string& path) {
  ReadOptions ro;
  auto source = openVisibilitySource(path, ro);
  std::vector<VisibilityChunk> chunks;
  VisibilityChunk c;
  while (source->next(c))
    chunks.push_back(c);
  std::vector<const VisibilityChunk*> ptrs;
  for (const auto& ch : chunks)
    ptrs.push_back(&ch);
  imaging::DirtyImageSettings ds;
  ds.geometry.nx = ds.geometry.ny = kSize;
  ds.geometry.cell_l = -kCellArcsec * kArcsec;
  ds.geometry.cell_m = kCellArcsec * kArcsec;
  ds.op.epsilon = 1e-7;
  ds.weighting.scheme = imaging::WeightingScheme::Natural;
  return imaging::makeDirtyImage(ptrs, ds).dirty;
}

}  // namespace

class TestCsvPlugin : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const auto data = simulate();
    metres_ = dir_.path().toStdString() + "/vis.csv";
    lambdas_ = dir_.path().toStdString() + "/vis-lambda.txt";
    writeCsv(metres_, data, false);
    writeCsv(lambdas_, data, true);
  }

  void readsEveryRowWithItsMetadata() {
    auto source = openVisibilitySource(metres_, ReadOptions{});
    const SourceInfo& info = source->info();
    QCOMPARE(info.format, std::string("CSV"));
    QCOMPARE(info.telescope, std::string("TESTARRAY"));
    QCOMPARE(info.samples, std::uint64_t(3000));
    QVERIFY(std::abs(info.fields.at(0).ra_rad - 30.0 * M_PI / 180) < 1e-12);
    QVERIFY(std::abs(info.fields.at(0).dec_rad + 20.0 * M_PI / 180) < 1e-12);
    QCOMPARE(info.spectral_windows.at(0).num_channels, 3);
    QVERIFY(source->warnings().empty());
    // Every sample keeps its (u, v) in wavelengths (rows at other frequencies are rescaled).
    const auto data = simulate();
    VisibilityChunk c;
    std::size_t k = 0;
    double worst = 0.0;
    while (source->next(c)) {
      for (std::size_t r = 0; r < c.num_rows(); ++r, ++k) {
        const double f = c.frequencies_hz[0];
        worst = std::max(worst, std::abs(-c.uvw_m[3 * r] * f / kC - data[k].u * data[k].f / kC));
        QCOMPARE(c.weights[r], 4.0f);
      }
    }
    QCOMPARE(k, std::size_t(3000));
    QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
  }

  // A distributed run's share (ReadOptions::row_range): the parts of the table put together give
  // every row once, with the same values and first_row as a full read.
  void rowRangesSplitTheTable() {
    ReadOptions ro;
    ro.chunk_rows = 7;
    auto whole = openVisibilitySource(metres_, ro);
    std::vector<VisibilityChunk> full;
    VisibilityChunk c;
    while (whole->next(c))
      full.push_back(c);
    const std::uint64_t total = whole->info().rows;
    for (int parts : {1, 2, 3, 4}) {
      std::vector<VisibilityChunk> joined;
      for (int p = 0; p < parts; ++p) {
        ReadOptions part = ro;
        part.row_range = uniformRowRange(total, p, parts);
        auto source = openVisibilitySource(metres_, part);
        QCOMPARE(source->info().rows, part.row_range->size());
        QCOMPARE(source->info().selection_rows, total);
        while (source->next(c)) {
          QVERIFY(c.first_row >= part.row_range->begin);
          QVERIFY(c.first_row + c.num_rows() <= part.row_range->end);
          joined.push_back(c);
        }
      }
      // Same rows in the same order: compare row by row across the different chunk cuts.
      std::size_t row = 0;
      std::size_t fi = 0, fr = 0;
      for (const auto& j : joined) {
        for (std::size_t r = 0; r < j.num_rows(); ++r, ++row) {
          if (fr == full[fi].num_rows()) {
            ++fi;
            fr = 0;
          }
          const VisibilityChunk& f = full[fi];
          QCOMPARE(j.first_row + r, f.first_row + fr);
          QCOMPARE(j.uvw_m[3 * r], f.uvw_m[3 * fr]);
          QCOMPARE(j.frequencies_hz, f.frequencies_hz);
          const std::size_t nc = j.num_channels();
          for (std::size_t k = 0; k < nc; ++k) {
            QCOMPARE(j.visibilities[r * nc + k], f.visibilities[fr * nc + k]);
            QCOMPARE(j.weights[r * nc + k], f.weights[fr * nc + k]);
          }
          ++fr;
        }
      }
      QCOMPARE(std::uint64_t(row), total);
    }
  }

  void summaryDescribesTheFile() {
    // What the GUI's data panel and `apertura-cli info` show for a plugin format.
    const DatasetSummary s = summarizeDataset(metres_);
    QCOMPARE(s.format, std::string("CSV"));
    QCOMPARE(s.rows, std::uint64_t(3000));
    QCOMPARE(s.unflagged_visibilities, std::uint64_t(3000));
    QCOMPARE(s.telescope, std::string("TESTARRAY"));
    QCOMPARE(s.spectral_windows.at(0).num_channels, 3);
    QVERIFY(std::abs(s.minFrequencyHz() - 228e9) < 1.0);
    QVERIFY(std::abs(s.maxFrequencyHz() - 232e9) < 1.0);
    // Longest baseline about 400 m (rescaled rows keep their length in wavelengths).
    QVERIFY2(s.max_baseline_m > 380.0 && s.max_baseline_m < 410.0,
             qPrintable(QString::number(s.max_baseline_m)));
    QVERIFY(s.suggested_cell_rad > 0.0);
    QVERIFY(s.uv_sample_m.size() == 6000);
  }

  void dirtyImagePeaksOnTheSource() {
    const std::vector<float> dirty = dirtyImage(metres_);
    std::size_t peak = 0;
    for (std::size_t i = 0; i < dirty.size(); ++i) {
      if (dirty[i] > dirty[peak])
        peak = i;
    }
    QCOMPARE(int(peak % kSize), kSize / 2 - kEastCells);  // RA increases to the left
    QCOMPARE(int(peak / kSize), kSize / 2 + kNorthCells);
    QVERIFY2(std::abs(dirty[peak] - kFlux) < 0.02 * kFlux,
             qPrintable(QString::number(dirty[peak])));
    // The same data in wavelengths with sigmas give the same image.
    const std::vector<float> other = dirtyImage(lambdas_);
    double worst = 0.0;
    for (std::size_t i = 0; i < dirty.size(); ++i)
      worst = std::max(worst, double(std::abs(dirty[i] - other[i])));
    QVERIFY2(worst < 1e-4, qPrintable(QString::number(worst)));
  }

  void rmlWithTheWaveletRegularizer() {
    for (const char* method : {"lbfgs", "fista", "bb-descent"}) {
      project::ProjectSettings s;
      s.regularization.scaling = project::ObjectiveScaling::None;  // lambdas in schema-1 units
      s.data.path = metres_;
      s.imaging.nx = s.imaging.ny = kSize;
      s.imaging.cell_arcsec = kCellArcsec;
      s.weighting.scheme = apertura::imaging::WeightingScheme::Natural;
      s.regularizers = {{"wavelet",
                         50.0,
                         false,
                         {{"scales", 3.0}, {"include_coarse", 1.0}, {"prox_iterations", 50.0}}}};
      s.optimizer.setMethod(method);
      // FISTA hands the wavelet term to its prox; with positivity too, the two proxes would be
      // combined by a nested inner solver (slow, and not what this test is about).
      if (s.optimizer.method == apertura::project::OptimizerMethod::Fista)
        s.optimizer.positivity = apertura::project::Positivity::None;
      s.optimizer.max_iterations = 60;
      auto products = std::make_shared<pipeline::ImagingProducts>();
      engine::Engine engine;
      engine.start(s, pipeline::makeImagingPipeline(products), nullptr);
      const engine::RunOutcome out = engine.wait();
      QVERIFY2(out.state == engine::RunState::Finished, out.message.c_str());
      QVERIFY(products->metrics.size() >= 5);
      // The objective falls and the model gathers the flux at the source.
      QVERIFY(products->metrics.back().objective < 0.1 * products->metrics.front().objective);
      const int ix = kSize / 2 - kEastCells, iy = kSize / 2 + kNorthCells;
      double flux = 0.0, total = 0.0;
      std::size_t peak = 0;
      for (int y = 0; y < kSize; ++y) {
        for (int x = 0; x < kSize; ++x) {
          const std::size_t k = std::size_t(y) * kSize + x;
          const double p = products->model[k];
          total += std::abs(p);
          peak = p > products->model[peak] ? k : peak;
          if (std::abs(x - ix) <= 5 && std::abs(y - iy) <= 5)
            flux += p;
        }
      }
      qInfo("%s: %zu iterations, flux %g, total %g", method, products->metrics.size(), flux, total);
      QVERIFY(std::abs(int(peak % kSize) - ix) <= 1 && std::abs(int(peak / kSize) - iy) <= 1);
      QVERIFY2(std::abs(flux - kFlux) < 0.2 * kFlux,
               qPrintable(QString("%1: flux %2").arg(method).arg(flux)));
      // L-BFGS with positivity puts nearly all the flux there; FISTA (no positivity, slower to
      // converge) leaves ripples.
      if (s.optimizer.method == apertura::project::OptimizerMethod::Lbfgs)
        QVERIFY2(flux > 0.7 * total, qPrintable(QString("total %1").arg(total)));
    }
  }

  void badFilesAreRefusedWithLineAndColumn() {
    const std::string bad = dir_.path().toStdString() + "/bad.csv";
    {
      std::ofstream out(bad);
      out << "# header "
             "next\nu_m,v_m,frequency_hz,re_jy,im_jy,weight\n1,2,1e9,1,0,1\n3,x,1e9,1,0,1\n";
    }
    try {
      openVisibilitySource(bad, ReadOptions{});
      QFAIL("no exception");
    } catch (const InputError& e) {
      QCOMPARE(std::string(e.what()), bad + ": line 4: column 'v_m': expected a number, got 'x'");
    }
    {
      std::ofstream out(bad);
      out << "u_m,v_m,frequency_hz,re_jy,weight\n1,2,1e9,1,1\n";
    }
    try {
      openVisibilitySource(bad, ReadOptions{});
      QFAIL("no exception");
    } catch (const InputError& e) {
      QCOMPARE(std::string(e.what()),
               bad + ": line 1: the header has no imaginary part (im_jy) column");
    }
    // A file no reader knows: the message says where plugins were looked for.
    {
      std::ofstream out(bad);
      out << "hello\n";
    }
    try {
      openVisibilitySource(bad, ReadOptions{});
      QFAIL("no exception");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("nor a format of a loaded plugin") != std::string::npos,
               e.what());
    }
  }

 private:
  QTemporaryDir dir_;
  std::string metres_, lambdas_;
};

QTEST_GUILESS_MAIN(TestCsvPlugin)
#include "test_csv_plugin.moc"
