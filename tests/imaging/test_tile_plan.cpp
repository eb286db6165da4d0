// The parallel tile planner (counting sort in chunks, branch-free floor/ceil, floor of a quotient
// from a reciprocal) gives bitwise the plan of the plain sequential counting sort with std::floor
// and std::ceil, whatever the number of threads and chunks.
#include <tbb/task_arena.h>

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/imaging/tile_plan.h"

using namespace apertura::imaging;

namespace {

// The planner as it was before it was parallelised: the reference.
int referenceFirstTap(double g, int support, int n, double* y = nullptr) {
  const double wrapped = g - n * std::floor(g / n);
  const double i0d = std::ceil(wrapped - 0.5 * support);
  if (y)
    *y = 2.0 * (i0d - wrapped) + support - 1;
  int i0 = int(i0d);
  if (i0 < 0)
    i0 += n;
  if (i0 >= n)
    i0 -= n;
  return i0;
}

TilePlan referencePlan(const BlockScales& scales, int support, int grid_u, int grid_v,
                       int w_support, int w_groups, bool store_positions) {
  TilePlan plan;
  plan.tiles_u = (grid_u + plan.tile_size - 1) / plan.tile_size;
  plan.tiles_v = (grid_v + plan.tile_size - 1) / plan.tile_size;
  plan.groups = std::max(1, w_groups);
  const std::size_t n = scales.block.numSamples();
  std::vector<std::uint32_t> key(n);
  std::vector<std::uint32_t> count(plan.numTiles() * plan.groups + 1, 0);
  for (std::size_t s = 0; s < n; ++s) {
    double gu, gv, gw;
    scales.coordinates(std::uint32_t(s), gu, gv, gw);
    const int tu = referenceFirstTap(gu, support, grid_u) / plan.tile_size;
    const int tv = referenceFirstTap(gv, support, grid_v) / plan.tile_size;
    int group = 0;
    if (plan.groups > 1) {
      group = int(std::ceil(gw - 0.5 * w_support));
      group = std::min(std::max(group, 0), plan.groups - 1);
    }
    key[s] = std::uint32_t((std::size_t(group) * plan.tiles_v + tv) * plan.tiles_u + tu);
    ++count[key[s] + 1];
  }
  for (std::size_t k = 1; k < count.size(); ++k)
    count[k] += count[k - 1];
  plan.start = count;
  plan.order.resize(n);
  for (std::size_t s = 0; s < n; ++s)
    plan.order[count[key[s]]++] = std::uint32_t(s);
  if (store_positions && plan.groups == 1) {
    plan.positions.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      double gu, gv, gw, yu, yv;
      scales.coordinates(plan.order[k], gu, gv, gw);
      const int iu = referenceFirstTap(gu, support, grid_u, &yu);
      const int iv = referenceFirstTap(gv, support, grid_v, &yv);
      plan.positions[k] = TapPosition{float(yu), float(yv), std::uint16_t(iu % plan.tile_size),
                                      std::uint16_t(iv % plan.tile_size)};
    }
  }
  return plan;
}

// Random uvw filling the grid, with a share of samples put exactly on cell, tile and grid-period
// boundaries (where a wrong floor or ceil would move a sample to the neighbouring tile).
struct Data {
  std::vector<double> uvw, freq;
  BlockScales scales(int grid_u, int grid_v, bool with_w) const {
    BlockScales sc;
    sc.block = UvwBlock{uvw.data(), uvw.size() / 3, freq.data(), freq.size()};
    for (double f : freq) {
      sc.scale_u.push_back(f / 1.4e9 * grid_u / 1000.0);
      sc.scale_v.push_back(f / 1.4e9 * grid_v / 1000.0);
      if (with_w)
        sc.scale_w.push_back(f / 1.4e9 * 0.01);
    }
    sc.w_offset = with_w ? -2.0 : 0.0;
    return sc;
  }
};

Data makeData(std::size_t rows, std::vector<double> freq, unsigned seed) {
  Data d;
  d.freq = std::move(freq);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-600.0, 600.0), w(-300.0, 300.0);
  std::uniform_int_distribution<int> pick(0, 9), cell(-700, 700);
  for (std::size_t r = 0; r < rows; ++r) {
    double uu = u(rng), vv = u(rng);
    if (pick(rng) == 0)
      uu = cell(rng) * 1000.0 / 512;  // on a cell boundary of a 512 grid at 1.4 GHz
    if (pick(rng) == 0)
      vv = (cell(rng) / 32) * 32 * 1000.0 / 512;  // on a tile boundary
    if (pick(rng) == 0)
      uu = (r % 3) * 1000.0;  // on the grid period
    d.uvw.insert(d.uvw.end(), {uu, vv, w(rng)});
  }
  return d;
}

bool samePlan(const TilePlan& a, const TilePlan& b, QString& why) {
  if (a.tiles_u != b.tiles_u || a.tiles_v != b.tiles_v || a.groups != b.groups)
    why = "layout differs";
  else if (a.start != b.start)
    why = "tile offsets differ";
  else if (a.order != b.order)
    why = "sample order differs";
  else if (a.positions.size() != b.positions.size())
    why = "position count differs";
  else {
    for (std::size_t k = 0; k < a.positions.size(); ++k) {
      const TapPosition &p = a.positions[k], &q = b.positions[k];
      if (std::memcmp(&p.yu, &q.yu, sizeof(float)) || std::memcmp(&p.yv, &q.yv, sizeof(float)) ||
          p.iu != q.iu || p.iv != q.iv) {
        why = QString("position %1 differs").arg(k);
        return false;
      }
    }
    return true;
  }
  return false;
}

}  // namespace

class TestTilePlan : public QObject {
  Q_OBJECT

 private slots:
  void fastRoundingMatchesLibm() {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> d(-5000.0, 5000.0);
    std::vector<double> xs = {0.0,
                              -0.0,
                              0.5,
                              -0.5,
                              1.0,
                              -1.0,
                              2.5,
                              -2.5,
                              1e-300,
                              -1e-300,
                              4095.999999999,
                              -4096.0000001,
                              1e17,
                              -1e17,
                              5e18,
                              -5e18,
                              std::numeric_limits<double>::infinity()};
    for (int k = 0; k < 100000; ++k)
      xs.push_back(k % 4 == 0 ? std::round(d(rng)) : d(rng));
    for (double x : xs) {
      // Equal as numbers (a zero result may differ in sign, which no caller can see).
      QVERIFY2(fastFloor(x) == std::floor(x), qPrintable(QString::number(x, 'g', 17)));
      QVERIFY2(fastCeil(x) == std::ceil(x), qPrintable(QString::number(x, 'g', 17)));
    }
    QVERIFY(std::isnan(fastFloor(std::nan(""))));
    // floor(g / n) from the reciprocal, including quotients within an ulp of an integer.
    for (int n : {512, 600, 4096, 3000}) {
      const double inv = 1.0 / n;
      for (int k = -40; k <= 40; ++k) {
        for (double g : {double(k) * n, std::nextafter(double(k) * n, -1e9),
                         std::nextafter(double(k) * n, 1e9), k * n + 0.5, k * 1.37 * n}) {
          QVERIFY2(floorQuotient(g, n, inv) == std::floor(g / n),
                   qPrintable(QString("g %1 n %2").arg(g, 0, 'g', 17).arg(n)));
        }
      }
      for (int k = 0; k < 100000; ++k) {
        const double g = d(rng);
        QCOMPARE(floorQuotient(g, n, inv), std::floor(g / n));
      }
    }
  }

  void planMatchesSequentialReference_data() {
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("support");
    QTest::addColumn<int>("groups");
    QTest::addColumn<bool>("positions");
    QTest::newRow("1 channel, positions") << 1 << 6 << 1 << true;
    QTest::newRow("7 channels, positions") << 7 << 7 << 1 << true;
    QTest::newRow("1 channel, no positions") << 1 << 8 << 1 << false;
    QTest::newRow("3 channels, 5 w groups") << 3 << 6 << 5 << true;
  }
  void planMatchesSequentialReference() {
    QFETCH(int, channels);
    QFETCH(int, support);
    QFETCH(int, groups);
    QFETCH(bool, positions);
    std::vector<double> freq;
    for (int c = 0; c < channels; ++c)
      freq.push_back(1.3e9 + 0.03e9 * c);
    // Enough samples for several chunks per thread (a chunk holds at least 65536).
    const Data data = makeData(std::size_t(600000 / channels) + 13, freq, 17);
    const int grid_u = 512, grid_v = 480;
    const BlockScales sc = data.scales(grid_u, grid_v, groups > 1);
    const TilePlan ref = referencePlan(sc, support, grid_u, grid_v, support, groups, positions);
    QCOMPARE(ref.order.size(), sc.block.numSamples());
    for (int threads : {1, 2, 3}) {
      tbb::task_arena arena(threads);
      TilePlan plan;
      arena.execute(
          [&] { plan = buildTilePlan(sc, support, grid_u, grid_v, support, groups, positions); });
      QString why;
      QVERIFY2(samePlan(plan, ref, why),
               qPrintable(QString("%1 threads: %2").arg(threads).arg(why)));
    }
  }

  void emptyAndTinyBlocks() {
    const Data data = makeData(5, {1.4e9}, 3);
    BlockScales sc = data.scales(64, 64, false);
    const TilePlan ref = referencePlan(sc, 4, 64, 64, 4, 1, true);
    TilePlan plan = buildTilePlan(sc, 4, 64, 64, 4, 1, true);
    QString why;
    QVERIFY2(samePlan(plan, ref, why), qPrintable(why));
    sc.block.num_rows = 0;
    plan = buildTilePlan(sc, 4, 64, 64, 4, 1, true);
    QVERIFY(plan.order.empty());
    QCOMPARE(plan.start.size(), plan.numTiles() + 1);
    QCOMPARE(plan.start.back(), 0u);
  }
};

QTEST_GUILESS_MAIN(TestTilePlan)
#include "test_tile_plan.moc"
