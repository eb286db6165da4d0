// The imaging pipeline distributed over MPI ranks (run by mpirun with 1, 2 and 3 ranks): every
// rank reads its share of the rows; the dirty image and PSF equal the single-process run's within
// 1e-5, the model after 20 L-BFGS iterations within 1e-12 (double operator) and within 1e-5 with
// the float operator (default: chunks summed in a double grid). With a float grid
// (imaging.grid_accumulation "float") within 2e-5 and within twice what a mere change of chunk
// size does to the single-process model (a float grid rounds each chunk's contribution as it is
// added, and 20 iterations amplify that about 30-fold: the single-process model itself moves by
// about 1e-5 when the chunks change); with the deterministic reduction the run is bit for bit the
// single-process run with the same flag; w-stacking runs match as the plain ones do; model and
// residual columns written back by the ranks in turn equal the single-process columns; a refused
// setting fails on every rank without a hang.
// Model differences: ||a - b||_2 / ||b||_2 over the pixels (the whole image's error, independent
// of its scale) and max|a - b| / max|b| (a local error the norm would dilute); both are checked.
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/Table.h>
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

// Every cell of one column of a Measurement Set (rows in order, correlations and channels as
// stored).
std::vector<std::complex<float>> readColumn(const std::string& ms, const char* column) {
  casacore::Table table(ms);
  casacore::ArrayColumn<casacore::Complex> values(table, column);
  std::vector<std::complex<float>> all;
  for (casacore::rownr_t r = 0; r < table.nrow(); ++r) {
    const casacore::Array<casacore::Complex> row = values(r);
    all.insert(all.end(), row.data(), row.data() + row.nelements());
  }
  return all;
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
    base_.weighting.scheme = apertura::imaging::WeightingScheme::Briggs;
    base_.imaging.nx = base_.imaging.ny = 64;
    base_.imaging.cell_arcsec = 0.1;
    base_.regularizers = {{"tsv", 1e-4, false, {}}};
    // A lambda in the units of the unscaled objective (schema 1).
    base_.regularization.scaling = project::ObjectiveScaling::None;
    base_.optimizer.max_iterations = 20;
    base_.optimizer.relative_tolerance = 0.0;
    base_.optimizer.gradient_tolerance = 0.0;
  }

  void distributedEqualsSingleProcess_data() {
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QString>("accumulation");
    QTest::addColumn<bool>("w_stacking");
    QTest::addColumn<double>("model_tolerance");
    // Float tiles summed in a double grid: only the chunks cut at the ranks' boundaries round
    // differently (the gradient differs by about 1e-10).
    QTest::newRow("float") << "float"
                           << "double" << false << 1e-5;
    // Float grids summed in another order: 20 iterations amplify the rounding to about 1e-5
    // (6e-6 on 2 ranks, 1.0-1.2e-5 on 3), as much as other chunks do in one process.
    QTest::newRow("float, float grid") << "float"
                                       << "float" << false << 2e-5;
    // Double grids: the same amplification of double rounding, about 1e-14.
    QTest::newRow("double") << "double"
                            << "double" << false << 1e-12;
    // w-stacking: every rank plans its w planes over all ranks' w range, so the ranks use one
    // operator. Planes fitted to each rank's own rows are another operator: the double model
    // then differs by 4.9e-11 after 10 iterations on this small field, where the w-term is tiny.
    // Float: 3.3e-6 (2 ranks), 5.4e-7 (3 ranks) with the w planes summed in double grids.
    QTest::newRow("double, w-stacking") << "double"
                                        << "double" << true << 1e-12;
    QTest::newRow("float, w-stacking") << "float"
                                       << "double" << true << 1e-5;
  }

  void distributedEqualsSingleProcess() {
    QFETCH(QString, precision);
    QFETCH(QString, accumulation);
    QFETCH(bool, w_stacking);
    QFETCH(double, model_tolerance);
    project::ProjectSettings s = base_;
    s.imaging.precision = *project::parseChoice<project::Precision>(precision.toStdString());
    s.imaging.grid_accumulation =
        *project::parseChoice<project::Precision>(accumulation.toStdString());
    s.imaging.w_stacking = w_stacking;
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
    if (w_stacking && comm.size() > 1) {
      // The deterministic reduction sums per-chunk partials, which w-stacking does not form.
      engine::MpiCommunicator exact(true);
      const Outcome refused = run(s, exact);
      QCOMPARE(int(refused.outcome.state), int(engine::RunState::Failed));
      QVERIFY2(refused.outcome.message.find("imaging.w_stacking") != std::string::npos,
               refused.outcome.message.c_str());
    }
    if (precision == "float" && accumulation == "float") {
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
    s.imaging.precision = *project::parseChoice<project::Precision>(precision.toStdString());
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

  // A cube of three planes (two channels of one spectral window, one of the other; with three
  // ranks, some hold rows of one window only): every rank images every plane with the totals of
  // all ranks, and the run equals the single-process one; an across-channel term ties the planes.
  void cubeEqualsSingleProcess() {
    project::ProjectSettings s = base_;
    s.data.path = weighted_path_;
    s.imaging.precision = apertura::project::Precision::Double;
    s.imaging.spectral_mode = apertura::project::SpectralMode::Cube;
    s.imaging.channels_per_plane = 1;
    s.regularizers = {{"tsv", 1e-4, false, {}}, {"tsv-spectral", 1e-3, false, {}}};
    s.optimizer.max_iterations = 10;
    const Outcome serial = run(s, engine::singleProcessCommunicator());
    QVERIFY2(serial.outcome.state == engine::RunState::Finished, serial.outcome.message.c_str());
    engine::MpiCommunicator comm(false);
    const Outcome spread = run(s, comm);
    QVERIFY2(spread.outcome.state == engine::RunState::Finished, spread.outcome.message.c_str());
    const auto& a = *serial.products;
    const auto& b = *spread.products;
    QCOMPARE(a.planes, 3);
    QCOMPARE(b.planes, 3);
    QCOMPARE(b.plane_frequencies_hz, a.plane_frequencies_hz);
    QCOMPARE(b.plane_bandwidths_hz, a.plane_bandwidths_hz);
    QCOMPARE(b.iterations, a.iterations);
    QCOMPARE(b.dirty.size(), a.dirty.size());
    const double dirty = relativeDifference(b.dirty, a.dirty);
    const double psf = relativeDifference(b.psf, a.psf);
    const double model = normRelativeDifference(b.model, a.model);
    const double residual = normRelativeDifference(b.residual, a.residual);
    qInfo(
        "rank %d of %d: cube, relative differences dirty %.2e, psf %.2e, model %.2e, "
        "residual %.2e",
        comm.rank(), comm.size(), dirty, psf, model, residual);
    QVERIFY(dirty < 1e-5);  // the dirty and PSF images are float
    QVERIFY(psf < 1e-5);
    QVERIFY(model < 1e-10);
    QVERIFY(residual < 1e-10);
    QVERIFY(std::abs(b.chi2_per_dof - a.chi2_per_dof) <= 1e-10 * a.chi2_per_dof);
    for (std::size_t k = 0; k < a.plane_beams.size(); ++k)
      QVERIFY(std::abs(b.plane_beams[k].bmaj - a.plane_beams[k].bmaj) <=
              1e-6 * a.plane_beams[k].bmaj);
    // Planes differ from each other (each plane's own data, not one plane repeated).
    const std::size_t n = a.geometry.numPixels();
    const std::vector<double> first(b.model.begin(), b.model.begin() + std::ptrdiff_t(n));
    const std::vector<double> last(b.model.end() - std::ptrdiff_t(n), b.model.end());
    QVERIFY(normRelativeDifference(first, last) > 1e-6);
    // Streamed data: each plane's chunks cut from every rank's reads on every pass.
    s.data.mode = apertura::ReadMode::kStreaming;
    const Outcome streamed = run(s, comm);
    QVERIFY2(streamed.outcome.state == engine::RunState::Finished,
             streamed.outcome.message.c_str());
    QCOMPARE(streamed.products->data_mode, std::string("streaming"));
    QVERIFY(normRelativeDifference(streamed.products->model, a.model) < 1e-10);
  }

  void refusedSettingFailsOnEveryRank() {
    engine::MpiCommunicator comm(true);
    if (comm.size() == 1)
      QSKIP("one rank runs as a single process");
    project::ProjectSettings s = base_;
    s.imaging.spectral_mode =
        apertura::project::SpectralMode::Cube;  // its planes have no exact per-chunk sums
    const Outcome o = run(s, comm);
    QCOMPARE(int(o.outcome.state), int(engine::RunState::Failed));
    QVERIFY2(o.outcome.message.find("imaging.spectral_mode") != std::string::npos,
             o.outcome.message.c_str());
    QVERIFY2(o.outcome.message.find("deterministic") != std::string::npos,
             o.outcome.message.c_str());
  }

  // Model and residual columns written back by the ranks in turn (each holds its own rows'
  // model) equal the single-process run's columns, row by row, to the model's float agreement;
  // a write that fails on rank 0 fails every rank with its message, and no rank hangs.
  void columnsWrittenBackEqualSingleProcess() {
    engine::MpiCommunicator comm(false);
    project::ProjectSettings s = base_;
    s.optimizer.max_iterations = 10;
    s.output.write_model_column = true;
    s.output.write_residual_column = true;
    const std::string dir = shareString(comm_.rank() == 0 ? dir_->path().toStdString() : "");
    project::ProjectSettings serial_settings = s, spread_settings = s;
    serial_settings.output.model_ms = dir + "/serial-" + std::to_string(comm.size()) + ".ms";
    spread_settings.output.model_ms = dir + "/spread-" + std::to_string(comm.size()) + ".ms";
    if (comm.rank() == 0) {
      const Outcome serial = run(serial_settings, engine::singleProcessCommunicator());
      QVERIFY2(serial.outcome.state == engine::RunState::Finished, serial.outcome.message.c_str());
    }
    comm.barrier();
    const Outcome spread = run(spread_settings, comm);
    QVERIFY2(spread.outcome.state == engine::RunState::Finished, spread.outcome.message.c_str());
    comm.barrier();
    for (const char* column : {"MODEL_DATA", "RESIDUAL_DATA"}) {
      const auto a = readColumn(serial_settings.output.model_ms, column);
      const auto b = readColumn(spread_settings.output.model_ms, column);
      QCOMPARE(b.size(), a.size());
      double diff = 0.0, norm = 0.0;
      std::size_t zero_rows = 0;
      for (std::size_t i = 0; i < a.size(); ++i) {
        diff += std::norm(std::complex<double>(a[i]) - std::complex<double>(b[i]));
        norm += std::norm(std::complex<double>(a[i]));
        zero_rows += b[i] == std::complex<float>(0) ? 1 : 0;
      }
      const double relative = std::sqrt(diff / norm);
      qInfo("rank %d of %d: %s written by every rank vs one process: %.2e (norm)", comm.rank(),
            comm.size(), column, relative);
      QVERIFY(norm > 0.0);
      QVERIFY(zero_rows < a.size() / 100);  // no rank's rows were left out
      QVERIFY(relative < 1e-5);
    }

    // The input is never written (only the copies).
    QVERIFY(!casacore::Table(s.data.path).tableDesc().isColumn("MODEL_DATA"));

    project::ProjectSettings bad = s;
    bad.output.model_ms = "/nonexistent/copy.ms";
    const Outcome failed = run(bad, comm);
    QCOMPARE(int(failed.outcome.state), int(engine::RunState::Failed));
    QVERIFY2(failed.outcome.message.find("/nonexistent") != std::string::npos,
             failed.outcome.message.c_str());
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
