// Chunked streaming: the prefetching I/O thread, the resident cache and the automatic choice
// between them. Resident and streaming reads must give bit-identical chunks for any chunk size;
// passes repeat exactly; rewinding mid-pass restarts cleanly; cancellation stops a read; errors
// of the inner source reach the consumer; chunk sizes follow the memory budget.
#include <QtTest>

#include "core/io/prefetch_source.h"
#include "core/io/read_options.h"
#include "core/io/visibility_source_factory.h"
#include "core/util/cancellation.h"
#include "core/util/input_error.h"
#include "tests/io/known_reader_files.h"
#include "tests/io/read_pass.h"

using namespace apertura;
using namespace apertura::testing;

namespace {

void compareChunks(const PassSums& a, const PassSums& b) {
  QCOMPARE(a.kept.size(), b.kept.size());
  for (std::size_t i = 0; i < a.kept.size(); ++i)
    QVERIFY(sameChunk(a.kept[i], b.kept[i]));
  QCOMPARE(a.sum_w, b.sum_w);
  QCOMPARE(a.sum_wre, b.sum_wre);
  QCOMPARE(a.sum_wim, b.sum_wim);
}

// A source whose warnings() throws: on the first call (while the I/O thread opens it) or after
// the first chunk. An exception escaping the I/O thread would end the process.
class ThrowingWarningsSource final : public VisibilitySource {
 public:
  explicit ThrowingWarningsSource(int good_calls) : good_calls_(good_calls) {}
  const SourceInfo& info() const override { return info_; }
  void rewind() override {}
  bool next(VisibilityChunk&) override { return true; }
  std::vector<std::string> warnings() const override {
    if (calls_++ >= good_calls_)
      throw InputError("broken.ms", "warnings failed");
    return {};
  }

 private:
  SourceInfo info_;
  int good_calls_;
  mutable int calls_ = 0;
};

}  // namespace

class TestVisibilitySource : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { files_.write(); }

  void residentAndStreamingAreBitIdentical_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("chunk_rows");
    for (const ChunkedReadCase& c : files_.chunkedReadCases())
      QTest::newRow(qPrintable(c.tag)) << c.file << c.chunk_rows;
  }

  void residentAndStreamingAreBitIdentical() {
    QFETCH(QString, file);
    QFETCH(int, chunk_rows);
    ReadOptions o = chunkedReadOptions(chunk_rows, ReadMode::kStreaming);
    auto streaming = openVisibilitySource(file.toStdString(), o);
    QVERIFY(!streaming->resident());
    o.mode = ReadMode::kResident;
    auto resident = openVisibilitySource(file.toStdString(), o);
    QVERIFY(resident->resident());
    const PassSums s1 = readPass(*streaming, true);
    const PassSums s2 = readPass(*streaming, true);  // the second pass re-reads from disk
    const PassSums r1 = readPass(*resident, true);
    const PassSums r2 = readPass(*resident, true);
    QVERIFY(s1.unflagged > 0);
    compareChunks(s1, s2);
    compareChunks(s1, r1);
    compareChunks(r1, r2);
    QCOMPARE(streaming->warnings(), resident->warnings());
    if (chunk_rows > 0) {
      for (const auto& c : s1.kept)
        QVERIFY(c.num_rows() <= static_cast<std::size_t>(chunk_rows));
    }
  }

  void rewindMidPass() {
    ReadOptions o;
    o.chunk_rows = 1;
    o.mode = ReadMode::kStreaming;
    auto src = openVisibilitySource(files_.ms(), o);
    const PassSums full = readPass(*src, true);
    VisibilityChunk chunk;
    src->rewind();
    QVERIFY(src->next(chunk));
    QVERIFY(src->next(chunk));
    const PassSums again = readPass(*src, true);  // rewinds first
    compareChunks(full, again);
    QVERIFY(!src->next(chunk));  // stays at the end
  }

  void cancellation() {
    CancellationToken token;
    ReadOptions o;
    o.chunk_rows = 1;
    o.mode = ReadMode::kStreaming;
    o.cancel = &token;
    auto src = openVisibilitySource(files_.ms(), o);
    VisibilityChunk chunk;
    QVERIFY(src->next(chunk));
    token.cancel();
    QVERIFY_EXCEPTION_THROWN(src->next(chunk), OperationCancelled);
    // Destroying the source joins its I/O thread (the test would hang otherwise).
    src.reset();
    QVERIFY(token.cancelled());
  }

  void errorsOfTheInnerSourceReachTheConsumer() {
    try {
      PrefetchSource opening([] { return std::make_unique<ThrowingWarningsSource>(0); }, 2,
                             nullptr);
      QFAIL("expected the error of warnings() from the constructor");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("broken.ms: warnings failed"), e.what());
    }
    PrefetchSource reading([] { return std::make_unique<ThrowingWarningsSource>(1); }, 2, nullptr);
    VisibilityChunk chunk;
    QVERIFY_EXCEPTION_THROWN(reading.next(chunk), InputError);
    QVERIFY_EXCEPTION_THROWN(reading.next(chunk), InputError);  // and again until rewind()
  }

  void chunkSizeFollowsTheMemoryBudget() {
    ReadOptions o;
    o.prefetch_depth = 2;
    // 8 channels x 2 correlations per row; 4 chunks alive at once; room for 3 rows each.
    o.memory_budget_bytes = 4 * 3 * bytesPerChunkRow(8, 2) + 7;
    QCOMPARE(autoChunkRows(o, 8, 2), std::size_t(3));
    o.mode = ReadMode::kStreaming;
    auto src = openVisibilitySource(files_.ms(), o);
    QCOMPARE(src->info().chunk_rows, std::size_t(3));
    o.chunk_rows = 5;  // an explicit size wins
    QCOMPARE(autoChunkRows(o, 8, 2), std::size_t(5));
  }

  void autoModeChoosesByBudget() {
    ReadOptions o;
    o.mode = ReadMode::kAuto;
    o.memory_budget_bytes = std::size_t{1} << 30;
    auto big = openVisibilitySource(files_.ms(), o);
    QVERIFY(big->resident());
    QCOMPARE(residentBytes(big->info()), std::size_t(64 * 12 + 10 * 48));
    o.memory_budget_bytes = 1000;  // less than the 1248 bytes the selection needs
    auto small = openVisibilitySource(files_.ms(), o);
    QVERIFY(!small->resident());
    // Chunk boundaries differ with the budget; the samples, in order, do not.
    const PassSums a = readPass(*big), b = readPass(*small);
    QCOMPARE(a.samples, b.samples);
    QCOMPARE(a.sum_w, b.sum_w);
    QCOMPARE(a.sum_wre, b.sum_wre);
    QCOMPARE(a.sum_wim, b.sum_wim);
  }

 private:
  KnownReaderFiles files_;
};

QTEST_GUILESS_MAIN(TestVisibilitySource)
#include "test_visibility_source.moc"
