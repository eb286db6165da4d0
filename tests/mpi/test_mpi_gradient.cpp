// The distributed data term on its own (run by mpirun with 1, 2 and 3 ranks): chi2 and its
// gradient at a fixed, non-trivial image, summed over the ranks that each hold a share of the
// rows, equal the single-process value and gradient (every rank also evaluates the whole data set
// alone). Float operator summing into a float grid: within 1e-6 relative (measured 3-4e-7: float
// rounding of another summation order); float operator summing into a double grid: within 1e-9
// (measured 1.3e-10: only the float sums inside the chunks at the ranks' boundaries differ);
// double operator: within 1e-12. The cause of the float differences shows in one process: other
// chunk sizes change a float-accumulated gradient as much, a double-accumulated one over a
// hundred times less. With exact per-chunk sums
// (the deterministic reduction) and rows split at chunk boundaries, every rank count gives the
// single-process value and gradient bit for bit. Relative differences are ||a - b||_2 / ||b||_2
// over the pixels and max|a - b| / max|b| (both are checked: the first weighs every pixel, the
// second catches one bad pixel that the norm would dilute).
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <memory>

#include "core/engine/mpi_communicator.h"
#include "core/engine/mpi_session.h"
#include "core/engine/rank_rows.h"
#include "core/imaging/imaging_operator.h"
#include "core/io/visibility_source_factory.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/sim/array_layout.h"
#include "core/sim/simulator.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr int kSide = 64;

struct Evaluation {
  double chi2 = 0.0;
  std::vector<double> gradient;
};

double normRelative(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]) * (a[i] - b[i]);
    norm += b[i] * b[i];
  }
  return std::sqrt(diff / norm);
}

double peakRelative(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    peak = std::max(peak, std::abs(b[i]));
  }
  return diff / peak;
}

// A model unlike the sky (so the residuals are not small): an offset Gaussian and a point.
std::vector<double> fixedImage() {
  std::vector<double> image(std::size_t(kSide) * kSide, 0.0);
  for (int y = 0; y < kSide; ++y) {
    for (int x = 0; x < kSide; ++x) {
      const double dx = x - 28.0, dy = y - 35.0;
      image[std::size_t(y) * kSide + std::size_t(x)] = 0.02 * std::exp(-(dx * dx + dy * dy) / 18.0);
    }
  }
  image[std::size_t(30) * kSide + 40] += 0.3;
  return image;
}

// How the data term is built: its operator's precision and its summation.
struct Mode {
  bool single = true;                // float operator
  bool double_accumulation = false;  // float operator summing the chunks in a double grid
  bool exact = false;                // per-chunk partials summed exactly (deterministic reduction)
};

// Reads `range` (all rows when none) in chunks of `chunk_rows` and evaluates the data term at
// fixedImage(); with `comm`, the totals, the value and the gradient are summed over its ranks.
template <typename T>
Evaluation evaluate(const std::string& path, std::optional<RowRange> range,
                    engine::Communicator* comm, Mode mode, std::size_t chunk_rows = 64) {
  ReadOptions o;
  o.chunk_rows = chunk_rows;
  o.mode = ReadMode::kStreaming;
  o.row_range = range;
  auto source = openVisibilitySource(path, o);
  std::vector<VisibilityChunk> chunks;
  VisibilityChunk c;
  while (source->next(c)) {
    chunks.push_back(std::move(c));
    c = VisibilityChunk{};
  }
  HeldChunks held(chunks);
  rml::ChunkChi2Options options;
  rml::DataTotals totals = rml::countDataTotals(held);
  if (comm != nullptr) {
    double t[2] = {double(totals.valid_samples), totals.sum_weights};
    comm->sum(t, 2);
    totals = {std::size_t(t[0]), t[1]};
    options.sum = [comm](double* v, std::size_t n) { comm->sum(v, n); };
  }
  options.totals = totals;
  options.exact_chunk_sums = mode.exact;
  imaging::OperatorSettings settings;
  settings.threads = 1;
  const auto geometry = imaging::ImageGeometry::fromCell(kSide, kSide, 0.1 * kArcsec);
  settings.double_accumulation = mode.double_accumulation;
  auto op = imaging::makeCpuOperator<T>(geometry, settings);
  auto term = rml::makeChunkChi2Term(*op, held, options);
  Evaluation e;
  const std::vector<double> image = fixedImage();
  e.gradient.assign(image.size(), 0.0);
  e.chi2 = term->evaluate(image.data(), e.gradient.data(), 1.0);
  // A second evaluation reuses the exact sum's range (the first one had to find it).
  std::vector<double> again(image.size(), 0.0);
  const double chi2 = term->evaluate(image.data(), again.data(), 1.0);
  if (mode.exact && (chi2 != e.chi2 || again != e.gradient))
    e.chi2 = -1.0;  // the deterministic reduction did not repeat itself
  return e;
}

Evaluation evaluateIn(Mode mode, const std::string& path, std::optional<RowRange> range,
                      engine::Communicator* comm, std::size_t chunk_rows = 64) {
  return mode.single ? evaluate<float>(path, range, comm, mode, chunk_rows)
                     : evaluate<double>(path, range, comm, mode, chunk_rows);
}

}  // namespace

class TestMpiGradient : public QObject {
  Q_OBJECT
 public:
  explicit TestMpiGradient(engine::Communicator& comm) : comm_(comm) {}

 private:
  engine::Communicator& comm_;
  std::unique_ptr<QTemporaryDir> dir_;
  std::string path_;

 private slots:
  void initTestCase() {
    if (comm_.rank() == 0) {
      dir_ = std::make_unique<QTemporaryDir>();
      path_ = dir_->path().toStdString() + "/gradient.ms";
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
      sim::simulateMeasurementSet(sky, sim::almaCompactLayout(), spec, path_, false);
    }
    std::uint64_t n = path_.size();
    comm_.broadcast(&n, sizeof n, 0);
    path_.resize(n);
    comm_.broadcast(path_.data(), n, 0);
  }

  void summedGradientEqualsSingleProcess_data() {
    QTest::addColumn<bool>("single");
    QTest::addColumn<bool>("double_accumulation");
    QTest::addColumn<double>("tolerance");
    // Float grids: another summation order rounds differently (about 3e-7 relative).
    QTest::newRow("float") << true << false << 1e-6;
    // Float tiles added into a double grid: only the chunks cut at the ranks' boundaries differ.
    QTest::newRow("float, double accumulation") << true << true << 1e-9;
    QTest::newRow("double") << false << false << 1e-12;
  }

  void summedGradientEqualsSingleProcess() {
    QFETCH(bool, single);
    QFETCH(bool, double_accumulation);
    QFETCH(double, tolerance);
    const Mode mode{single, double_accumulation, false};
    ReadOptions o;
    o.chunk_rows = 64;
    const RowRange mine = engine::balancedRowRangeForRank(path_, o, comm_);
    const Evaluation alone = evaluateIn(mode, path_, std::nullopt, nullptr);
    const Evaluation spread = evaluateIn(mode, path_, mine, &comm_);
    const double chi2 = std::abs(spread.chi2 - alone.chi2) / alone.chi2;
    const double norm = normRelative(spread.gradient, alone.gradient);
    const double peak = peakRelative(spread.gradient, alone.gradient);
    qInfo(
        "rank %d of %d: chi2 %.6e, relative differences chi2 %.2e, gradient %.2e (norm), %.2e "
        "(of the peak)",
        comm_.rank(), comm_.size(), alone.chi2, chi2, norm, peak);
    // A wrong share (a rank's rows counted twice or missed) changes chi2 by whole percents.
    QVERIFY(alone.chi2 > 0.0);
    QVERIFY(chi2 < tolerance);
    QVERIFY(norm < tolerance);
    QVERIFY(peak < tolerance);
  }

  // The cause of the float differences: in one process, cutting the rows into other chunks
  // changes a float-accumulated gradient as much as splitting them over ranks does; summing the
  // chunks in a double grid leaves only the float sums inside each chunk.
  void doubleAccumulationHardlyDependsOnChunking() {
    const Mode plain{true, false, false}, wide{true, true, false};
    const double plain_change =
        normRelative(evaluateIn(plain, path_, std::nullopt, nullptr, 50).gradient,
                     evaluateIn(plain, path_, std::nullopt, nullptr, 64).gradient);
    const double wide_change =
        normRelative(evaluateIn(wide, path_, std::nullopt, nullptr, 50).gradient,
                     evaluateIn(wide, path_, std::nullopt, nullptr, 64).gradient);
    qInfo(
        "chunks of 50 instead of 64 rows change the gradient by %.2e (float grid), %.2e (double "
        "grid)",
        plain_change, wide_change);
    QVERIFY(plain_change > 1e-8);
    QVERIFY(wide_change < 1e-8);
    QVERIFY(wide_change < plain_change / 100.0);
  }

  // The deterministic reduction: with the rows split at chunk boundaries, any number of ranks
  // gives the single-process value and gradient bit for bit.
  void exactChunkSumsAreBitwiseEqual_data() {
    QTest::addColumn<bool>("single");
    QTest::addColumn<bool>("double_accumulation");
    QTest::newRow("float") << true << false;
    QTest::newRow("float, double accumulation") << true << true;
    QTest::newRow("double") << false << false;
  }

  void exactChunkSumsAreBitwiseEqual() {
    QFETCH(bool, single);
    QFETCH(bool, double_accumulation);
    const Mode mode{single, double_accumulation, true};
    ReadOptions o;
    o.chunk_rows = 64;
    const RowRange mine = engine::chunkAlignedRowRangeForRank(path_, o, comm_);
    const Evaluation alone = evaluateIn(mode, path_, std::nullopt, nullptr);
    const Evaluation spread = evaluateIn(mode, path_, mine, &comm_);
    QVERIFY(alone.chi2 > 0.0);  // also: a second evaluation repeated the first bit for bit
    QVERIFY(spread.chi2 > 0.0);
    QCOMPARE(spread.chi2, alone.chi2);
    QCOMPARE(spread.gradient.size(), alone.gradient.size());
    QVERIFY(std::memcmp(spread.gradient.data(), alone.gradient.data(),
                        alone.gradient.size() * sizeof(double)) == 0);
    // And it is the sum the plain term forms, to its rounding.
    const Evaluation plain =
        evaluateIn({single, double_accumulation, false}, path_, std::nullopt, nullptr);
    const double norm = normRelative(alone.gradient, plain.gradient);
    qInfo("rank %d of %d: exact chunk sums differ from one grid by %.2e (norm)", comm_.rank(),
          comm_.size(), norm);
    QVERIFY(norm < (single && !double_accumulation ? 1e-5 : 1e-12));
  }
};

int main(int argc, char** argv) {
  engine::MpiSession session(argc, argv, engine::MpiSessionOptions{});
  QCoreApplication app(argc, argv);
  engine::MpiCommunicator comm(false);
  TestMpiGradient test(comm);
  return QTest::qExec(&test, argc, argv);
}

#include "test_mpi_gradient.moc"
