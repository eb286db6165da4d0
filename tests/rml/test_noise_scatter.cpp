// The weight scale NoiseScatter estimates from the visibilities' scatter
// (core/data/noise_scatter.h) and the normalised objective's scales (rml/objective_scales.h): known
// noise in, known scale out.
#include <QtTest>

#include <cmath>

#include "core/data/noise_scatter.h"
#include "core/rml/objective_scales.h"
#include "core/util/random.h"

using namespace apertura;

namespace {

// rows x channels of a constant sky (1 + 0.5i Jy) with Gaussian noise sigma per part; the
// weights claim sigma_claimed. 10 baselines, consecutive times.
VisibilityChunk noisyChunk(std::size_t rows, std::size_t channels, double sigma,
                           double sigma_claimed, std::uint64_t seed) {
  VisibilityChunk c;
  c.frequencies_hz.assign(channels, 1e9);
  for (std::size_t r = 0; r < rows; ++r) {
    c.uvw_m.insert(c.uvw_m.end(), {10.0 + double(r), 5.0, 0.0});
    c.antenna1.push_back(int(r % 10));
    c.antenna2.push_back(10);
    c.time_mjd_s.push_back(double(r / 10) * 10.0);
    for (std::size_t k = 0; k < channels; ++k) {
      const NormalPair n = counterNormalPair(seed, r * channels + k);
      c.visibilities.emplace_back(float(1.0 + sigma * n.a), float(0.5 + sigma * n.b));
      c.weights.push_back(float(1.0 / (sigma_claimed * sigma_claimed)));
    }
  }
  return c;
}

}  // namespace

class TestNoiseScatter : public QObject {
  Q_OBJECT
 private slots:
  void absoluteWeightsGiveOne() {
    for (std::size_t channels : {std::size_t(1), std::size_t(64)}) {
      NoiseScatter n;
      n.add(noisyChunk(20000 / channels + 20, channels, 0.3, 0.3, 1));
      QVERIFY2(std::fabs(n.weightScale() - 1.0) < 0.05,
               qPrintable(QString("%1 channels: %2").arg(channels).arg(n.weightScale())));
    }
  }

  void scaledWeightsAreFound() {
    // Weights 10x too large (sigma claimed sqrt(10) too small): the variances are 10x the claim.
    for (std::size_t channels : {std::size_t(1), std::size_t(8)}) {
      NoiseScatter n;
      n.add(noisyChunk(20000 / channels + 20, channels, 0.3, 0.3 / std::sqrt(10.0), 2));
      QVERIFY2(std::fabs(n.weightScale() / 10.0 - 1.0) < 0.05,
               qPrintable(QString("%1 channels: %2").arg(channels).arg(n.weightScale())));
    }
  }

  void aTurningFringeCancels() {
    // One channel, a bright source off the phase centre at high SNR: each baseline's visibility
    // turns by 0.02 to 0.05 rad per integration (2 Jy, noise 0.02 Jy per part). Differences of
    // consecutive integrations see that turn as several times the noise; the triplets cancel it.
    constexpr double kSigma = 0.02, kAmplitude = 2.0;
    VisibilityChunk c;
    c.frequencies_hz.assign(1, 1e9);
    double first_difference_sum = 0.0;
    for (std::size_t r = 0; r < 30000; ++r) {
      const int baseline = int(r % 10);
      const double t = double(r / 10) * 10.0;
      const double turn = (0.02 + 0.003 * baseline) / 10.0;  // rad per second
      c.uvw_m.insert(c.uvw_m.end(), {10.0 + double(baseline), 5.0, 0.0});
      c.antenna1.push_back(baseline);
      c.antenna2.push_back(10);
      c.time_mjd_s.push_back(t);
      const NormalPair n = counterNormalPair(8, r);
      const std::complex<double> v = std::polar(kAmplitude, turn * t);
      c.visibilities.emplace_back(float(v.real() + kSigma * n.a), float(v.imag() + kSigma * n.b));
      c.weights.push_back(float(1.0 / (kSigma * kSigma)));
      first_difference_sum += std::norm(kAmplitude * turn * 10.0);
    }
    // The sky's own change between consecutive integrations, over the noise of a difference:
    // a first-difference estimate would read about 1 + this.
    const double sky_over_noise = first_difference_sum / 30000.0 / (2.0 * 2.0 * kSigma * kSigma);
    QVERIFY2(sky_over_noise > 1.0, qPrintable(QString::number(sky_over_noise)));
    NoiseScatter n;
    n.add(c);
    QVERIFY2(std::fabs(n.weightScale() - 1.0) < 0.05, qPrintable(QString::number(n.weightScale())));
  }

  void duplicatedRowsDoNotHideTheNoise() {
    VisibilityChunk c = noisyChunk(4000, 1, 0.2, 0.2, 3);
    // Every row again, right after itself (same time, same baseline).
    VisibilityChunk twice;
    twice.frequencies_hz = c.frequencies_hz;
    for (std::size_t r = 0; r < c.num_rows(); ++r) {
      for (int copy = 0; copy < 2; ++copy) {
        twice.uvw_m.insert(twice.uvw_m.end(), &c.uvw_m[3 * r], &c.uvw_m[3 * r] + 3);
        twice.antenna1.push_back(c.antenna1[r]);
        twice.antenna2.push_back(c.antenna2[r]);
        twice.time_mjd_s.push_back(c.time_mjd_s[r]);
        twice.visibilities.push_back(c.visibilities[r]);
        twice.weights.push_back(c.weights[r]);
      }
    }
    NoiseScatter n;
    n.add(twice);
    QVERIFY2(std::fabs(n.weightScale() - 1.0) < 0.08, qPrintable(QString::number(n.weightScale())));
    QCOMPARE(n.duplicateFraction(), 0.5);
  }

  void outliersMoveTheMedianLittle() {
    VisibilityChunk c = noisyChunk(20000, 1, 0.3, 0.3, 4);
    for (std::size_t k = 0; k < c.visibilities.size(); k += 10)
      c.visibilities[k] += std::complex<float>(50.0f, 0.0f);  // RFI on 10 % of samples
    NoiseScatter n;
    n.add(c);
    QVERIFY2(n.weightScale() > 0.9 && n.weightScale() < 1.4,
             qPrintable(QString::number(n.weightScale())));
  }

  void tooFewPairsSayNothing() {
    NoiseScatter n;
    n.add(noisyChunk(30, 1, 0.3, 0.03, 5));  // 20 pairs
    QVERIFY(n.pairs() < NoiseScatter::kMinPairs);
    QCOMPARE(n.weightScale(), 1.0);
  }

  void histogramsSumOverProcesses() {
    NoiseScatter a, b, whole;
    const VisibilityChunk c1 = noisyChunk(2000, 1, 0.3, 0.1, 6);
    const VisibilityChunk c2 = noisyChunk(2000, 1, 0.3, 0.1, 7);
    a.add(c1);
    b.add(c2);
    whole.add(c1);
    whole.add(c2);
    // A two-process sum, as an allreduce would give: a's counts plus b's.
    // (one call per array the histogram sums)
    std::vector<std::vector<double>> other;
    b.sumOverProcesses([&](double* v, std::size_t n) { other.emplace_back(v, v + n); });
    std::size_t call = 0;
    a.sumOverProcesses([&](double* v, std::size_t n) {
      for (std::size_t i = 0; i < n; ++i)
        v[i] += other.at(call)[i];
      ++call;
    });
    QCOMPARE(a.pairs(), whole.pairs());
    QCOMPARE(a.weightScale(), whole.weightScale());
    QCOMPARE(a.duplicateFraction(), 0.0);
  }

  void scalesFollowTheirFormulas() {
    // N = 1000 samples, sum of weights 4000, s = 4: sigma = sqrt(4 / 4000).
    const rml::ObjectiveScales s = rml::normalisedScales({1000, 4000.0, 4.0, 20.0});
    QCOMPARE(s.data, 1.0 / (2.0 * 1000 * 4.0));
    QCOMPARE(s.image_noise, std::sqrt(4.0 / 4000.0));
    QCOMPARE(s.term({1, 0.0}), 1.0 / (1000 * s.image_noise));
    QCOMPARE(s.term({1, 0.5}), std::sqrt(20.0) / (1000 * s.image_noise));
    QCOMPARE(s.term({2, 2.0}), 400.0 / (1000 * s.image_noise * s.image_noise));
    // The beam area: pi / (4 ln 2) bmaj bmin / cell^2, never below one pixel.
    QCOMPARE(rml::beamAreaPixels(4e-6, 2e-6, 1e-6), M_PI / (4 * std::log(2.0)) * 8.0);
    QCOMPARE(rml::beamAreaPixels(1e-7, 1e-7, 1e-6), 1.0);
  }
};

QTEST_APPLESS_MAIN(TestNoiseScatter)
#include "test_noise_scatter.moc"
