// The linear-spectrum data term (an MFS model whose two planes are the sky at the band's ends)
// against the plain chunk data term channel by channel on the interpolated images, against
// finite differences, on a flat spectrum, and streamed against held chunks.
#include <QtTest>

#include "core/imaging/imaging_operator.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/rml/linear_spectrum_chi2_term.h"
#include "tests/support/chunk_fixtures.h"
#include "tests/support/relative_difference.h"

using namespace apertura;
using namespace apertura::rml;
using apertura::test::maxRelativeDifference;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;
const SpectrumBand kBand{1.0e9, 1.4e9};

struct Fixture {
  imaging::ImageGeometry g = imaging::ImageGeometry::fromCell(48, 40, 1.0 * kArcsec);
  std::vector<VisibilityChunk> chunks;
  std::vector<double> planes;  // [low, high]

  Fixture() {
    std::mt19937 rng(7);
    // Channels at both ends, inside, and one past the band's high end (t > 1 extrapolates).
    chunks.push_back(test::randomChunk(rng, g, 700, {1.0e9, 1.1e9, 1.4e9}));
    chunks.push_back(test::randomChunk(rng, g, 300, {1.25e9, 1.5e9}));
    std::uniform_real_distribution<double> d(0.0, 1.0);
    for (std::size_t p = 0; p < 2 * g.numPixels(); ++p)
      planes.push_back(d(rng) * 0.01);
  }
  imaging::OperatorSettings settings() const {
    imaging::OperatorSettings s;
    s.epsilon = 1e-10;
    s.threads = 2;
    return s;
  }
};

// Channel `c` of `chunk` as a chunk of its own.
VisibilityChunk channelOf(const VisibilityChunk& chunk, std::size_t c) {
  VisibilityChunk out = chunk;
  const std::size_t channels = chunk.num_channels();
  out.frequencies_hz = {chunk.frequencies_hz[c]};
  out.visibilities.clear();
  out.weights.clear();
  for (std::size_t r = 0; r < chunk.num_rows(); ++r) {
    out.visibilities.push_back(chunk.visibilities[r * channels + c]);
    out.weights.push_back(chunk.weights[r * channels + c]);
  }
  return out;
}

}  // namespace

class TestLinearSpectrumChi2 : public QObject {
  Q_OBJECT
 private slots:
  // chi2 = sum over channels of the flat term on (1 - t) I_low + t I_high, and the gradient
  // planes are that channel's gradient times (1 - t) and t.
  void equalsTheFlatTermChannelByChannel() {
    Fixture f;
    const std::size_t npix = f.g.numPixels();
    auto low = imaging::makeCpuOperator<double>(f.g, f.settings());
    auto high = imaging::makeCpuOperator<double>(f.g, f.settings());
    HeldChunks held(f.chunks);
    auto term = makeLinearSpectrumChi2Term(*low, *high, held, kBand, countDataTotals(held));
    QCOMPARE(term->numPixels(), 2 * npix);
    std::vector<double> gradient(2 * npix, 0.0);
    const double chi2 = term->evaluate(f.planes.data(), gradient.data(), 0.5);

    double expected = 0.0;
    std::vector<double> expected_gradient(2 * npix, 0.0);
    auto flat_op = imaging::makeCpuOperator<double>(f.g, f.settings());
    for (const VisibilityChunk& chunk : f.chunks) {
      for (std::size_t c = 0; c < chunk.num_channels(); ++c) {
        std::vector<VisibilityChunk> one = {channelOf(chunk, c)};
        HeldChunks channel(one);
        auto flat = makeChunkChi2Term(*flat_op, channel);
        const double nu = chunk.frequencies_hz[c];
        const std::vector<double> image = linearSpectrumImage(f.planes.data(), npix, kBand, nu);
        std::vector<double> g(npix, 0.0);
        expected += flat->evaluate(image.data(), g.data(), 0.5);
        const double t = kBand.position(nu);
        for (std::size_t p = 0; p < npix; ++p) {
          expected_gradient[p] += (1.0 - t) * g[p];
          expected_gradient[npix + p] += t * g[p];
        }
      }
    }
    QVERIFY(chi2 > 0.0);
    QVERIFY2(std::abs(chi2 - expected) <= 1e-10 * expected,
             qPrintable(QString("%1 vs %2").arg(chi2).arg(expected)));
    QVERIFY(maxRelativeDifference(expected_gradient, gradient) < 1e-8);

    // The model visibilities the term reports are those of the interpolated images too.
    std::size_t visited = 0;
    term->forEachResidual(f.planes.data(), [&](std::size_t block, const DataTerm::Residual& r,
                                               const DataTerm::Residual& model) {
      const VisibilityChunk& chunk = f.chunks[block];
      QCOMPARE(model.size(), chunk.num_samples());
      for (std::size_t k = 0; k < model.size(); ++k) {
        const std::complex<double> v(chunk.visibilities[k]);
        QVERIFY(std::abs(r[k] - (v - model[k])) <= 1e-12 * (1.0 + std::abs(v)));
      }
      ++visited;
    });
    QCOMPARE(visited, f.chunks.size());
  }

  void gradientMatchesFiniteDifferences() {
    Fixture f;
    auto low = imaging::makeCpuOperator<double>(f.g, f.settings());
    auto high = imaging::makeCpuOperator<double>(f.g, f.settings());
    test::OnePassChunks streamed(f.chunks);
    HeldChunks held(f.chunks);
    auto term = makeLinearSpectrumChi2Term(*low, *high, streamed, kBand, countDataTotals(held));
    std::vector<double> gradient(f.planes.size(), 0.0);
    term->evaluate(f.planes.data(), gradient.data(), 1.0);
    std::vector<double> x = f.planes;
    const std::size_t npix = f.g.numPixels();
    for (std::size_t p : {std::size_t(3), std::size_t(777), npix + 5, npix + 1500}) {
      const double h = 1e-4;
      x[p] = f.planes[p] + h;
      const double up = term->evaluate(x.data(), nullptr, 1.0);
      x[p] = f.planes[p] - h;
      const double down = term->evaluate(x.data(), nullptr, 1.0);
      x[p] = f.planes[p];
      const double fd = (up - down) / (2.0 * h);
      QVERIFY2(std::abs(fd - gradient[p]) <= 1e-6 * std::abs(gradient[p]),
               qPrintable(QString("parameter %1: %2 vs %3").arg(p).arg(fd).arg(gradient[p])));
    }
  }

  // The same sky at both ends is the flat model: the plain term's value, and gradient planes
  // that add up to its gradient.
  void flatSpectrumIsTheFlatTerm() {
    Fixture f;
    const std::size_t npix = f.g.numPixels();
    std::vector<double> planes(f.planes.begin(), f.planes.begin() + std::ptrdiff_t(npix));
    planes.insert(planes.end(), planes.begin(), planes.end());
    auto low = imaging::makeCpuOperator<double>(f.g, f.settings());
    auto high = imaging::makeCpuOperator<double>(f.g, f.settings());
    auto flat_op = imaging::makeCpuOperator<double>(f.g, f.settings());
    HeldChunks held(f.chunks);
    auto term = makeLinearSpectrumChi2Term(*low, *high, held, kBand, countDataTotals(held));
    auto flat = makeChunkChi2Term(*flat_op, held);
    std::vector<double> g2(2 * npix, 0.0), g1(npix, 0.0);
    const double a = term->evaluate(planes.data(), g2.data(), 1.0);
    const double b = flat->evaluate(planes.data(), g1.data(), 1.0);
    QVERIFY(std::abs(a - b) <= 1e-10 * b);
    std::vector<double> sum(npix);
    for (std::size_t p = 0; p < npix; ++p)
      sum[p] = g2[p] + g2[npix + p];
    QVERIFY(maxRelativeDifference(g1, sum) < 1e-8);
  }

  void streamedEqualsHeldBitForBit() {
    Fixture f;
    imaging::OperatorSettings s = f.settings();
    s.epsilon = 1e-4;
    auto l1 = imaging::makeCpuOperator<float>(f.g, s), h1 = imaging::makeCpuOperator<float>(f.g, s);
    auto l2 = imaging::makeCpuOperator<float>(f.g, s), h2 = imaging::makeCpuOperator<float>(f.g, s);
    HeldChunks held(f.chunks);
    test::OnePassChunks streamed(f.chunks);
    auto a = makeLinearSpectrumChi2Term(*l1, *h1, held, kBand, countDataTotals(held));
    auto b = makeLinearSpectrumChi2Term(*l2, *h2, streamed, kBand, countDataTotals(held));
    std::vector<double> g1(f.planes.size(), 0.0), g2(f.planes.size(), 0.0);
    const double v1 = a->evaluate(f.planes.data(), g1.data(), 1.0);
    const double v2 = b->evaluate(f.planes.data(), g2.data(), 1.0);
    QCOMPARE(v1, v2);
    QVERIFY(g1 == g2);
    QCOMPARE(streamed.passes, 1);
  }

  void interpolatesBetweenTheEnds() {
    const std::vector<double> planes = {1.0, 2.0, 3.0, 6.0};  // two pixels: low, then high
    const std::vector<double> mid = linearSpectrumImage(planes.data(), 2, kBand, 1.1e9);
    QCOMPARE(mid.size(), std::size_t(2));
    QVERIFY(std::abs(mid[0] - 1.5) < 1e-12);  // a quarter of the way from 1 to 3
    QVERIFY(std::abs(mid[1] - 3.0) < 1e-12);
    const SpectrumBand one{2e9, 2e9};
    QCOMPARE(one.position(5e9), 0.0);
  }
};

QTEST_GUILESS_MAIN(TestLinearSpectrumChi2)
#include "test_linear_spectrum_chi2.moc"
