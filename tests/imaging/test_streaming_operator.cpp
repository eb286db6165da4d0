// The gridder's streaming calls (one block at a time, read again every pass) give the same bits
// as the calls on blocks held in memory, and so does the dirty mapper over streamed chunks.
#include <QtTest>

#include <cstring>

#include "core/imaging/dirty_mapper.h"
#include "core/imaging/imaging_operator.h"
#include "core/util/input_error.h"
#include "tests/support/chunk_fixtures.h"

using namespace apertura;
using namespace apertura::imaging;

namespace {

const double kArcsec = M_PI / 180.0 / 3600.0;

std::vector<VisibilityChunk> someChunks(const ImageGeometry& g) {
  std::mt19937 rng(11);
  std::vector<VisibilityChunk> chunks;
  chunks.push_back(test::randomChunk(rng, g, 3000, {1.4e9}));
  chunks.push_back(test::randomChunk(rng, g, 700, {1.0e9, 1.2e9, 1.4e9}));
  chunks.push_back(test::randomChunk(rng, g, 1500, {1.3e9, 1.35e9}));
  return chunks;
}

template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <typename T>
void streamingEqualsHeld() {
  using C = std::complex<T>;
  const ImageGeometry g = ImageGeometry::fromCell(96, 80, 1.0 * kArcsec);
  const auto chunks = someChunks(g);
  OperatorSettings s;
  s.epsilon = std::is_same_v<T, float> ? 1e-4 : 1e-9;
  s.threads = 2;
  auto held = makeCpuOperator<T>(g, s);
  auto streamed = makeCpuOperator<T>(g, s);
  std::vector<UvwBlock> blocks;
  std::vector<std::vector<C>> vis(chunks.size());
  std::vector<const C*> vp;
  std::vector<const float*> wp;
  for (std::size_t b = 0; b < chunks.size(); ++b) {
    blocks.push_back(UvwBlock::of(chunks[b]));
    vis[b].assign(chunks[b].visibilities.begin(), chunks[b].visibilities.end());
    vp.push_back(vis[b].data());
    wp.push_back(chunks[b].weights.data());
  }
  held->setSamples(blocks);

  // Adjoint: grid() against beginGrid/gridBlock/endGrid, with blocks planned one at a time.
  std::vector<C> image_held(g.numPixels()), image_streamed(g.numPixels());
  held->grid(vp, wp, image_held.data());
  streamed->beginGrid();
  for (std::size_t b = 0; b < chunks.size(); ++b) {
    const auto plan = streamed->planBlock(blocks[b]);
    streamed->gridBlock(*plan, vp[b], wp[b]);
  }
  streamed->endGrid(image_streamed.data());
  QVERIFY(sameBits(image_held, image_streamed));
  double peak = 0.0;
  for (const C& v : image_held)
    peak = std::max(peak, double(std::abs(v)));
  QVERIFY(peak > 0.0);

  // Forward: degrid() against prepareDegrid/degridBlock, with plans made together.
  std::vector<std::vector<C>> out_held(chunks.size()), out_streamed(chunks.size());
  std::vector<C*> op;
  for (std::size_t b = 0; b < chunks.size(); ++b) {
    out_held[b].resize(blocks[b].numSamples());
    out_streamed[b].resize(blocks[b].numSamples());
    op.push_back(out_held[b].data());
  }
  held->degrid(image_held.data(), op);
  const auto plans = streamed->planBlocks(blocks);
  streamed->prepareDegrid(image_held.data());
  // The model grid survives gridding into the second grid between degrid calls.
  streamed->beginGrid();
  for (std::size_t b = 0; b < chunks.size(); ++b) {
    streamed->degridBlock(*plans[b], out_streamed[b].data());
    streamed->gridBlock(*plans[b], out_streamed[b].data(), nullptr);
  }
  for (std::size_t b = 0; b < chunks.size(); ++b)
    QVERIFY(sameBits(out_held[b], out_streamed[b]));
}

}  // namespace

class TestStreamingOperator : public QObject {
  Q_OBJECT
 private slots:
  void streamingEqualsHeldFloat() { streamingEqualsHeld<float>(); }
  void streamingEqualsHeldDouble() { streamingEqualsHeld<double>(); }

  void wStackingIsRefused() {
    const ImageGeometry g = ImageGeometry::fromCell(64, 64, 60.0 * kArcsec);
    OperatorSettings s;
    s.w_stacking = true;
    auto op = makeCpuOperator<float>(g, s);
    std::vector<std::complex<float>> image(g.numPixels());
    try {
      op->prepareDegrid(image.data());
      QFAIL("streaming with w-stacking was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("imaging.w_stacking"), e.what());
    }
  }

  void dirtyImageOfStreamedChunksEqualsHeld_data() {
    QTest::addColumn<QString>("weighting");
    QTest::addColumn<double>("epsilon");
    QTest::newRow("natural float") << "natural" << 1e-4;
    QTest::newRow("briggs float") << "briggs:0.5" << 1e-4;
    QTest::newRow("uniform double") << "uniform" << 1e-8;
  }

  void dirtyImageOfStreamedChunksEqualsHeld() {
    QFETCH(QString, weighting);
    QFETCH(double, epsilon);
    DirtyImageSettings s;
    s.geometry = ImageGeometry::fromCell(96, 96, 1.0 * kArcsec);
    s.op.epsilon = epsilon;
    s.weighting = WeightingSettings::parse(weighting.toStdString());
    const auto chunks = someChunks(s.geometry);
    HeldChunks held(chunks);
    test::OnePassChunks streamed(chunks);
    const DirtyImageResult a = makeDirtyImage(held, s);
    const DirtyImageResult b = makeDirtyImage(streamed, s);
    // Streaming reads the data once per pass: density (gridded weighting only), dirty, PSF.
    QCOMPARE(streamed.passes, s.weighting.scheme == WeightingScheme::Natural ? 2 : 3);
    QVERIFY(sameBits(a.dirty, b.dirty));
    QVERIFY(sameBits(a.psf, b.psf));
    QCOMPARE(a.sum_weights, b.sum_weights);
    QCOMPARE(a.samples, b.samples);
    QCOMPARE(a.beam.bmaj, b.beam.bmaj);
    QVERIFY(a.samples > 0);
  }
};

QTEST_APPLESS_MAIN(TestStreamingOperator)
#include "test_streaming_operator.moc"
