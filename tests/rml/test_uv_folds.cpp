// Cross-validation folds by uv cell (core/data/uv_folds.h): a cell and its mirror image go to one
// fold, folds are about equal on many cells, and a fold's training and held-out selections split
// every sample's weight between them, held or streamed alike.
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

#include "core/data/uv_folds.h"
#include "core/util/random.h"

using namespace apertura;

namespace {

constexpr double kC = 299792458.0;

// 4 channels per row, uv spread over +-2000 wavelengths, weights 1 + row, one flagged sample.
std::vector<VisibilityChunk> chunks(std::size_t count, std::size_t rows, std::uint64_t seed) {
  std::vector<VisibilityChunk> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    VisibilityChunk& c = out[i];
    c.frequencies_hz = {1.0e9, 1.01e9, 1.02e9, 1.03e9};
    for (std::size_t r = 0; r < rows; ++r) {
      const NormalPair n = counterNormalPair(seed + i, r);
      c.uvw_m.insert(c.uvw_m.end(), {600.0 * n.a, 600.0 * n.b, 3.0});
      for (std::size_t k = 0; k < 4; ++k) {
        c.visibilities.emplace_back(float(r), float(k));
        c.weights.push_back(r == 0 && k == 0 ? 0.0f : float(1 + r));
      }
    }
  }
  return out;
}

// A sequence read again on every pass, whose chunks live only during their call.
class Streamed final : public ChunkSequence {
 public:
  explicit Streamed(std::vector<VisibilityChunk> chunks) : chunks_(std::move(chunks)) {}
  void forEach(const Visitor& visit) override {
    for (std::size_t i = 0; i < chunks_.size(); ++i) {
      VisibilityChunk copy = chunks_[i];
      visit(copy, i);
    }
  }
  bool held() const override { return false; }

 private:
  std::vector<VisibilityChunk> chunks_;
};

std::vector<std::vector<float>> weightsOf(ChunkSequence& s) {
  std::vector<std::vector<float>> out;
  s.forEach([&](const VisibilityChunk& c, std::size_t i) {
    if (i != out.size())
      throw std::logic_error("chunks out of order");
    out.push_back(c.weights);
  });
  return out;
}

}  // namespace

class TestUvFolds : public QObject {
  Q_OBJECT
 private slots:
  void aCellAndItsMirrorShareAFold() {
    const UvFolds folds(5, 10.0);
    for (std::uint64_t k = 0; k < 2000; ++k) {
      const NormalPair n = counterNormalPair(7, k);
      const double u = 500.0 * n.a, v = 500.0 * n.b;
      const int f = folds.foldOf(u, v);
      QVERIFY(f >= 0 && f < 5);
      QCOMPARE(folds.foldOf(-u, -v), f);
      // Every point of the cell: its corner and a point inside.
      const double u0 = std::floor(u / 10.0) * 10.0, v0 = std::floor(v / 10.0) * 10.0;
      if (v0 > 0.0) {  // the half-plane's own cells
        QCOMPARE(folds.foldOf(u0 + 0.01, v0 + 0.01), f);
        QCOMPARE(folds.foldOf(u0 + 9.99, v0 + 9.99), f);
      }
    }
  }

  void foldsAreAboutEqualAndNeighboursDiffer() {
    const UvFolds folds(4, 1.0);
    std::map<int, int> cells;
    int same_as_right = 0, pairs = 0;
    for (int iu = -60; iu < 60; ++iu) {
      for (int iv = 1; iv < 60; ++iv) {
        const int f = folds.foldOf(iu + 0.5, iv + 0.5);
        ++cells[f];
        same_as_right += f == folds.foldOf(iu + 1.5, iv + 0.5) ? 1 : 0;
        ++pairs;
      }
    }
    QCOMPARE(int(cells.size()), 4);
    for (const auto& [fold, n] : cells)
      QVERIFY2(std::abs(n - pairs / 4) < pairs / 20, qPrintable(QString::number(n)));
    // Unrelated folds: a neighbour shares the fold a quarter of the time, not always.
    QVERIFY(std::abs(same_as_right - pairs / 4) < pairs / 20);
  }

  void assignUsesEachChannelsWavelength() {
    const UvFolds folds(3, 5.0);
    const std::vector<VisibilityChunk> c = chunks(1, 50, 11);
    std::vector<std::uint8_t> fold;
    folds.assign(c[0], fold);
    QCOMPARE(fold.size(), c[0].weights.size());
    for (std::size_t r = 0; r < 50; ++r) {
      for (std::size_t k = 0; k < 4; ++k) {
        const double per_metre = c[0].frequencies_hz[k] / kC;
        QCOMPARE(int(fold[r * 4 + k]),
                 folds.foldOf(c[0].uvw_m[3 * r] * per_metre, c[0].uvw_m[3 * r + 1] * per_metre));
      }
    }
  }

  void selectionsSplitEveryWeight_data() {
    QTest::addColumn<bool>("held");
    QTest::newRow("held") << true;
    QTest::newRow("streamed") << false;
  }
  void selectionsSplitEveryWeight() {
    QFETCH(bool, held);
    const std::vector<VisibilityChunk> data = chunks(3, 200, 21);
    HeldChunks held_chunks(data);
    Streamed streamed(data);
    ChunkSequence& base = held ? static_cast<ChunkSequence&>(held_chunks) : streamed;
    const UvFolds folds(4, 20.0);
    std::vector<std::vector<float>> sum(3);
    std::set<int> seen;
    for (int f = 0; f < 4; ++f) {
      FoldSelection train(base, folds, f, false), held_out(base, folds, f, true);
      // A held base's training set is held (planned once); everything else is read per pass.
      QCOMPARE(train.held(), held);
      QVERIFY(!held_out.held());
      const auto tw = weightsOf(train), hw = weightsOf(held_out);
      QCOMPARE(weightsOf(train), tw);  // the same on every pass
      for (std::size_t i = 0; i < 3; ++i) {
        sum[i].resize(data[i].weights.size(), 0.0f);
        for (std::size_t k = 0; k < data[i].weights.size(); ++k) {
          // Each sample is in exactly one of the two, with its own weight.
          QVERIFY(tw[i][k] == 0.0f || hw[i][k] == 0.0f);
          QCOMPARE(tw[i][k] + hw[i][k], data[i].weights[k]);
          sum[i][k] += hw[i][k];
          if (hw[i][k] > 0.0f)
            seen.insert(f);
        }
      }
      // Everything else is the base's.
      held_out.forEach([&](const VisibilityChunk& c, std::size_t i) {
        QCOMPARE(c.uvw_m, data[i].uvw_m);
        QVERIFY(c.visibilities == data[i].visibilities);
      });
    }
    // Over the folds, every sample is held out once.
    for (std::size_t i = 0; i < 3; ++i)
      QCOMPARE(sum[i], data[i].weights);
    QCOMPARE(int(seen.size()), 4);
  }

  void badFoldCountsAreRefused() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, UvFolds(1, 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, UvFolds(256, 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, UvFolds(4, 0.0));
  }
};

QTEST_APPLESS_MAIN(TestUvFolds)
#include "test_uv_folds.moc"
