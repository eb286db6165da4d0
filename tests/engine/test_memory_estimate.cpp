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
    s.optimizer.method = apertura::project::OptimizerMethod::Lbfgs;
    s.optimizer.history = 10;
    const DataVolume d{1000, 1000, 1};
    const MemoryEstimate a = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(a.optimizer_bytes, std::uint64_t(23) * 1024 * 1024 * 8);  // 2m + 3 work vectors
    QCOMPARE(a.optimizer_spill_bytes, std::uint64_t(0));
    s.optimizer.history = 5;
    const MemoryEstimate b = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(a.optimizer_bytes - b.optimizer_bytes, std::uint64_t(10) * 1024 * 1024 * 8);
    s.imaging.nx = s.imaging.ny = 2048;
    const MemoryEstimate c = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(c.image_bytes, 4 * b.image_bytes);
  }

  // L-BFGS keeps 2 min(m, in_memory_limit) vectors in RAM (plus the one spilled pair mapped when
  // it spills) and the other 2 (m - limit) on disk, besides its direction, trial point and trial
  // gradient; the other solvers their own work vectors.
  void optimizerStateCountsHistoryAndSpill() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 4096;
    const std::uint64_t vec = std::uint64_t(4096) * 4096 * 8;  // 128 MiB
    s.optimizer.method = apertura::project::OptimizerMethod::Lbfgs;
    s.optimizer.history = 10;
    const DataVolume d{1000, 1000, 1};
    const std::uint64_t machine = 64ull << 30;
    const MemoryEstimate all = estimateMemory(s, d, machine);
    QCOMPARE(all.optimizer_bytes, 23 * vec);
    QCOMPARE(all.optimizer_spill_bytes, std::uint64_t(0));
    for (int limit : {5, 2, 1}) {
      s.optimizer.in_memory_limit = limit;
      const MemoryEstimate e = estimateMemory(s, d, machine);
      QCOMPARE(e.optimizer_bytes, (2 * std::uint64_t(limit) + 3 + 2) * vec);
      QCOMPARE(e.optimizer_spill_bytes, 2 * std::uint64_t(10 - limit) * vec);
      // Spill is on disk: not part of the RAM total.
      QCOMPARE(e.totalBytes(),
               e.grid_bytes + e.image_bytes + e.optimizer_bytes + e.visibility_bytes);
      QVERIFY(QString::fromStdString(e.describe()).contains("L-BFGS spill on disk"));
    }
    s.optimizer.in_memory_limit = 10;  // the whole history in RAM: nothing mapped
    QCOMPARE(estimateMemory(s, d, machine).optimizer_bytes, 23 * vec);
    QVERIFY(!QString::fromStdString(estimateMemory(s, d, machine).describe()).contains("spill"));

    // Float pairs: the history (and the mapped pair) and the spill at half size; the direction,
    // the trial point and its gradient stay double.
    s.optimizer.history_precision = apertura::project::Precision::Float;
    s.optimizer.in_memory_limit = 4;
    const MemoryEstimate f = estimateMemory(s, d, machine);
    QCOMPARE(f.optimizer_bytes, (2 * 4 + 2) * vec / 2 + 3 * vec);
    QCOMPARE(f.optimizer_spill_bytes, 2 * 6 * vec / 2);
    s.optimizer.history_precision = apertura::project::Precision::Double;

    // A RAM limit instead of a pair count: 1.6 GiB holds 6 pairs of 256 MiB, so 5 stay
    // resident (one fewer: the pair being read back) and 5 spill; 2.5 GiB holds all 10.
    s.optimizer.in_memory_limit.reset();
    s.optimizer.history_memory_gb = 1.6;
    QCOMPARE(historyMemoryBytes(s.optimizer), std::uint64_t(1.6 * double(1ull << 30)));
    const MemoryEstimate by_ram = estimateMemory(s, d, machine);
    QCOMPARE(by_ram.optimizer_bytes, (2 * 5 + 2 + 3) * vec);
    QCOMPARE(by_ram.optimizer_spill_bytes, 2 * 5 * vec);
    s.optimizer.history_memory_gb = 2.5;
    QCOMPARE(estimateMemory(s, d, machine).optimizer_bytes, 23 * vec);
    s.optimizer.history_memory_gb.reset();

    s.optimizer.method = apertura::project::OptimizerMethod::CgPr;
    QCOMPARE(estimateMemory(s, d, machine).optimizer_bytes, 3 * vec);
    s.optimizer.method = apertura::project::OptimizerMethod::Fista;
    QCOMPARE(estimateMemory(s, d, machine).optimizer_bytes, 4 * vec);
    // FISTA with TV and L1 under positivity: TV's 7 vectors and the inner SDMM's of {quadratic,
    // TV, L1, positivity} (2 x 4 + 2); an unused TSV counts for nothing.
    s.optimizer.positivity = apertura::project::Positivity::Projection;
    s.regularizers = {{"l1", 1e-3, false, {}}, {"tv", 1e-4, false, {}}, {"tsv", 0.0, false, {}}};
    QCOMPARE(estimateMemory(s, d, machine).optimizer_bytes, (4 + 7 + 10) * vec);
    // SDMM: (smooth + 2 regularizers + positivity) x 2 + 2 + the inner L-BFGS (2 x 10 + 3).
    s.optimizer.method = apertura::project::OptimizerMethod::Sdmm;
    QCOMPARE(estimateMemory(s, d, machine).optimizer_bytes, (8 + 2 + 23) * vec);
    QCOMPARE(estimateMemory(s, d, machine).optimizer_spill_bytes, std::uint64_t(0));
  }

  void gridFollowsPaddingAndPrecision() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 1000;
    s.imaging.oversampling = 2.0;
    s.imaging.threads = 1;
    const DataVolume d{10, 10, 1};
    // Float model grid (8 bytes a cell), double accumulator (16), weights (4).
    const MemoryEstimate f = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(f.grid_bytes, std::uint64_t(2000) * 2000 * 28 + 64 * 64 * 8);
    s.imaging.grid_accumulation = apertura::project::Precision::Float;
    const MemoryEstimate narrow = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(narrow.grid_bytes, std::uint64_t(2000) * 2000 * 20 + 64 * 64 * 8);
    s.imaging.precision = apertura::project::Precision::Double;
    const MemoryEstimate g = estimateMemory(s, d, 16ull << 30);
    QCOMPARE(g.grid_bytes, std::uint64_t(2000) * 2000 * 36 + 64 * 64 * 16);
  }

  // imaging.operator: the run's PSF-mode term keeps 128 bytes a pixel (its doubled image's
  // arrays and four image vectors); auto counts it only where it applies and fits the budget,
  // psf always.
  void psfModeCountsItsGridsAndAutoFitsTheBudget() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 1000;
    s.imaging.threads = 1;
    const DataVolume d{10, 10, 1};
    const MemoryEstimate visibilities = estimateMemory(s, d, 16ull << 30);
    QVERIFY(!visibilities.psf_mode);
    s.imaging.data_operator = project::OperatorMode::Psf;
    const MemoryEstimate psf = estimateMemory(s, d, 16ull << 30);
    QVERIFY(psf.psf_mode);
    QCOMPARE(psf.grid_bytes - visibilities.grid_bytes, std::uint64_t(128) * 1000 * 1000);
    s.imaging.data_operator = project::OperatorMode::Auto;
    QCOMPARE(estimateMemory(s, d, 16ull << 30).grid_bytes, psf.grid_bytes);
    // A budget between the two: auto keeps the visibilities, psf stays (and is over).
    const double between = double(visibilities.totalBytes() + psf.totalBytes()) / 2.0;
    s.data.memory_budget_gb = between / double(1ull << 30);
    const MemoryEstimate fitted = estimateMemory(s, d, 16ull << 30);
    QVERIFY(!fitted.psf_mode);
    QVERIFY(fitted.fitsBudget());
    QCOMPARE(fitted.grid_bytes, visibilities.grid_bytes);
    s.imaging.data_operator = project::OperatorMode::Psf;
    QVERIFY(estimateMemory(s, d, 16ull << 30).psf_mode);
    QVERIFY(!estimateMemory(s, d, 16ull << 30).fitsBudget());
    // Where the PSF mode does not apply, nothing is counted.
    s.data.memory_budget_gb.reset();
    s.imaging.data_operator = project::OperatorMode::Auto;
    s.imaging.w_stacking = true;
    QVERIFY(!estimateMemory(s, d, 16ull << 30).psf_mode);
    s.imaging.w_stacking = false;
    s.imaging.spectral_mode = project::SpectralMode::Cube;
    QVERIFY(!estimateMemory(s, d, 16ull << 30).psf_mode);
    s.imaging.spectral_mode = project::SpectralMode::Mfs;
    DataVolume deterministic = d;
    deterministic.deterministic_reduction = true;
    QVERIFY(!estimateMemory(s, deterministic, 16ull << 30).psf_mode);
  }

  void streamsWhenTheDataExceedTheBudget() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 256;
    s.data.memory_budget_gb = 1.0;
    // 10^8 samples of 1 channel: 8 + 4 + 16 + 48 = 76 bytes each = 7.6 GB > 1 GiB.
    const DataVolume big{100000000, 100000000, 1};
    QCOMPARE(bytesPerSample(big), std::uint64_t(76));
    QCOMPARE(bytesPerSample(DataVolume{1000, 64000, 64}), std::uint64_t(8 + 4 + 16 + 1));
    const MemoryEstimate e = estimateMemory(s, big, 64ull << 30);
    QVERIFY(!e.resident);
    QVERIFY(e.fitsBudget());
    QCOMPARE(e.visibility_bytes, 4 * e.chunk_rows * 76 + e.chunk_rows * 8);
    // The same data resident with a big budget.
    s.data.memory_budget_gb = 16.0;
    const MemoryEstimate r = estimateMemory(s, big, 64ull << 30);
    QVERIFY(r.resident);
    QCOMPARE(r.visibility_bytes, std::uint64_t(7600000000ull));
    // A cross-validated lambda copies the training folds of resident data: twice the bytes.
    s.regularizers = {{"l1", std::nullopt, false, {}}};
    QCOMPARE(estimateMemory(s, big, 64ull << 30).visibility_bytes, 2 * r.visibility_bytes);
    s.regularization.method = apertura::project::LambdaMethod::Discrepancy;
    QCOMPARE(estimateMemory(s, big, 64ull << 30).visibility_bytes, r.visibility_bytes);
    s.regularizers.clear();
    // data.mode forces the choice either way.
    s.data.mode = apertura::ReadMode::kStreaming;
    QVERIFY(!estimateMemory(s, big, 64ull << 30).resident);
    s.data.memory_budget_gb = 1.0;
    s.data.mode = apertura::ReadMode::kResident;
    QVERIFY(estimateMemory(s, big, 64ull << 30).resident);
    s.data.mode = apertura::ReadMode::kAuto;
    // w-stacking holds every sample at once, and per sample what its whole calls need besides:
    // imaging weight and visibility (dirty image), or the model (data term), in the precision.
    s.data.memory_budget_gb = 16.0;
    s.imaging.w_stacking = true;
    QCOMPARE(estimateMemory(s, big, 64ull << 30).visibility_bytes,
             std::uint64_t(100000000ull * (76 + 4 + 8)));
    s.imaging.precision = apertura::project::Precision::Double;
    QCOMPARE(estimateMemory(s, big, 64ull << 30).visibility_bytes,
             std::uint64_t(100000000ull * (76 + 4 + 16)));
    s.data.memory_budget_gb = 1.0;  // it never streams
    QVERIFY(estimateMemory(s, big, 64ull << 30).resident);
    s.imaging.w_stacking = false;
    s.imaging.precision = apertura::project::Precision::Float;
    // A user-set chunk size is honoured.
    s.data.memory_budget_gb = 1.0;
    s.data.chunk_rows = 5000;
    QCOMPARE(estimateMemory(s, big, 64ull << 30).chunk_rows, std::uint64_t(5000));
  }

  // What a run over its budget can change to fit (the GUI's memory confirmation).
  void fitWithinBudgetFindsTheLargestImageAndStreaming() {
    project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = 10000;
    s.data.memory_budget_gb = 1.0;
    const DataVolume small{1000, 64000, 64};
    QVERIFY(!estimateMemory(s, small, 64ull << 30).fitsBudget());
    const BudgetFit fit = fitWithinBudget(s, small, 64ull << 30);
    QVERIFY(fit.image_size >= 64 && fit.image_size < 10000 && fit.image_size % 32 == 0);
    QVERIFY(!fit.streaming_fits);  // auto streams by itself: nothing to offer
    s.imaging.nx = s.imaging.ny = fit.image_size;
    QVERIFY(estimateMemory(s, small, 64ull << 30).fitsBudget());
    s.imaging.nx = s.imaging.ny = fit.image_size + 32;  // the largest: 32 px more does not fit
    QVERIFY(!estimateMemory(s, small, 64ull << 30).fitsBudget());
    // Resident data over the budget at a small image: streaming fits.
    const DataVolume big{100000000, 100000000, 1};
    s.imaging.nx = s.imaging.ny = 256;
    s.data.mode = apertura::ReadMode::kResident;
    QVERIFY(!estimateMemory(s, big, 64ull << 30).fitsBudget());
    QVERIFY(fitWithinBudget(s, big, 64ull << 30).streaming_fits);
    QCOMPARE(fitWithinBudget(s, big, 64ull << 30).image_size, 0);  // no image holds 7.6 GB
    s.imaging.w_stacking = true;                                   // w-stacking cannot stream
    QVERIFY(!fitWithinBudget(s, big, 64ull << 30).streaming_fits);
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
