// Row partitioning for distributed runs (issue #12): a reader limited to a row range yields
// exactly its rows of the full selection, with their global first_row; the parts of any
// partition put together give back the whole selection, sample for sample; the balanced
// boundaries give every part about the same number of unflagged samples.
#include <QtTest>
#include <map>
#include <stdexcept>

#include "core/io/chunk_rows.h"
#include "core/io/read_options.h"
#include "core/io/row_partition.h"
#include "core/io/visibility_source_factory.h"
#include "core/sim/simulation_request.h"
#include "tests/io/known_reader_files.h"
#include "tests/io/ms_fixture_edits.h"
#include "tests/io/read_pass.h"

using namespace apertura;
using namespace apertura::testing;

namespace {

// Every row a source yields, as one-row chunks keyed by their index in the selection sequence.
struct Rows {
  std::map<std::uint64_t, VisibilityChunk> by_index;
  std::size_t duplicates = 0;
};

void addRows(VisibilitySource& source, Rows& out) {
  VisibilityChunk chunk;
  source.rewind();
  while (source.next(chunk)) {
    for (std::size_t r = 0; r < chunk.num_rows(); ++r) {
      VisibilityChunk one;
      copyChunkRows(chunk, r, r + 1, one);
      if (!out.by_index.emplace(one.first_row, one).second)
        ++out.duplicates;
    }
  }
}

Rows rowsOf(const std::string& file, const ReadOptions& o) {
  Rows rows;
  addRows(*openVisibilitySource(file, o), rows);
  return rows;
}

std::uint64_t unflaggedIn(const std::string& file, ReadOptions o, const RowRange& range) {
  o.row_range = range;
  auto source = openVisibilitySource(file, o);
  return readPass(*source).unflagged;
}

}  // namespace

class TestRowPartition : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { files_.write(); }

  void partsPutTogetherGiveTheWholeSelection_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("chunk_rows");
    QTest::addColumn<bool>("resident");
    for (const ChunkedReadCase& c : files_.chunkedReadCases()) {
      for (bool resident : {false, true}) {
        QTest::newRow(qPrintable(c.tag + (resident ? " resident" : " stream")))
            << c.file << c.chunk_rows << resident;
      }
    }
  }

  void partsPutTogetherGiveTheWholeSelection() {
    QFETCH(QString, file);
    QFETCH(int, chunk_rows);
    QFETCH(bool, resident);
    const ReadOptions o =
        chunkedReadOptions(chunk_rows, resident ? ReadMode::kResident : ReadMode::kStreaming);
    const std::string path = file.toStdString();
    const Rows full = rowsOf(path, o);
    const std::uint64_t total = full.by_index.size();
    QCOMPARE(total, std::uint64_t(10));  // both fixtures: 10 cross-correlation rows
    QCOMPARE(full.duplicates, std::size_t(0));
    QCOMPARE(full.by_index.rbegin()->first, total - 1);
    QCOMPARE(openVisibilitySource(path, o)->info().selection_rows, total);

    for (int parts = 1; parts <= 12; ++parts) {
      Rows joined;
      for (int p = 0; p < parts; ++p) {
        const RowRange range = uniformRowRange(total, p, parts);
        ReadOptions part = o;
        part.row_range = range;
        auto source = openVisibilitySource(path, part);
        QCOMPARE(source->info().rows, range.size());
        QCOMPARE(source->info().selection_rows, total);
        Rows mine;
        addRows(*source, mine);
        QCOMPARE(std::uint64_t(mine.by_index.size()), range.size());
        for (const auto& [index, row] : mine.by_index) {
          QVERIFY(index >= range.begin && index < range.end);
          QVERIFY(joined.by_index.emplace(index, row).second);
        }
      }
      QCOMPARE(joined.by_index.size(), full.by_index.size());
      for (const auto& [index, row] : full.by_index)
        QVERIFY2(sameChunk(row, joined.by_index.at(index)), qPrintable(QString::number(index)));
    }
  }

  // Every range [a, b) of the sequence, including empty ones and ones past the end.
  void everyRangeYieldsExactlyItsRows_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("ms") << QString::fromStdString(files_.ms());
    QTest::newRow("uvfits") << QString::fromStdString(files_.uvfits());
  }

  void everyRangeYieldsExactlyItsRows() {
    QFETCH(QString, file);
    ReadOptions o;
    o.chunk_rows = 3;
    o.mode = ReadMode::kStreaming;
    const std::string path = file.toStdString();
    const Rows full = rowsOf(path, o);
    const std::uint64_t total = full.by_index.size();
    for (std::uint64_t a = 0; a <= total + 1; ++a) {
      for (std::uint64_t b = a; b <= total + 2; ++b) {
        ReadOptions part = o;
        part.row_range = RowRange{a, b};
        const Rows got = rowsOf(path, part);
        const std::uint64_t expect = b <= total ? b - a : (a < total ? total - a : 0);
        QCOMPARE(std::uint64_t(got.by_index.size()), expect);
        for (const auto& [index, row] : got.by_index)
          QVERIFY(sameChunk(row, full.by_index.at(index)));
      }
    }
  }

  void boundariesBalanceUnflaggedSamples() {
    // 1000 rows: 300 fully flagged, 300 with 10 unflagged samples, 400 with 1.
    std::vector<double> hist(1000, 0.0);
    for (std::size_t r = 300; r < 600; ++r)
      hist[r] = 10;
    for (std::size_t r = 600; r < 1000; ++r)
      hist[r] = 1;
    const double total = 3400;
    for (int parts : {1, 2, 3, 4, 7}) {
      const auto b = balancedRowBounds(hist, 1, 1000, parts);
      QCOMPARE(b.size(), std::size_t(parts) + 1);
      QCOMPARE(b.front(), std::uint64_t(0));
      QCOMPARE(b.back(), std::uint64_t(1000));
      for (int p = 0; p < parts; ++p) {
        QVERIFY(b[p] <= b[p + 1]);
        double n = 0;
        for (auto r = b[p]; r < b[p + 1]; ++r)
          n += hist[r];
        // A boundary moves the count by at most half the heaviest row (10) per side.
        QVERIFY2(std::abs(n - total / parts) <= 10.0,
                 qPrintable(QString("part %1 of %2: %3").arg(p).arg(parts).arg(n)));
      }
    }
    // 4 parts of 850: the first part must swallow every flagged row plus 85 rows of weight 10.
    QCOMPARE(balancedRowBounds(hist, 1, 1000, 4)[1], std::uint64_t(385));

    // Blocks of 10 rows (the same data): boundaries on block edges, within one block's count.
    std::vector<double> blocks(100, 0.0);
    for (std::size_t r = 0; r < 1000; ++r)
      blocks[r / 10] += hist[r];
    const auto b = balancedRowBounds(blocks, 10, 1000, 4);
    for (int p = 0; p < 4; ++p) {
      QCOMPARE(b[p] % 10, std::uint64_t(0));
      double n = 0;
      for (auto r = b[p]; r < b[p + 1]; ++r)
        n += hist[r];
      QVERIFY(std::abs(n - 850) <= 100.0);
    }
  }

  void degenerateHistograms() {
    // Nothing unflagged: split by rows.
    const auto even = balancedRowBounds(std::vector<double>(10, 0.0), 1, 10, 3);
    QCOMPARE(even, (std::vector<std::uint64_t>{0, 4, 7, 10}));
    // More parts than rows: some parts are empty, the bounds still cover every row once.
    const auto many = balancedRowBounds(std::vector<double>(3, 1.0), 1, 3, 5);
    QCOMPARE(many.front(), std::uint64_t(0));
    QCOMPARE(many.back(), std::uint64_t(3));
    for (std::size_t i = 1; i < many.size(); ++i)
      QVERIFY(many[i - 1] <= many[i]);
    // A last block shorter than block_rows.
    QCOMPARE(partitionBlockRows(10, 4), std::uint64_t(3));
    QCOMPARE(partitionBlocks(10, 3), std::size_t(4));
    QCOMPARE(balancedRowBounds(std::vector<double>(4, 1.0), 3, 10, 1).back(), std::uint64_t(10));
    QCOMPARE(uniformRowRange(10, 0, 3), (RowRange{0, 4}));
    QCOMPARE(uniformRowRange(10, 2, 3), (RowRange{7, 10}));
  }

  void badArgumentsAreClearErrors() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             balancedRowBounds(std::vector<double>(10, 1.0), 1, 10, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             balancedRowBounds(std::vector<double>(5, 1.0), 1, 10, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, uniformRowRange(10, 3, 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rowRangeOfPart({0, 5, 10}, 2));
    // A histogram too short for the source's rows.
    ReadOptions o;
    auto source = openVisibilitySource(files_.ms(), o);
    std::vector<double> hist(3, 0.0);
    try {
      addUnflaggedHistogram(*source, 1, hist);
      QFAIL("expected std::out_of_range");
    } catch (const std::out_of_range& e) {
      QVERIFY2(QString(e.what()).contains("known.ms"), e.what());
    }
  }

  void clipInMemoryChunks() {
    std::vector<VisibilityChunk> chunks(2);
    for (int k = 0; k < 2; ++k) {
      auto& c = chunks[static_cast<std::size_t>(k)];
      c.first_row = static_cast<std::size_t>(4 * k);
      c.frequencies_hz = {1e9, 2e9};
      for (int r = 0; r < 4; ++r) {
        const double id = 4 * k + r;
        c.uvw_m.insert(c.uvw_m.end(), {id, id + 0.5, 0.0});
        c.visibilities.insert(c.visibilities.end(), {{float(id), 0}, {float(id), 1}});
        c.weights.insert(c.weights.end(), {1.0f, 2.0f});
        c.source_rows.push_back(static_cast<std::uint64_t>(100 + id));
      }
    }
    clipChunksToRange(chunks, RowRange{2, 5});
    QCOMPARE(chunks.size(), std::size_t(2));
    QCOMPARE(chunks[0].first_row, std::size_t(2));
    QCOMPARE(chunks[0].num_rows(), std::size_t(2));
    QCOMPARE(chunks[0].uvw_m[0], 2.0);
    QCOMPARE(chunks[0].visibilities[3], std::complex<float>(3, 1));
    QCOMPARE(chunks[0].source_rows, (std::vector<std::uint64_t>{102, 103}));
    QVERIFY(chunks[0].time_mjd_s.empty());
    QCOMPARE(chunks[1].first_row, std::size_t(4));
    QCOMPARE(chunks[1].num_rows(), std::size_t(1));
    QCOMPARE(chunks[1].weights, (std::vector<float>{1.0f, 2.0f}));
  }

  // A simulated observation with the first rows mostly flagged: splitting by rows would give the
  // parts very different work; the balanced partition gives each its share within 2%.
  void balancedPartitionOfAFlaggedMeasurementSet() {
    sim::SimulationRequest req;
    req.points = {"1,0,0"};
    req.hours = 0.5;
    req.integration_s = 60.0;
    req.nchan = 4;
    req.output = (files_.dir() + "/flagged.ms").toStdString();
    sim::runSimulation(req);
    // Zero weight (flagged) for 3 of every 4 rows of the first third of the main table.
    std::size_t nrows = 0;
    {
      ReadOptions o;
      nrows = openVisibilitySource(req.output, o)->info().rows;
    }
    addWeightSpectrum(req.output, [&](int row, int, int) {
      return (std::size_t(row) < nrows / 3 && row % 4 != 0) ? 0.0f : 1.0f;
    });
    ReadOptions o;
    o.mode = ReadMode::kStreaming;
    o.chunk_rows = 1000;
    auto source = openVisibilitySource(req.output, o);
    const PassSums whole = readPass(*source);
    QVERIFY(whole.unflagged > 0 && whole.unflagged < whole.samples);
    const std::uint64_t total_rows = source->info().selection_rows;
    for (int parts : {2, 3, 5}) {
      const auto bounds = balancedRowPartition(*source, parts);
      std::uint64_t sum = 0;
      const double share = double(whole.unflagged) / parts;
      double worst_uniform = 0;
      for (int p = 0; p < parts; ++p) {
        const std::uint64_t n = unflaggedIn(req.output, o, rowRangeOfPart(bounds, p));
        sum += n;
        QVERIFY2(
            std::abs(double(n) - share) <= 0.02 * share,
            qPrintable(QString("part %1 of %2: %3 vs %4").arg(p).arg(parts).arg(n).arg(share)));
        const std::uint64_t u = unflaggedIn(req.output, o, uniformRowRange(total_rows, p, parts));
        worst_uniform = std::max(worst_uniform, std::abs(double(u) - share) / share);
      }
      QCOMPARE(sum, whole.unflagged);
      QVERIFY2(worst_uniform > 0.1, qPrintable(QString::number(worst_uniform)));
    }
  }

 private:
  KnownReaderFiles files_;
};

QTEST_GUILESS_MAIN(TestRowPartition)
#include "test_row_partition.moc"
