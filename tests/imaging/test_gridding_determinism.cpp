// Gridding is bitwise reproducible: tiles are stored colour by colour, so every grid cell sums
// its contributions in one fixed order whatever the number of threads or their scheduling.
#include <QtTest>

#include <cstring>
#include <set>

#include "core/imaging/imaging_operator.h"
#include "core/imaging/tile_colouring.h"
#include "tests/imaging/dft_reference.h"

using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

// Grids the same random visibilities with `threads` threads and returns the image bytes.
template <typename T>
std::vector<std::complex<T>> gridWith(int threads, bool wstack) {
  std::mt19937 rng(3);
  const ImageGeometry g = ImageGeometry::fromCell(200, 160, (wstack ? 60.0 : 1.0) * kArcsec);
  std::vector<TestBlock> blocks;
  blocks.push_back(randomBlock(rng, g, 40000, {1.4e9}, 0.95, wstack ? 40.0 : 0.0));
  blocks.push_back(randomBlock(rng, g, 8000, {1.0e9, 1.2e9, 1.4e9}, 0.95, wstack ? 40.0 : 0.0));
  OperatorSettings s;
  s.epsilon = std::is_same_v<T, float> ? 1e-4 : 1e-9;
  s.w_stacking = wstack;
  s.threads = threads;
  auto op = makeCpuOperator<T>(g, s);
  std::vector<UvwBlock> views;
  for (const auto& b : blocks)
    views.push_back(b.view());
  op->setSamples(views);
  std::vector<std::vector<std::complex<T>>> vis(blocks.size());
  std::vector<std::vector<float>> w(blocks.size());
  std::vector<const std::complex<T>*> vp;
  std::vector<const float*> wp;
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    for (std::size_t k = 0; k < blocks[b].samples(); ++k) {
      vis[b].emplace_back(d(rng), d(rng));
      w[b].push_back(1.5f + d(rng));
    }
    vp.push_back(vis[b].data());
    wp.push_back(w[b].data());
  }
  std::vector<std::complex<T>> image(g.numPixels());
  op->grid(vp, wp, image.data());
  return image;
}

template <typename T>
bool sameBits(const std::vector<std::complex<T>>& a, const std::vector<std::complex<T>>& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(std::complex<T>)) == 0;
}

// The cells a tile writes along one axis, for checking the colouring by brute force.
std::set<int> cellsOf(int tile, int tile_size, int span, int cells) {
  std::set<int> out;
  for (int c = 0; c < span; ++c)
    out.insert((tile * tile_size + c) % cells);
  return out;
}

}  // namespace

class TestGriddingDeterminism : public QObject {
  Q_OBJECT

 private slots:
  void colouringNeverSharesCells_data() {
    QTest::addColumn<int>("cells");
    QTest::addColumn<int>("span");
    QTest::newRow("even tiles") << 256 << 39;
    QTest::newRow("odd tiles") << 224 << 39;
    QTest::newRow("ragged last tile") << 250 << 47;
    QTest::newRow("ragged, tiny last tile") << 225 << 47;
    QTest::newRow("two tiles") << 64 << 40;
    QTest::newRow("one tile, halo wraps onto itself") << 24 << 36;
  }
  void colouringNeverSharesCells() {
    QFETCH(int, cells);
    QFETCH(int, span);
    const int ts = 32, tiles = (cells + ts - 1) / ts;
    const std::vector<int> colour = colourAxis(tiles, ts, span, cells);
    QCOMPARE(int(colour.size()), tiles);
    int max_colour = 0;
    for (int i = 0; i < tiles; ++i) {
      max_colour = std::max(max_colour, colour[i]);
      for (int j = i + 1; j < tiles; ++j) {
        if (colour[i] != colour[j])
          continue;
        std::set<int> both = cellsOf(i, ts, span, cells);
        const std::set<int> cj = cellsOf(j, ts, span, cells);
        const std::size_t before = both.size();
        both.insert(cj.begin(), cj.end());
        QVERIFY2(both.size() == before + cj.size(),
                 qPrintable(QString("tiles %1 and %2 share colour %3 and a cell")
                                .arg(i)
                                .arg(j)
                                .arg(colour[i])));
      }
    }
    // Halo shorter than a tile: two colours for an even number of whole tiles; a third for an odd
    // count, a fourth where a ragged last tile's halo wraps onto the first two tiles.
    if (span - ts < ts && tiles > 1)
      QVERIFY(max_colour <= (cells % ts == 0 && tiles % 2 == 0 ? 1 : 3));
    const TileColouring two_d = colourTiles(tiles, 3, ts, span, cells, 96);
    std::size_t listed = 0;
    for (const auto& c : two_d.tiles)
      listed += c.size();
    QCOMPARE(listed, std::size_t(tiles) * 3);
  }

  void gridIsBitwiseReproducibleFloat() {
    const auto one = gridWith<float>(1, false);
    QVERIFY(sameBits(one, gridWith<float>(2, false)));
    QVERIFY(sameBits(one, gridWith<float>(3, false)));
    QVERIFY(sameBits(gridWith<float>(2, false), gridWith<float>(2, false)));
  }

  void gridIsBitwiseReproducibleDouble() {
    QVERIFY(sameBits(gridWith<double>(1, false), gridWith<double>(3, false)));
  }

  void gridIsBitwiseReproducibleWithWStacking() {
    QVERIFY(sameBits(gridWith<float>(1, true), gridWith<float>(3, true)));
  }
};

QTEST_APPLESS_MAIN(TestGriddingDeterminism)
#include "test_gridding_determinism.moc"
