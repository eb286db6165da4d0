// The imaging pipeline distributed over MPI ranks (run by mpirun with 1, 2 and 3 ranks): every
// rank reads its share of the rows; the dirty image and PSF equal the single-process run's within
// 1e-5, the model after 20 L-BFGS iterations within 1e-12 (double operator); with the float
// operator within 2e-5 and within twice what a mere change of chunk size does to the
// single-process model (float grids round each chunk's contribution as it is added, and 20
// iterations amplify that about 30-fold: the single-process float model itself moves by about
// 1e-5 when the chunks change); with the deterministic reduction the run is bit for bit the
// single-process run with the same flag; a refused setting fails on every rank without a hang.
// Model differences: ||a - b||_2 / ||b||_2 over the pixels (the whole image's error, independent
// of its scale) and max|a - b| / max|b| (a local error the norm would dilute); both are checked.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/engine/engine.h"
#include "core/engine/mpi_communicator.h"
#include "core/engine/mpi_session.h"
#include "core/pipeline/imaging_pipeline.h"
#include "tests/io/ms_fixture_edits.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

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

template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return !a.empty() && a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
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
  std::string nan_path_, weighted_path_;

  // Rank 0's string on every rank.
  std::string shareString(std::string s) {
    std::uint64_t n = s.size();
    comm_.broadcast(&n, sizeof n, 0);
    s.resize(n);
    comm_.broadcast(s.data(), n, 0);
    return s;
  }
  project::ProjectSettings base_;

 private slots:
  void initTestCase() {
    // Rank 0 simulates the data set; every rank reads it (one machine, one file system).
    std::string path;
    if (comm_.rank() == 0) {
      dir_ = std::make_unique<QTemporaryDir>();
      path = dir_->path().toStdString() + "/mpi.ms";
      sim::ObservationSpec spec = testing::almaTestObservation();
      spec.spectral_windows = {sim::SpectralWindowSpec{230e9, 100e6, 2},
                               sim::SpectralWindowSpec{232e9, 100e6, 1}};
      testing::simulateAlmaCompactMs(path, testing::pointAndGaussianSky(), spec);
      // A copy with one hand NaN on every fifth row, spread over every rank's share.
      nan_path_ = dir_->path().toStdString() + "/nan.ms";
      testing::copyTable(path, nan_path_);
      testing::fillComplexColumn(nan_path_, "DATA", [](int row, int corr, int) {
        return (row % 5 == 0 && corr == 0) ? std::complex<float>(NAN, 0.0f)
                                           : std::complex<float>(1.0f, 0.0f);
      });
    }
    path = shareString(path);
    nan_path_ = shareString(nan_path_);
    if (comm_.rank() == 0) {
      // A copy whose weights vary from sample to sample: sums of them (weight densities, weight
      // sums, chi2) then depend on the order of the additions, as real data's do.
      weighted_path_ = dir_->path().toStdString() + "/weighted.ms";
      testing::copyTable(path, weighted_path_);
      testing::addWeightSpectrum(weighted_path_, [](int row, int corr, int chan) {
        return 0.3f + 0.137f * float((row * 7 + corr * 3 + chan) % 11);
      });
    }
    weighted_path_ = shareString(weighted_path_);
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
    // Float grids summed in another order: 20 iterations amplify the rounding to about 1e-5
    // (6e-6 on 2 ranks, 1.0-1.2e-5 on 3), as much as other chunks do in one process.
    QTest::newRow("float") << "float" << 2e-5;
    // Double grids: the same amplification of double rounding, about 1e-14.
    QTest::newRow("double") << "double" << 1e-12;
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
    if (precision == "float") {
      // The float floor: the single-process run with chunks of 50 rows instead of 64.
      project::ProjectSettings rechunked = s;
      rechunked.data.chunk_rows = 50;
      const Outcome other = run(rechunked, engine::singleProcessCommunicator());
      QVERIFY2(other.outcome.state == engine::RunState::Finished, other.outcome.message.c_str());
      const double floor = normRelativeDifference(other.products->model, a.model);
      qInfo("rank %d of %d: single-process model, chunks of 50 vs 64 rows: %.2e (norm)",
            comm.rank(), comm.size(), floor);
      QVERIFY(floor > 1e-7);  // float rounding does show (else the bound below would be vacuous)
      QVERIFY(model < 2.0 * floor);
    }
    // Every rank holds the same model (the optimizer ran identically everywhere).
    double checksum = 0.0;
    for (double v : b.model)
      checksum += v;
    double sum = checksum;
    comm.sum(&sum, 1);
    QCOMPARE(sum, checksum * comm.size());
  }

  // With the deterministic reduction the run is bit for bit the single-process run with the same
  // flag, for any number of ranks (so np 1, 2 and 3 all agree with each other), and repeats.
  void deterministicReductionEqualsSingleProcessExactly_data() {
    QTest::addColumn<QString>("precision");
    QTest::newRow("float") << "float";
    QTest::newRow("double") << "double";
  }

  void deterministicReductionEqualsSingleProcessExactly() {
    QFETCH(QString, precision);
    project::ProjectSettings s = base_;
    s.data.path = weighted_path_;
    s.imaging.precision = precision.toStdString();
    s.optimizer.max_iterations = 10;
    const Outcome serial = run(s, engine::deterministicSingleProcessCommunicator());
    QVERIFY2(serial.outcome.state == engine::RunState::Finished, serial.outcome.message.c_str());
    engine::MpiCommunicator comm(true);
    const Outcome first = run(s, comm);
    const Outcome second = run(s, comm);
    QVERIFY2(first.outcome.state == engine::RunState::Finished, first.outcome.message.c_str());
    QVERIFY2(second.outcome.state == engine::RunState::Finished, second.outcome.message.c_str());
    const auto& a = *serial.products;
    for (const Outcome* o : {&first, &second}) {
      const auto& b = *o->products;
      QCOMPARE(b.iterations, a.iterations);
      QVERIFY(b.iterations > 0);
      QVERIFY(sameBits(b.dirty, a.dirty));
      QVERIFY(sameBits(b.psf, a.psf));
      QVERIFY(sameBits(b.model, a.model));
      QVERIFY(sameBits(b.residual, a.residual));
      QCOMPARE(b.chi2_per_dof, a.chi2_per_dof);
    }
    // And the exact per-chunk sums are the ordinary run's sums, to its rounding.
    const Outcome plain = run(s, engine::singleProcessCommunicator());
    QVERIFY2(plain.outcome.state == engine::RunState::Finished, plain.outcome.message.c_str());
    const double dirty = relativeDifference(a.dirty, plain.products->dirty);
    const double model = normRelativeDifference(a.model, plain.products->model);
    qInfo("rank %d of %d: deterministic vs ordinary single-process run: dirty %.2e, model %.2e",
          comm.rank(), comm.size(), dirty, model);
    QVERIFY(dirty < 1e-5);
    QVERIFY(model < 1e-4);
  }

  // Readers count NaN samples in their own rows; rank 0 reports the whole data set's counts.
  void readerWarningsCountEveryRanksRows() {
    project::ProjectSettings s = base_;
    s.data.path = nan_path_;
    s.optimizer.max_iterations = 1;
    const Outcome serial = run(s, engine::singleProcessCommunicator());
    QVERIFY2(serial.outcome.state == engine::RunState::Finished, serial.outcome.message.c_str());
    engine::MpiCommunicator comm(false);
    const Outcome spread = run(s, comm);
    QVERIFY2(spread.outcome.state == engine::RunState::Finished, spread.outcome.message.c_str());
    const auto counted = [](const std::vector<std::string>& warnings) {
      std::vector<std::string> out;
      for (const auto& w : warnings) {
        if (w.find("NaN") != std::string::npos)
          out.push_back(w);
      }
      return out;
    };
    const std::vector<std::string> expected = counted(serial.products->warnings);
    const std::vector<std::string> got = counted(spread.products->warnings);
    for (const auto& w : got)
      qInfo("rank %d of %d: %s", comm.rank(), comm.size(), w.c_str());
    QCOMPARE(expected.size(), std::size_t(1));
    QCOMPARE(got, expected);  // the same total, not rank 0's share
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
