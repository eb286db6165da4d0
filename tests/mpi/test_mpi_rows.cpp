// Row partitioning across MPI ranks (run by mpirun with 1, 2 and 3 ranks): the ranges that
// balancedRowRangeForRank gives the ranks tile the selection (contiguous, no gap, no overlap);
// each rank reads exactly its rows; the ranks' unflagged samples add up to the whole data set's
// and are balanced; a file that fails to open on one rank fails on every rank.
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <set>

#include "core/engine/mpi_communicator.h"
#include "core/engine/mpi_session.h"
#include "core/engine/rank_rows.h"
#include "core/io/visibility_source_factory.h"
#include "core/sim/simulation_request.h"
#include "core/util/input_error.h"
#include "tests/io/ms_fixture_edits.h"
#include "tests/io/read_pass.h"
#include "tests/io/uvfits_fixture.h"
#include "tests/support/shared_data.h"
#include "tests/support/test_ms_builder.h"

using namespace apertura;
using namespace apertura::engine;
using namespace apertura::testing;

namespace {

// Rank 0's string on every rank.
std::string shareString(Communicator& c, std::string s) {
  std::uint64_t n = s.size();
  c.broadcast(&n, sizeof n, 0);
  s.resize(n);
  c.broadcast(s.data(), n, 0);
  return s;
}

struct RankShare {
  RowRange range;
  PassSums mine;
  std::uint64_t info_rows = 0, selection_rows = 0;
  bool rows_inside = true;
};

RankShare readShare(Communicator& c, const std::string& path, const ReadOptions& o) {
  RankShare s;
  s.range = balancedRowRangeForRank(path, o, c);
  ReadOptions part = o;
  part.row_range = s.range;
  auto source = openVisibilitySource(path, part);
  s.info_rows = source->info().rows;
  s.selection_rows = source->info().selection_rows;
  s.mine = readPass(*source, true);
  for (const auto& chunk : s.mine.kept) {
    s.rows_inside = s.rows_inside && chunk.first_row >= s.range.begin &&
                    chunk.first_row + chunk.num_rows() <= s.range.end;
  }
  return s;
}

}  // namespace

class TestMpiRows : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    std::string dir;
    if (comm_.rank() == 0) {
      tmp_ = std::make_unique<QTemporaryDir>();
      dir = tmp_->path().toStdString();
      writeTestMs(dir + "/known.ms");
      UvfitsFixture::write(dir + "/known.uvfits");
      // A simulated observation with most rows of its first third flagged.
      sim::SimulationRequest req;
      req.points = {"1,0,0"};
      req.hours = 0.5;
      req.nchan = 2;
      req.output = dir + "/flagged.ms";
      sim::runSimulation(req);
      addWeightSpectrum(
          req.output, [](int row, int, int) { return (row < 4000 && row % 4 != 0) ? 0.0f : 1.0f; });
    }
    dir_ = shareString(comm_, dir);
    comm_.barrier();
  }

  void ranksTileTheSelection_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("chunk_rows");
    for (const char* name : {"known.ms", "known.uvfits", "flagged.ms"}) {
      for (int rows : {1, 3, 0})
        QTest::newRow(qPrintable(QString("%1 rows=%2").arg(name).arg(rows))) << name << rows;
    }
    // Real data when ../shared/data is there (flags, FLAG_ROW, several IFs and Stokes).
    const QString shared = sharedDataDir();
    for (const char* rel :
         {"vla_day2_tdem0003/day2_TDEM0003_10s_norx_1src_1spw.ms", "vlba_mojave/mojave.uvfits"}) {
      if (!shared.isEmpty() && QFileInfo::exists(shared + "/" + rel))
        QTest::newRow(rel) << shared + "/" + rel << 0;
    }
  }

  void ranksTileTheSelection() {
    QFETCH(QString, name);
    QFETCH(int, chunk_rows);
    const std::string path =
        name.startsWith('/') ? name.toStdString() : dir_ + "/" + name.toStdString();
    ReadOptions o;
    if (chunk_rows > 0)
      o.chunk_rows = static_cast<std::size_t>(chunk_rows);
    const RankShare s = readShare(comm_, path, o);
    // Everybody's range and totals, by summing vectors where each rank fills its own slot.
    const auto n = static_cast<std::size_t>(comm_.size());
    std::vector<double> ranges(2 * n, 0.0);
    ranges[2 * std::size_t(comm_.rank())] = double(s.range.begin);
    ranges[2 * std::size_t(comm_.rank()) + 1] = double(s.range.end);
    comm_.sum(ranges.data(), ranges.size());
    std::vector<double> unflagged(n, 0.0);
    unflagged[std::size_t(comm_.rank())] = double(s.mine.unflagged);
    comm_.sum(unflagged.data(), n);
    double totals[2] = {double(s.mine.rows), s.mine.sum_w};
    comm_.sum(totals, 2);

    ReadOptions whole_o = o;
    auto whole_source = openVisibilitySource(path, whole_o);
    const PassSums whole = readPass(*whole_source);
    const std::uint64_t total_rows = whole_source->info().rows;

    QVERIFY(s.rows_inside);
    QCOMPARE(s.info_rows, s.range.size());
    QCOMPARE(s.mine.rows, s.range.size());
    QCOMPARE(s.selection_rows, total_rows);
    QCOMPARE(ranges.front(), 0.0);
    QCOMPARE(ranges.back(), double(total_rows));
    for (std::size_t r = 0; r + 1 < n; ++r)
      QCOMPARE(ranges[2 * r + 1], ranges[2 * r + 2]);  // no gap, no overlap
    double sum_unflagged = 0;
    for (double u : unflagged)
      sum_unflagged += u;
    QCOMPARE(sum_unflagged, double(whole.unflagged));
    QCOMPARE(totals[0], double(whole.rows));
    QVERIFY(std::abs(totals[1] - whole.sum_w) <= 1e-9 * whole.sum_w);
    if (name == "flagged.ms") {
      // Thousands of rows of at most 2 samples: every rank within 1% of its share.
      const double share = double(whole.unflagged) / double(n);
      for (double u : unflagged)
        QVERIFY2(std::abs(u - share) <= 0.01 * share,
                 qPrintable(QString("%1 vs %2").arg(u).arg(share)));
    }
  }

  // The deterministic reduction's split: the ranges still tile the selection, and every chunk a
  // rank reads is a whole chunk of the full read (same first row, same rows), none is missed.
  void chunkAlignedRangesHoldWholeChunks_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("chunk_rows");
    for (const char* name : {"flagged.ms", "known.uvfits"}) {
      for (int rows : {1, 7, 500})
        QTest::newRow(qPrintable(QString("%1 rows=%2").arg(name).arg(rows))) << name << rows;
    }
  }

  void chunkAlignedRangesHoldWholeChunks() {
    QFETCH(QString, name);
    QFETCH(int, chunk_rows);
    const std::string path = dir_ + "/" + name.toStdString();
    ReadOptions o;
    o.chunk_rows = static_cast<std::size_t>(chunk_rows);
    o.mode = ReadMode::kStreaming;
    const RowRange range = chunkAlignedRowRangeForRank(path, o, comm_);
    const auto chunksOf = [&](std::optional<RowRange> r) {
      ReadOptions part = o;
      part.row_range = r;
      auto source = openVisibilitySource(path, part);
      std::set<std::pair<std::uint64_t, std::size_t>> out;
      VisibilityChunk c;
      while (source->next(c))
        out.insert({c.first_row, c.num_rows()});
      return out;
    };
    const auto whole = chunksOf(std::nullopt);
    const auto mine = chunksOf(range);
    for (const auto& c : mine)
      QVERIFY2(whole.count(c) == 1, qPrintable(QString("rank %1: piece at row %2 of %3 rows")
                                                   .arg(comm_.rank())
                                                   .arg(c.first)
                                                   .arg(c.second)));
    const auto n = static_cast<std::size_t>(comm_.size());
    std::vector<double> ranges(2 * n + 1, 0.0);
    ranges[2 * std::size_t(comm_.rank())] = double(range.begin);
    ranges[2 * std::size_t(comm_.rank()) + 1] = double(range.end);
    ranges[2 * n] = double(mine.size());
    comm_.sum(ranges.data(), ranges.size());
    QCOMPARE(ranges[2 * n], double(whole.size()));  // every chunk on exactly one rank
    QCOMPARE(ranges[0], 0.0);
    for (std::size_t r = 0; r + 1 < n; ++r)
      QCOMPARE(ranges[2 * r + 1], ranges[2 * r + 2]);
  }

  void aFileMissingOnOneRankFailsEveryRank() {
    const int last = comm_.size() - 1;
    const std::string path = comm_.rank() == last ? dir_ + "/missing.ms" : dir_ + "/known.ms";
    std::string message;
    try {
      balancedRowRangeForRank(path, ReadOptions{}, comm_);
    } catch (const std::exception& e) {
      message = e.what();
    }
    comm_.barrier();
    QVERIFY2(message.find("missing.ms") != std::string::npos, message.c_str());
    if (comm_.rank() != last)
      QVERIFY2(message.rfind("rank " + std::to_string(last) + ": ", 0) == 0, message.c_str());
  }

  void cleanupTestCase() {
    comm_.barrier();  // nobody reads the files any more when rank 0 removes them
    tmp_.reset();
  }

 private:
  MpiCommunicator comm_{true};
  std::unique_ptr<QTemporaryDir> tmp_;
  std::string dir_;
};

int main(int argc, char** argv) {
  MpiSession session(argc, argv);
  QCoreApplication app(argc, argv);
  int rc = 0;
  {
    TestMpiRows test;  // its communicator goes before MPI_Finalize
    rc = QTest::qExec(&test, argc, argv);
  }
  return rc;
}

#include "test_mpi_rows.moc"
