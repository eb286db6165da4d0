// The imaging pipeline distributed over MPI ranks (run by mpirun with 1, 2 and 3 ranks): every
// rank reads its share of the rows; the dirty image and PSF equal the single-process run's within
// 1e-5, the model after 20 L-BFGS iterations within 1e-5 (double operator) or 5e-5 (float, where
// the optimizer amplifies the float rounding of a different summation order); with a deterministic
// reduction two runs agree bit for bit; a refused setting fails on every rank without a hang.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/engine/engine.h"
#include "core/engine/mpi_communicator.h"
#include "core/engine/mpi_session.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/sim/array_layout.h"
#include "core/sim/simulator.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);

struct Outcome {
  engine::RunOutcome outcome;
  std::shared_ptr<pipeline::ImagingProducts> products;
};

Outcome run(const project::ProjectSettings& s, engine::Communicator& comm) {
  Outcome o;
  o.products = std::make_shared<pipeline::ImagingProducts>();
  engine::Engine engine;
  engine.start(s, pipeline::makeImagingPipeline(o.products, comm),
               std::make_shared<engine::RunObserver>());
  o.outcome = engine.wait();
  return o;
}

// ||a - b|| / ||b|| (L2 over pixels).
template <typename T>
double normRelativeDifference(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size() || a.empty())
    return INFINITY;
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (double(a[i]) - double(b[i])) * (double(a[i]) - double(b[i]));
    norm += double(b[i]) * double(b[i]);
  }
  return std::sqrt(diff / norm);
}

// max |a - b| / max |b|.
template <typename T>
double relativeDifference(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size() || a.empty())
    return INFINITY;
  double diff = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(double(a[i]) - double(b[i])));
    peak = std::max(peak, std::abs(double(b[i])));
  }
  return diff / peak;
}

}  // namespace

class TestMpiRun : public QObject {
  Q_OBJECT
 public:
  explicit TestMpiRun(engine::Communicator& comm) : comm_(comm) {}

 private:
  engine::Communicator& comm_;
  std::unique_ptr<QTemporaryDir> dir_;
  project::ProjectSettings base_;

 private slots:
  void initTestCase() {
    // Rank 0 simulates the data set; every rank reads it (one machine, one file system).
    std::string path;
    if (comm_.rank() == 0) {
      dir_ = std::make_unique<QTemporaryDir>();
      path = dir_->path().toStdString() + "/mpi.ms";
      sim::SkyModel sky;
      sky.reference_frequency_hz = 230e9;
      sky.points.push_back({1.0, 0.6 * kArcsec, 0.3 * kArcsec, 0.0});
      sky.gaussians.push_back(
          {0.5, -0.4 * kArcsec, 0.2 * kArcsec, 0.5 * kArcsec, 0.3 * kArcsec, 0.5, 0.0});
      sim::ObservationSpec spec;
      spec.dec_rad = -0.5;
      spec.duration_h = 1.0;
      spec.integration_s = 120.0;
      spec.spectral_windows = {sim::SpectralWindowSpec{230e9, 100e6, 2},
                               sim::SpectralWindowSpec{232e9, 100e6, 1}};
      spec.sigma_jy = 0.05;
      sim::simulateMeasurementSet(sky, sim::almaCompactLayout(), spec, path, false);
    }
    std::uint64_t n = path.size();
    comm_.broadcast(&n, sizeof n, 0);
    path.resize(n);
    comm_.broadcast(path.data(), n, 0);
    base_ = project::defaultProject();
    base_.data.path = path;
    base_.data.chunk_rows = 64;
    base_.weighting.scheme = "briggs";
    base_.imaging.nx = base_.imaging.ny = 64;
    base_.imaging.cell_arcsec = 0.1;
    base_.regularizers = {{"tsv", 1e-4, false, {}}};
    base_.optimizer.max_iterations = 20;
    base_.optimizer.relative_tolerance = 0.0;
    base_.optimizer.gradient_tolerance = 0.0;
  }

  void distributedEqualsSingleProcess_data() {
    QTest::addColumn<QString>("precision");
    QTest::addColumn<double>("model_tolerance");
    // Float grids summed in another order: 20 iterations amplify the rounding to about 1e-5.
    QTest::newRow("float") << "float" << 5e-5;
    QTest::newRow("double") << "double" << 1e-5;
  }

  void distributedEqualsSingleProcess() {
    QFETCH(QString, precision);
    QFETCH(double, model_tolerance);
    project::ProjectSettings s = base_;
    s.imaging.precision = precision.toStdString();
    const Outcome serial = run(s, engine::singleProcessCommunicator());
    QVERIFY2(serial.outcome.state == engine::RunState::Finished, serial.outcome.message.c_str());
    engine::MpiCommunicator comm(false);
    const Outcome spread = run(s, comm);
    QVERIFY2(spread.outcome.state == engine::RunState::Finished, spread.outcome.message.c_str());
    const auto& a = *serial.products;
    const auto& b = *spread.products;
    QCOMPARE(b.samples, a.samples);
    QCOMPARE(b.rows, a.rows);
    QCOMPARE(b.iterations, 20);
    const double dirty = relativeDifference(b.dirty, a.dirty);
    const double psf = relativeDifference(b.psf, a.psf);
    const double model = normRelativeDifference(b.model, a.model);
    const double model_peak = relativeDifference(b.model, a.model);
    qInfo(
        "rank %d of %d: relative differences dirty %.2e, psf %.2e (of the peak), model %.2e "
        "(norm), %.2e (of the peak)",
        comm.rank(), comm.size(), dirty, psf, model, model_peak);
    QVERIFY(dirty < 1e-5);
    QVERIFY(psf < 1e-5);
    QVERIFY(model < model_tolerance);
    QVERIFY(model_peak < model_tolerance);
    QVERIFY(std::abs(b.chi2_per_dof - a.chi2_per_dof) <= model_tolerance * a.chi2_per_dof);
    // Every rank holds the same model (the optimizer ran identically everywhere).
    double checksum = 0.0;
    for (double v : b.model)
      checksum += v;
    double sum = checksum;
    comm.sum(&sum, 1);
    QCOMPARE(sum, checksum * comm.size());
  }

  void deterministicReductionRepeatsBitForBit() {
    engine::MpiCommunicator comm(true);
    project::ProjectSettings s = base_;
    s.optimizer.max_iterations = 5;
    const Outcome first = run(s, comm);
    const Outcome second = run(s, comm);
    QVERIFY2(first.outcome.state == engine::RunState::Finished, first.outcome.message.c_str());
    const auto& a = first.products->model;
    const auto& b = second.products->model;
    QCOMPARE(a.size(), b.size());
    QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
    QVERIFY(std::memcmp(first.products->dirty.data(), second.products->dirty.data(),
                        first.products->dirty.size() * sizeof(float)) == 0);
  }

  void refusedSettingFailsOnEveryRank() {
    engine::MpiCommunicator comm(false);
    if (comm.size() == 1)
      QSKIP("one rank runs as a single process");
    project::ProjectSettings s = base_;
    s.output.write_model_column = true;
    s.output.model_ms = "/nonexistent/copy.ms";
    const Outcome o = run(s, comm);
    QCOMPARE(int(o.outcome.state), int(engine::RunState::Failed));
    QVERIFY2(o.outcome.message.find("output.write_model_column") != std::string::npos,
             o.outcome.message.c_str());
  }
};

int main(int argc, char** argv) {
  engine::MpiSessionOptions options;
  options.serialized = true;  // the pipeline runs on the engine's worker thread
  engine::MpiSession session(argc, argv, options);
  QCoreApplication app(argc, argv);
  engine::MpiCommunicator comm(false);
  TestMpiRun test(comm);
  return QTest::qExec(&test, argc, argv);
}

#include "test_mpi_run.moc"
