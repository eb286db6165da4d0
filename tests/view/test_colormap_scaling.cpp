// Colormaps against their published definitions and the scaling functions against closed forms.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "gui/colormap/colormap.h"
#include "gui/view/image_scaling.h"

using namespace apertura::gui;

namespace {

// Largest channel difference between a table entry and an expected #rrggbb colour.
int channelError(QRgb actual, unsigned expected) {
  const int r = static_cast<int>((expected >> 16) & 0xff);
  const int g = static_cast<int>((expected >> 8) & 0xff);
  const int b = static_cast<int>(expected & 0xff);
  return std::max(
      {std::abs(qRed(actual) - r), std::abs(qGreen(actual) - g), std::abs(qBlue(actual) - b)});
}

// Table colour at t by linear interpolation between the two nearest entries.
QRgb sampleAt(const ColorTable& table, double t) {
  const double position = t * 255.0;
  const auto i = static_cast<std::size_t>(std::floor(position));
  const std::size_t j = std::min<std::size_t>(i + 1, 255);
  const double f = position - static_cast<double>(i);
  const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + f * (b - a))); };
  return qRgb(mix(qRed(table[i]), qRed(table[j])), mix(qGreen(table[i]), qGreen(table[j])),
              mix(qBlue(table[i]), qBlue(table[j])));
}

}  // namespace

class TestColormapScaling : public QObject {
  Q_OBJECT
 private slots:
  void publishedEndpointsAndMidpoints_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("t");
    QTest::addColumn<unsigned>("rgb");
    QTest::addColumn<int>("tolerance");
    const auto add = [](const char* name, ColormapKind kind, double t, unsigned rgb, int tol) {
      QTest::newRow(name) << static_cast<int>(kind) << t << rgb << tol;
    };
    add("viridis 0", ColormapKind::Viridis, 0.0, 0x440154, 0);
    add("viridis 1", ColormapKind::Viridis, 1.0, 0xfde725, 0);
    add("viridis 0.5", ColormapKind::Viridis, 0.5, 0x21908c, 2);
    add("viridis 0.25", ColormapKind::Viridis, 0.25, 0x3b528b, 2);
    add("inferno 0", ColormapKind::Inferno, 0.0, 0x000004, 0);
    add("inferno 0.5", ColormapKind::Inferno, 0.5, 0xbb3754, 2);
    add("inferno 1", ColormapKind::Inferno, 1.0, 0xfcffa4, 0);
    add("magma 0", ColormapKind::Magma, 0.0, 0x000004, 0);
    add("magma 0.5", ColormapKind::Magma, 0.5, 0xb63679, 2);
    add("magma 1", ColormapKind::Magma, 1.0, 0xfcfdbf, 0);
    add("coolwarm 0", ColormapKind::CoolWarm, 0.0, 0x3b4cc0, 0);
    add("coolwarm 0.5", ColormapKind::CoolWarm, 0.5, 0xdddddd, 2);
    add("coolwarm 1", ColormapKind::CoolWarm, 1.0, 0xb40426, 0);
    add("cubehelix 0 black", ColormapKind::Cubehelix, 0.0, 0x000000, 0);
    add("cubehelix 1 white", ColormapKind::Cubehelix, 1.0, 0xffffff, 0);
  }
  void publishedEndpointsAndMidpoints() {
    QFETCH(int, kind);
    QFETCH(double, t);
    QFETCH(unsigned, rgb);
    QFETCH(int, tolerance);
    const ColorTable table = colormapTable(static_cast<ColormapKind>(kind));
    QVERIFY2(channelError(sampleAt(table, t), rgb) <= tolerance,
             qPrintable(
                 QStringLiteral("got #%1").arg(sampleAt(table, t) & 0xffffff, 6, 16, QChar('0'))));
  }

  // Between the anchors the spline must follow the published curves, not wiggle: the values
  // at ninths (anchors) and at an off-anchor published point of viridis (index 192 = #5ec962).
  void viridisOffAnchor() {
    const ColorTable table = colormapTable(ColormapKind::Viridis);
    QVERIFY(channelError(table[192], 0x5ec962) <= 3);
    QVERIFY(channelError(table[64], 0x3b528b) <= 3);
  }

  void grayIsLinear() {
    const ColorTable table = colormapTable(ColormapKind::Gray);
    for (int i = 0; i < 256; ++i)
      QCOMPARE(table[static_cast<std::size_t>(i)], qRgb(i, i, i));
  }

  void invertedReverses() {
    for (ColormapKind kind : allColormaps()) {
      const ColorTable forward = colormapTable(kind, false);
      const ColorTable inverted = colormapTable(kind, true);
      for (std::size_t i = 0; i < 256; ++i)
        QCOMPARE(inverted[i], forward[255 - i]);
    }
  }

  // Green's construction keeps luminance (his 0.30/0.59/0.11 weights) equal to t^gamma; the
  // perceptual maps were designed monotonic in lightness too.
  void luminanceIncreases() {
    const double expected_cubehelix_mid = 128.0 / 255.0;
    const ColorTable cubehelix = colormapTable(ColormapKind::Cubehelix);
    QVERIFY(std::abs(colorLuminance(cubehelix[128]) - expected_cubehelix_mid) < 0.01);
    for (ColormapKind kind : {ColormapKind::Cubehelix, ColormapKind::Viridis, ColormapKind::Inferno,
                              ColormapKind::Magma, ColormapKind::Gray}) {
      const ColorTable table = colormapTable(kind);
      for (std::size_t i = 1; i < 256; ++i) {
        QVERIFY2(colorLuminance(table[i]) >= colorLuminance(table[i - 1]) - 0.004,
                 qPrintable(colormapName(kind) + QString(" at %1").arg(i)));
      }
      QVERIFY(colorLuminance(table[255]) - colorLuminance(table[0]) > 0.7);
    }
  }

  void namesRoundTrip() {
    for (ColormapKind kind : allColormaps())
      QCOMPARE(*colormapFromName(colormapName(kind)), kind);
    QCOMPARE(*colormapFromName(" Viridis "), ColormapKind::Viridis);
    QVERIFY(!colormapFromName("jet").has_value());
  }

  void stretchKnownValues() {
    StretchParameters p;
    QCOMPARE(stretchLevel(0.3, p), 0.3);
    p.kind = StretchKind::Log;  // log10(1000 t + 1) / log10(1001)
    QVERIFY(std::abs(stretchLevel(0.5, p) - 0.8998157) < 1e-6);
    QVERIFY(std::abs(stretchLevel(0.01, p) - 0.3470807) < 1e-6);
    p.kind = StretchKind::Sqrt;
    QCOMPARE(stretchLevel(0.25, p), 0.5);
    p.kind = StretchKind::Asinh;  // asinh(10 t) / asinh(10)
    QVERIFY(std::abs(stretchLevel(0.1, p) - 0.2939653) < 1e-6);
    p.kind = StretchKind::Power;
    p.power_exponent = 2.0;
    QCOMPARE(stretchLevel(0.5, p), 0.25);
    p.power_exponent = 0.5;
    QVERIFY(std::abs(stretchLevel(0.81, p) - 0.9) < 1e-12);
    for (StretchKind kind : {StretchKind::Linear, StretchKind::Log, StretchKind::Sqrt,
                             StretchKind::Asinh, StretchKind::Power}) {
      p.kind = kind;
      QCOMPARE(stretchLevel(0.0, p), 0.0);
      QVERIFY(std::abs(stretchLevel(1.0, p) - 1.0) < 1e-12);
      QCOMPARE(stretchLevel(-3.0, p), 0.0);  // clamped below the clip minimum
      QVERIFY(std::abs(stretchLevel(7.0, p) - 1.0) < 1e-12);
    }
  }

  void percentilesOfKnownDistributions() {
    std::vector<float> ramp(1001);
    for (int i = 0; i <= 1000; ++i)
      ramp[static_cast<std::size_t>(i)] = static_cast<float>(i);
    std::shuffle(ramp.begin(), ramp.end(), std::mt19937(7));
    QCOMPARE(quantile(ramp, 0.5), 500.0);
    QVERIFY(std::abs(quantile(ramp, 0.0025) - 2.5) < 1e-9);
    const ValueRange range = percentileRange(ramp, 99.5);
    QVERIFY(std::abs(range.min - 2.5) < 1e-9);
    QVERIFY(std::abs(range.max - 997.5) < 1e-9);

    // Standard normal: the central 99.5 % lies within +-2.8070 sigma, 99 % within +-2.5758.
    std::mt19937 rng(42);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> noise(1000000);
    for (float& v : noise)
      v = normal(rng);
    std::vector<float> copy = noise;
    const ValueRange r995 = percentileRange(copy, 99.5);
    QVERIFY2(std::abs(r995.max - 2.8070) < 0.03 && std::abs(r995.min + 2.8070) < 0.03,
             qPrintable(QString::number(r995.max)));
    copy = noise;
    const ValueRange r99 = percentileRange(copy, 99.0);
    QVERIFY(std::abs(r99.max - 2.5758) < 0.02 && std::abs(r99.min + 2.5758) < 0.02);
  }

  void subsampleAndRangeSkipBlanks() {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> values = {nan, 3.0f, -2.0f, nan, 8.0f, 1.0f};
    const ValueRange range = finiteRange(values.data(), values.size());
    QCOMPARE(range.min, -2.0);
    QCOMPARE(range.max, 8.0);
    QCOMPARE(finiteSubsample(values.data(), values.size(), 100).size(), std::size_t{4});
    const std::vector<float> big(4096u * 4096u, 1.0f);
    const std::vector<float> sample = finiteSubsample(big.data(), big.size(), 1u << 20);
    QVERIFY(sample.size() <= (1u << 20) && sample.size() > (1u << 19));
  }

  void histogramCountsAreExact() {
    const std::vector<float> values = {0.0f, 0.1f, 0.26f, 0.5f, 0.74f, 0.99f, 1.0f, -0.5f, 2.0f};
    const std::vector<std::size_t> counts = histogramCounts(values.data(), values.size(), 0, 1, 4);
    QCOMPARE(counts, (std::vector<std::size_t>{2, 1, 2, 2}));
  }

  // Equalising an exponential distribution uses every display level about equally often.
  void histogramEqualizationIsUniform() {
    std::mt19937 rng(3);
    std::exponential_distribution<float> exponential(1.0f);
    std::vector<float> values(400000);
    for (float& v : values)
      v = exponential(rng);
    const double lo = 0.0;
    const double hi = 8.0;
    const std::vector<double> curve = equalizationCurve(values.data(), values.size(), lo, hi, 4096);
    QCOMPARE(curve.front(), 0.0);
    QCOMPARE(curve.back(), 1.0);
    std::vector<int> levels(16, 0);
    int used = 0;
    for (float v : values) {
      if (v > hi)
        continue;
      const double level = applyCurve(curve, (v - lo) / (hi - lo));
      ++levels[static_cast<std::size_t>(std::min(15.0, level * 16.0))];
      ++used;
    }
    for (int count : levels)
      QVERIFY2(std::abs(count / double(used) - 1.0 / 16) < 0.004,
               qPrintable(QString::number(count / double(used))));
  }
};

QTEST_GUILESS_MAIN(TestColormapScaling)
#include "test_colormap_scaling.moc"
