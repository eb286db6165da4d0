// The memory estimate's parts follow from the settings by simple counting; these checks pin the
// counting and the resident/streaming decision.
#include <QtTest>

#include "core/engine/memory_estimate.h"

using namespace apertura;
using namespace apertura::engine;

class TestMemoryEstimate : public QObject {
  Q_OBJECT
 private slots:
  void imageAndOptimizerScaleWithPixelsAndHistory() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 1024;
    s.optimizer.method = "lbfgs";
    s.optimizer.history = 10;
    const DataVolume d{1000, 1000, 1};
    const MemoryEstimate a = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(a.optimizer_bytes, std::uint64_t(23) * 1024 * 1024 * 8);  // 2m + 3 vectors
    s.optimizer.history = 5;
    const MemoryEstimate b = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(a.optimizer_bytes - b.optimizer_bytes, std::uint64_t(10) * 1024 * 1024 * 8);
    s.imaging.nx = s.imaging.ny = 2048;
    const MemoryEstimate c = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(c.image_bytes, 4 * b.image_bytes);
  }

  void gridFollowsPaddingAndPrecision() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 1000;
    s.imaging.oversampling = 2.0;
    s.imaging.threads = 1;
    const DataVolume d{10, 10, 1};
    const MemoryEstimate f = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(f.grid_bytes, std::uint64_t(2000) * 2000 * 12 + 64 * 64 * 8);
    s.imaging.precision = "double";
    const MemoryEstimate g = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(g.grid_bytes, std::uint64_t(2000) * 2000 * 20 + 64 * 64 * 16);
  }

  void streamsWhenTheDataExceedTheBudget() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 256;
    s.data.memory_budget_gb = 1.0;
    // 10^8 samples of 1 channel: 8 + 4 + 8 + 24 = 44 bytes each = 4.4 GB > 1 GiB.
    const DataVolume big{100000000, 100000000, 1};
    QCOMPARE(bytesPerSample(big), std::uint64_t(44));
    const MemoryEstimate e = estimateMemory(s, big, 64ull << 30);
    QVERIFY(!e.resident);
    QVERIFY(e.fitsBudget());
    QCOMPARE(e.visibility_bytes, 2 * e.chunk_rows * 44);
    // The same data resident with a big budget.
    s.data.memory_budget_gb = 16.0;
    const MemoryEstimate r = estimateMemory(s, big, 64ull << 30);
    QVERIFY(r.resident);
    QCOMPARE(r.visibility_bytes, std::uint64_t(4400000000ull));
    // A user-set chunk size is honoured.
    s.data.memory_budget_gb = 1.0;
    s.data.chunk_rows = 5000;
    QCOMPARE(estimateMemory(s, big, 64ull << 30).chunk_rows, std::uint64_t(5000));
  }

  void autoBudgetIsHalfTheMachine() {
    project::ProjectSettings s;
    const MemoryEstimate e = estimateMemory(s, DataVolume{1, 1, 1}, 24ull << 30);
    QCOMPARE(e.budget_bytes, std::uint64_t(12ull << 30));
    QVERIFY(QString::fromStdString(e.describe()).contains("of a 12.00 GiB budget"));
  }
};

QTEST_GUILESS_MAIN(TestMemoryEstimate)
#include "test_memory_estimate.moc"
