// The whole imaging run on simulated data with known truth: dirty image, RML, restore and FITS
// export through the engine, plus cancellation in the middle of the optimizer.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <mutex>

#include <unistd.h>

#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/Table.h>

#include "core/engine/engine.h"
#include "core/io/fits_image_io.h"
#include "core/io/visibility_source_factory.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/project/project_settings.h"
#include "core/sim/predict.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kCellArcsec = 0.15;
constexpr int kSize = 64;
constexpr int kEastCells = 6;  // source offset, in pixels
constexpr int kNorthCells = 4;

class CountingObserver : public engine::RunObserver {
 public:
  void iteration(const engine::IterationMetrics& m) override {
    std::lock_guard<std::mutex> lock(mutex);
    chi2.push_back(m.chi2_per_dof);
  }
  void snapshot(const std::shared_ptr<const engine::ImageSnapshot>& s) override {
    std::lock_guard<std::mutex> lock(mutex);
    names.insert(QString::fromStdString(s->name));
  }
  std::mutex mutex;
  std::vector<double> chi2;
  QSet<QString> names;
};

}  // namespace

class TestImagingPipeline : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = dir_.path().toStdString() + "/point.ms";
    sim::SkyModel sky;
    sky.reference_frequency_hz = 230e9;
    sky.points.push_back(
        {1.0, kEastCells * kCellArcsec * kArcsec, kNorthCells * kCellArcsec * kArcsec, 0.0});
    sim::ObservationSpec spec = testing::almaTestObservation();
    spec.ra_rad = 1.2;
    spec.seed = 7;
    testing::simulateAlmaCompactMs(ms_, sky, spec);
  }

  void pointSourceRunsEndToEnd() {
    project::ProjectSettings s;
    s.data.path = ms_;
    s.imaging.nx = s.imaging.ny = kSize;
    s.imaging.cell_arcsec = kCellArcsec;
    s.imaging.epsilon = 1e-5;
    s.weighting.scheme = apertura::imaging::WeightingScheme::Natural;
    s.regularizers = {{"l1", 1e-3, false, {}}};
    s.optimizer.max_iterations = 150;
    s.optimizer.relative_tolerance = 1e-12;
    s.optimizer.snapshot_every = 5;
    s.output.prefix = dir_.path().toStdString() + "/run";
    s.output.write_model_column = true;
    s.output.write_residual_column = true;

    auto observer = std::make_shared<CountingObserver>();
    const testing::PipelineRun run = testing::runImagingPipeline(s, observer);
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    const auto& products = run.products;

    const int ix = kSize / 2 - kEastCells;  // RA increases to the left
    const int iy = kSize / 2 + kNorthCells;
    const auto at = [&](const auto& img, int x, int y) { return img[std::size_t(y) * kSize + x]; };
    // Dirty image: the peak sits on the source with its flux (Jy/beam, noise 0.05 Jy / sqrt(N)).
    std::size_t peak = 0;
    for (std::size_t i = 0; i < products->dirty.size(); ++i) {
      if (products->dirty[i] > products->dirty[peak])
        peak = i;
    }
    QCOMPARE(int(peak % kSize), ix);
    QCOMPARE(int(peak / kSize), iy);
    QVERIFY(std::fabs(at(products->dirty, ix, iy) - 1.0) < 0.05);
    // The model puts about 1 Jy within a pixel or two of the source.
    double flux = 0.0;
    for (int y = iy - 2; y <= iy + 2; ++y) {
      for (int x = ix - 2; x <= ix + 2; ++x)
        flux += at(products->model, x, y);
    }
    QVERIFY2(std::fabs(flux - 1.0) < 0.1, qPrintable(QString::number(flux)));
    // chi2 per degree of freedom falls to the noise level (about 1).
    QVERIFY(!observer->chi2.empty());
    QVERIFY(observer->chi2.back() < observer->chi2.front());
    QVERIFY2(products->chi2_per_dof < 1.3 && products->chi2_per_dof > 0.7,
             qPrintable(QString::number(products->chi2_per_dof)));
    for (const char* n : {"dirty", "psf", "model", "residual", "restored"}) {
      QVERIFY2(observer->names.contains(n), n);
    }
    QVERIFY(products->beam.bmaj >= products->beam.bmin && products->beam.bmin > 0.0);
    // FITS outputs with WCS and beam.
    QCOMPARE(products->written_files.size(), std::size_t(7));
    const FitsImage restored = readFitsImage(s.output.prefix + "-restored.fits");
    QCOMPARE(restored.nx, kSize);
    QCOMPARE(restored.bunit, std::string("JY/BEAM"));
    QVERIFY(std::fabs(restored.ref_ra_rad - 1.2) < 1e-9);
    QVERIFY(std::fabs(restored.ref_dec_rad + 0.5) < 1e-9);
    QVERIFY(std::fabs(restored.cell_x_rad + kCellArcsec * kArcsec) < 1e-15);
    QVERIFY(restored.beam.has_value());
    // The frequency axis: the channel's centre, and its width (the simulator's CHAN_WIDTH).
    QCOMPARE(restored.frequency_hz, 230e9);
    QCOMPARE(restored.bandwidth_hz, 100e6);
    // 2024-03-21 (the simulator's default date), a start time within that day.
    QVERIFY2(restored.date_obs.rfind("2024-03-2", 0) == 0, restored.date_obs.c_str());
    QVERIFY(std::fabs(restored.beam->major_fwhm_rad - products->beam.bmaj) < 1e-12);
    // The restored image shows the source at its flux (Jy/beam) too.
    QVERIFY(std::fabs(restored.at(ix, iy) - 1.0) < 0.1);

    // MODEL_DATA of the copy holds the model's visibilities: close to the true (noiseless) source.
    ReadOptions ro;
    ro.selection.data_column = DataColumn::kModelData;
    auto source = openVisibilitySource(s.output.prefix + "-model.ms", ro);
    sim::SkyModel truth;
    truth.reference_frequency_hz = 230e9;
    truth.points.push_back(
        {1.0, kEastCells * kCellArcsec * kArcsec, kNorthCells * kCellArcsec * kArcsec, 0.0});
    VisibilityChunk chunk;
    double err2 = 0.0, norm2 = 0.0;
    std::size_t n = 0;
    while (source->next(chunk)) {
      std::vector<std::complex<double>> expected(chunk.num_samples());
      sim::predictVisibilities(truth, chunk.uvw_m.data(), chunk.num_rows(), chunk.frequencies_hz,
                               expected.data());
      for (std::size_t k = 0; k < expected.size(); ++k) {
        err2 += std::norm(std::complex<double>(chunk.visibilities[k]) - expected[k]);
        norm2 += std::norm(expected[k]);
        ++n;
      }
    }
    QVERIFY(n > 1000);
    QVERIFY2(std::sqrt(err2 / norm2) < 0.05, qPrintable(QString::number(std::sqrt(err2 / norm2))));

    // RESIDUAL_DATA beside it: Stokes I of the data minus the model, in both parallel hands.
    casacore::Table copy(s.output.prefix + "-model.ms");
    casacore::ArrayColumn<casacore::Complex> data_col(copy, "DATA"), model_col(copy, "MODEL_DATA"),
        resid_col(copy, "RESIDUAL_DATA");
    double worst = 0.0, scale = 0.0;
    for (casacore::rownr_t r = 0; r < copy.nrow(); r += 7) {
      const casacore::Array<casacore::Complex> d = data_col(r), m = model_col(r), e = resid_col(r);
      for (std::size_t k = 0; k + 1 < d.nelements(); k += 2) {  // XX, YY per channel
        const casacore::Complex stokes_i = 0.5f * (d.data()[k] + d.data()[k + 1]);
        for (std::size_t h = k; h < k + 2; ++h) {
          worst = std::max(worst, double(std::abs(stokes_i - m.data()[h] - e.data()[h])));
        }
        scale = std::max(scale, double(std::abs(stokes_i)));
      }
    }
    QVERIFY(scale > 0.5);
    QVERIFY2(worst < 1e-5 * scale, qPrintable(QString::number(worst)));
  }

  // optimizer.patience reaches the stop rule: with a loose tolerance the run stops at the first
  // quiet iteration, and with patience 3 at least two iterations later.
  void patienceDelaysTheToleranceStop() {
    project::ProjectSettings s;
    s.data.path = ms_;
    s.imaging.nx = s.imaging.ny = kSize;
    s.imaging.cell_arcsec = kCellArcsec;
    s.weighting.scheme = apertura::imaging::WeightingScheme::Natural;
    s.regularizers = {{"l1", 1e-3, false, {}}};
    s.optimizer.max_iterations = 200;
    s.optimizer.relative_tolerance = 1e-3;
    s.output.prefix = dir_.path().toStdString() + "/patience";
    const auto iterations = [&](int patience) {
      s.optimizer.patience = patience;
      auto observer = std::make_shared<CountingObserver>();
      const testing::PipelineRun run = testing::runImagingPipeline(s, observer);
      return run.finished() ? int(observer->chi2.size()) : -1;
    };
    const int eager = iterations(1), patient = iterations(3);
    QVERIFY2(eager > 0 && eager < 150, qPrintable(QString::number(eager)));
    QVERIFY2(patient >= eager + 2, qPrintable(QString("%1 vs %2").arg(patient).arg(eager)));
  }

  // Any legal folder name works (cfitsio once parsed '(' and '[' in names), and an output folder
  // that cannot be written is an error before the data are read, not after the computing.
  void outputLocationIsCheckedFirstAndTakenLiterally() {
    project::ProjectSettings s;
    s.data.path = ms_;
    s.imaging.nx = s.imaging.ny = 32;
    s.imaging.cell_arcsec = kCellArcsec;
    s.optimizer.max_iterations = 2;
    const std::string odd = dir_.path().toStdString() + "/a (copy) [2]";
    QVERIFY(QDir().mkpath(QString::fromStdString(odd)));
    s.output.prefix = odd + "/run";
    testing::PipelineRun run = testing::runImagingPipeline(s);
    QVERIFY2(run.finished(), run.outcome.message.c_str());
    QCOMPARE(readFitsImage(s.output.prefix + "-restored.fits").nx, 32);
    QVERIFY(QFileInfo::exists(QString::fromStdString(s.output.prefix + "-model.fits")));

    s.output.prefix = dir_.path().toStdString() + "/missing/run";
    auto observer = std::make_shared<CountingObserver>();
    run = testing::runImagingPipeline(s, observer);
    QVERIFY(!run.finished());
    QVERIFY2(run.outcome.message.find("output.prefix: the output folder") != std::string::npos &&
                 run.outcome.message.find("missing does not exist") != std::string::npos,
             run.outcome.message.c_str());
    QVERIFY(observer->chi2.empty());
    if (::geteuid() != 0) {  // root writes anywhere
      const QString ro = dir_.path() + "/read-only";
      QVERIFY(QDir().mkpath(ro));
      QFile::setPermissions(ro, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
      s.output.prefix = ro.toStdString() + "/run";
      run = testing::runImagingPipeline(s);
      QVERIFY2(run.outcome.message.find("output.prefix: cannot write in") != std::string::npos,
               run.outcome.message.c_str());
    }
  }

  void cancelStopsTheOptimizer() {
    project::ProjectSettings s;
    s.data.path = ms_;
    s.imaging.nx = s.imaging.ny = kSize;
    s.imaging.cell_arcsec = kCellArcsec;
    s.regularizers = {{"tsv", 1e-4, false, {}}};
    s.optimizer.max_iterations = 100000;
    s.optimizer.relative_tolerance = 0.0;
    auto observer = std::make_shared<CountingObserver>();
    engine::Engine engine;
    engine.start(s, pipeline::makeImagingPipeline(std::make_shared<pipeline::ImagingProducts>()),
                 observer);
    for (int i = 0; i < 2000; ++i) {
      {
        std::lock_guard<std::mutex> lock(observer->mutex);
        if (observer->chi2.size() >= 3)
          break;
      }
      QTest::qWait(5);
    }
    QElapsedTimer t;
    t.start();
    engine.cancel();
    const engine::RunOutcome out = engine.wait();
    QCOMPARE(int(out.state), int(engine::RunState::Cancelled));
    QVERIFY(t.elapsed() < 1000);
  }

 private:
  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestImagingPipeline)
#include "test_imaging_pipeline.moc"
