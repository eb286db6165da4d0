// The chunk-by-chunk data term (held or streamed chunks through the gridder's streaming calls)
// against the block data term on the same operator, against finite differences, and held
// against streamed bit for bit.
#include <QtTest>

#include <cstring>

#include "core/imaging/imaging_operator.h"
#include "core/rml/chi2_term.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/rml/imaging_operator_adapter.h"
#include "core/util/input_error.h"
#include "tests/support/chunk_fixtures.h"

using namespace apertura;
using namespace apertura::rml;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

struct Fixture {
  imaging::ImageGeometry g = imaging::ImageGeometry::fromCell(48, 40, 1.0 * kArcsec);
  std::vector<VisibilityChunk> chunks;
  std::vector<double> image;

  Fixture() {
    std::mt19937 rng(5);
    chunks.push_back(test::randomChunk(rng, g, 900, {1.4e9}));
    chunks.push_back(test::randomChunk(rng, g, 300, {1.0e9, 1.2e9}));
    std::uniform_real_distribution<double> d(0.0, 1.0);
    for (std::size_t p = 0; p < g.numPixels(); ++p)
      image.push_back(d(rng) * 0.01);
  }
  imaging::OperatorSettings settings(double epsilon) const {
    imaging::OperatorSettings s;
    s.epsilon = epsilon;
    s.threads = 2;
    return s;
  }
};

double evaluate(DataTerm& term, const std::vector<double>& image, std::vector<double>& gradient) {
  gradient.assign(image.size(), 0.0);
  return term.evaluate(image.data(), gradient.data(), 1.0);
}

double maxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(a[i]));
  }
  return diff / scale;
}

}  // namespace

class TestChunkChi2 : public QObject {
  Q_OBJECT
 private slots:
  void equalsTheBlockDataTerm() {
    Fixture f;
    auto op = imaging::makeCpuOperator<double>(f.g, f.settings(1e-10));
    HeldChunks held(f.chunks);
    auto chunked = makeChunkChi2Term(*op, held);

    auto block_op = imaging::makeCpuOperator<double>(f.g, f.settings(1e-10));
    std::vector<imaging::UvwBlock> blocks;
    std::vector<VisibilityBlock> measured;
    for (const auto& c : f.chunks) {
      blocks.push_back(imaging::UvwBlock::of(c));
      measured.push_back(VisibilityBlock::of(c));
    }
    block_op->setSamples(blocks);
    Chi2Term reference(std::make_shared<ImagingOperatorAdapter<double>>(*block_op, blocks),
                       measured);

    std::vector<double> g1, g2;
    const double a = evaluate(*chunked, f.image, g1);
    const double b = evaluate(reference, f.image, g2);
    QVERIFY(a > 0.0);
    QVERIFY2(std::abs(a - b) <= 1e-12 * b, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
    QVERIFY(maxRelativeDifference(g2, g1) < 1e-10);
    QCOMPARE(chunked->numSamples(), reference.numSamples());
    QVERIFY(std::abs(chunked->sumWeights() - reference.sumWeights()) <= 1e-9);
    const auto times = chunked->takeStageTimes();
    QVERIFY(!times.empty());
  }

  void gradientMatchesFiniteDifferences() {
    Fixture f;
    auto op = imaging::makeCpuOperator<double>(f.g, f.settings(1e-10));
    test::OnePassChunks streamed(f.chunks);
    auto term = makeChunkChi2Term(*op, streamed);
    std::vector<double> gradient;
    evaluate(*term, f.image, gradient);
    std::vector<double> x = f.image;
    for (std::size_t p : {std::size_t(0), std::size_t(777), std::size_t(1919)}) {
      const double h = 1e-4;
      x[p] = f.image[p] + h;
      const double up = term->evaluate(x.data(), nullptr, 1.0);
      x[p] = f.image[p] - h;
      const double down = term->evaluate(x.data(), nullptr, 1.0);
      x[p] = f.image[p];
      const double fd = (up - down) / (2.0 * h);
      QVERIFY2(std::abs(fd - gradient[p]) <= 1e-6 * std::abs(gradient[p]),
               qPrintable(QString("pixel %1: %2 vs %3").arg(p).arg(fd).arg(gradient[p])));
    }
  }

  void streamedEqualsHeldBitForBit() {
    Fixture f;
    auto op_held = imaging::makeCpuOperator<float>(f.g, f.settings(1e-4));
    auto op_streamed = imaging::makeCpuOperator<float>(f.g, f.settings(1e-4));
    HeldChunks held(f.chunks);
    test::OnePassChunks streamed(f.chunks);
    auto a = makeChunkChi2Term(*op_held, held);
    auto b = makeChunkChi2Term(*op_streamed, streamed, countDataTotals(held));
    std::vector<double> g1, g2;
    QCOMPARE(evaluate(*a, f.image, g1), evaluate(*b, f.image, g2));
    QVERIFY(std::memcmp(g1.data(), g2.data(), g1.size() * sizeof(double)) == 0);
    QCOMPARE(streamed.passes, 1);  // one pass per evaluation, none to count (totals given)
    // The streamed term reports the time it waited for data.
    bool read = false;
    for (const auto& t : b->takeStageTimes())
      read = read || t.stage == "read";
    QVERIFY(read);
  }

  void residualsAndModelAddUpToTheData() {
    Fixture f;
    auto op = imaging::makeCpuOperator<double>(f.g, f.settings(1e-10));
    test::OnePassChunks streamed(f.chunks);
    auto term = makeChunkChi2Term(*op, streamed);
    std::size_t visited = 0;
    double model_power = 0.0;
    term->forEachResidual(f.image.data(), [&](std::size_t b, const DataTerm::Residual& r,
                                              const DataTerm::Residual& model) {
      QCOMPARE(r.size(), f.chunks[b].num_samples());
      for (std::size_t k = 0; k < r.size(); ++k) {
        const std::complex<double> v = f.chunks[b].visibilities[k];
        QVERIFY(std::abs(r[k] + model[k] - v) < 1e-12);
        model_power += std::norm(model[k]);
      }
      ++visited;
    });
    QCOMPARE(visited, f.chunks.size());
    QVERIFY(model_power > 0.0);
  }

  void negativeWeightIsAnInputError() {
    Fixture f;
    f.chunks[1].weights[5] = -1.0f;
    HeldChunks held(f.chunks);
    QVERIFY_THROWS_EXCEPTION(InputError, countDataTotals(held));
  }
};

QTEST_APPLESS_MAIN(TestChunkChi2)
#include "test_chunk_chi2.moc"
