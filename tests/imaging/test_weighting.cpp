// Imaging weights against a brute-force computation written independently of the gridded pass:
// for each sample, the density is the summed data weight of every sample (and every mirrored
// sample) in the same weight cell, cells spanning [k du, (k + 1) du) after folding (u, v) onto the
// upper half plane (as WSClean does).
#include <QtTest>

#include <cmath>
#include <random>

#include "core/imaging/weighting.h"
#include "tests/imaging/dft_reference.h"

using namespace apertura::imaging;
using namespace apertura::imaging::test;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

struct Data {
  ImageGeometry g = ImageGeometry::fromCell(32, 24, 10.0 * kArcsec);
  std::vector<TestBlock> blocks;
  std::vector<std::vector<float>> w;
  std::vector<UvwBlock> views() const {
    std::vector<UvwBlock> v;
    for (const auto& b : blocks)
      v.push_back(b.view());
    return v;
  }
  std::vector<const float*> weightPtrs() const {
    std::vector<const float*> p;
    for (const auto& x : w)
      p.push_back(x.data());
    return p;
  }
};

// A small, clumpy data set: uv in a narrow range so cells are shared, two blocks (one with two
// channels), and a few exact mirror pairs.
Data makeData() {
  Data d;
  std::mt19937 rng(42);
  d.blocks.push_back(randomBlock(rng, d.g, 40, {1.0e9}, 0.3));
  d.blocks.push_back(randomBlock(rng, d.g, 15, {1.0e9, 1.1e9}, 0.3));
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      d.blocks[0].uvw[3 * (10 + i) + k] = -d.blocks[0].uvw[3 * i + k];
  std::uniform_real_distribution<float> u(0.2f, 3.0f);
  for (const auto& b : d.blocks) {
    d.w.emplace_back();
    for (std::size_t s = 0; s < b.samples(); ++s)
      d.w.back().push_back(u(rng));
  }
  return d;
}

struct Flat {
  std::vector<double> u, v, w;
};
Flat flatten(const Data& d) {
  Flat f;
  for (std::size_t b = 0; b < d.blocks.size(); ++b)
    for (std::size_t s = 0; s < d.blocks[b].samples(); ++s) {
      double u, v, w;
      d.blocks[b].position(s, u, v, w);
      f.u.push_back(u);
      f.v.push_back(v);
      f.w.push_back(d.w[b][s]);
    }
  return f;
}

// Density at sample k: all samples j with floor(u_j/du) == floor(u_k/du) (mod grid) once both are
// folded onto v >= 0, so a sample and its mirror image share a cell.
std::vector<double> bruteDensity(const Flat& f, const ImageGeometry& g, double factor) {
  const int nu = int(std::ceil(g.nx / factor)), nv = int(std::ceil(g.ny / factor));
  const double du = factor / (g.nx * std::abs(g.cell_l)), dv = factor / (g.ny * std::abs(g.cell_m));
  auto fold = [](double& u, double& v) {
    if (v < 0.0 || (v == 0.0 && u < 0.0)) {
      u = -u;
      v = -v;
    }
  };
  auto same = [&](double u1, double v1, double u2, double v2) {
    fold(u1, v1);
    fold(u2, v2);
    const long a = long(std::floor(u1 / du)) - long(std::floor(u2 / du));
    const long b = long(std::floor(v1 / dv)) - long(std::floor(v2 / dv));
    return a % nu == 0 && b % nv == 0;
  };
  std::vector<double> dens(f.u.size(), 0.0);
  for (std::size_t k = 0; k < f.u.size(); ++k)
    for (std::size_t j = 0; j < f.u.size(); ++j) {
      if (same(f.u[j], f.v[j], f.u[k], f.v[k]))
        dens[k] += f.w[j];
    }
  return dens;
}

std::vector<float> flatWeights(const std::vector<std::vector<float>>& w) {
  std::vector<float> out;
  for (const auto& b : w)
    out.insert(out.end(), b.begin(), b.end());
  return out;
}

void compare(const std::vector<float>& got, const std::vector<double>& want) {
  QCOMPARE(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k)
    QVERIFY2(std::abs(got[k] - want[k]) <= 1e-5 * std::abs(want[k]) + 1e-12,
             qPrintable(QString("sample %1: %2 vs %3").arg(k).arg(got[k]).arg(want[k])));
}

}  // namespace

class TestWeighting : public QObject {
  Q_OBJECT
 private slots:
  void natural() {
    const Data d = makeData();
    const auto w = flatWeights(imagingWeights(d.views(), d.weightPtrs(), d.g, {}));
    const Flat f = flatten(d);
    compare(w, f.w);
  }
  void uniformAndSuperUniform() {
    const Data d = makeData();
    const Flat f = flatten(d);
    for (double factor : {1.0, 3.0}) {
      WeightingSettings s = WeightingSettings::parse("uniform");
      s.super_uniform = factor;
      const auto w = flatWeights(imagingWeights(d.views(), d.weightPtrs(), d.g, s));
      const auto dens = bruteDensity(f, d.g, factor);
      std::vector<double> want;
      for (std::size_t k = 0; k < f.w.size(); ++k)
        want.push_back(f.w[k] / dens[k]);
      compare(w, want);
    }
    // Clumpy data must actually share cells, or this test proves little.
    const auto dens = bruteDensity(f, d.g, 1.0);
    int shared = 0;
    for (std::size_t k = 0; k < f.w.size(); ++k)
      shared += dens[k] > f.w[k] * 1.0001;
    QVERIFY(shared > 20);
  }
  void briggs_data() {
    QTest::addColumn<double>("robust");
    for (double r : {-2.0, -0.5, 0.0, 0.5, 2.0})
      QTest::newRow(qPrintable(QString::number(r))) << r;
  }
  void briggs() {
    QFETCH(double, robust);
    const Data d = makeData();
    const Flat f = flatten(d);
    const auto w =
        flatWeights(imagingWeights(d.views(), d.weightPtrs(), d.g,
                                   WeightingSettings::parse("briggs:" + std::to_string(robust))));
    const auto dens = bruteDensity(f, d.g, 1.0);
    // sum over cells of D^2 / sum over cells of D == sum_k w_k D_k / sum_k w_k (each sample
    // contributes w_k to the cell whose density is D_k).
    double num = 0, den = 0;
    for (std::size_t k = 0; k < f.w.size(); ++k) {
      num += f.w[k] * dens[k];
      den += f.w[k];
    }
    const double f2 = std::pow(5.0 * std::pow(10.0, -robust), 2) / (num / den);
    std::vector<double> want;
    for (std::size_t k = 0; k < f.w.size(); ++k)
      want.push_back(f.w[k] / (1.0 + dens[k] * f2));
    compare(w, want);
  }
  void radialAndTaper() {
    const Data d = makeData();
    const Flat f = flatten(d);
    auto s = WeightingSettings::parse("radial");
    s.taper_fwhm_arcsec = 30.0;
    const auto w = flatWeights(imagingWeights(d.views(), d.weightPtrs(), d.g, s));
    // An image-plane Gaussian of FWHM theta has the uv transform exp(-pi^2 theta^2 r^2 / (4 ln 2)).
    const double theta = 30.0 * kArcsec;
    std::vector<double> want;
    for (std::size_t k = 0; k < f.w.size(); ++k) {
      const double r2 = f.u[k] * f.u[k] + f.v[k] * f.v[k];
      want.push_back(f.w[k] * std::sqrt(r2) *
                     std::exp(-M_PI * M_PI * theta * theta * r2 / (4 * std::log(2.0))));
    }
    compare(w, want);
    // A uv taper of FWHM F wavelengths halves the weight at r = F / 2.
    auto t = WeightingSettings::parse("natural");
    t.taper_fwhm_lambda = 2.0 * std::sqrt(f.u[0] * f.u[0] + f.v[0] * f.v[0]);
    const auto wt = imagingWeights(d.views(), d.weightPtrs(), d.g, t);
    QVERIFY(std::abs(wt[0][0] / f.w[0] - 0.5) < 1e-5);
  }
  void parseErrors() {
    QCOMPARE(WeightingSettings::parse("briggs:-1.5").robust, -1.5);
    QVERIFY(WeightingSettings::parse("briggs").scheme == WeightingScheme::Briggs);
    QVERIFY_THROWS_EXCEPTION(std::exception, WeightingSettings::parse("briggs:3"));
    QVERIFY_THROWS_EXCEPTION(std::exception, WeightingSettings::parse("briggs:x"));
    QVERIFY_THROWS_EXCEPTION(std::exception, WeightingSettings::parse("briggs0.5"));
    QVERIFY_THROWS_EXCEPTION(std::exception, WeightingSettings::parse("robust"));
  }
};

QTEST_GUILESS_MAIN(TestWeighting)
#include "test_weighting.moc"
