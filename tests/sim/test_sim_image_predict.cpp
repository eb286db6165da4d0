// Image sky models predicted two ways: the exact DFT (each pixel a point source placed by wcslib)
// and the gridding operator on the image's own grid (image_predictor.h). On asymmetric images,
// with the reference pixel at the centre, off-centre and outside the image, they must agree to
// the operator's accuracy; images the operator cannot take are refused with the reason.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <random>

#include "core/io/visibility_source_factory.h"
#include "core/sim/image_predictor.h"
#include "core/sim/image_sky.h"
#include "core/sim/predict.h"
#include "core/sim/simulation_request.h"
#include "core/sim/sky_spec.h"
#include "core/util/input_error.h"

using namespace apertura;
using namespace apertura::sim;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kRa0 = 1.3, kDec0 = -0.6;

// An asymmetric image: a few hundred scattered pixels plus an off-centre blob (east and north of
// the reference pixel), so any mirror or transpose of l and m changes the visibilities.
FitsImage asymmetricImage(int nx, int ny, double ref_x, double ref_y, unsigned seed) {
  FitsImage img;
  img.nx = nx;
  img.ny = ny;
  img.pixels.assign(std::size_t(nx) * ny, 0.0);
  img.cell_x_rad = -0.04 * kArcsec;
  img.cell_y_rad = 0.04 * kArcsec;
  img.ref_pixel_x = ref_x;
  img.ref_pixel_y = ref_y;
  img.ref_ra_rad = kRa0;
  img.ref_dec_rad = kDec0;
  img.bunit = "JY/PIXEL";
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> px(0, nx - 1), py(0, ny - 1);
  std::uniform_real_distribution<double> flux(0.001, 0.01);
  for (int k = 0; k < 250; ++k)
    img.pixels[std::size_t(py(rng)) * nx + std::size_t(px(rng))] += flux(rng);
  for (int y = ny / 2; y < ny / 2 + 6; ++y)
    for (int x = nx / 5; x < nx / 5 + 9; ++x)
      img.pixels[std::size_t(y) * nx + std::size_t(x)] += 0.05 * (1 + x - nx / 5);
  img.pixels[std::size_t(1) * nx + 2] = std::nan("");  // a blank: skipped on both paths
  return img;
}

// uvw (metres) of a long-baseline array, some beyond the image's Nyquist u (periodic there).
std::vector<double> randomUvw(std::size_t rows, double w_max = 1500.0) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uv(-9000.0, 9000.0), w(-w_max, w_max);
  std::vector<double> out;
  for (std::size_t r = 0; r < rows; ++r) {
    out.push_back(uv(rng));
    out.push_back(uv(rng));
    out.push_back(w(rng));
  }
  return out;
}

// L2 error of the fast path relative to the exact one.
double relativeError(const FitsImage& img, double w_max) {
  const std::vector<double> freqs = {100e9, 100.5e9, 101e9};
  const std::vector<double> uvw = randomUvw(4000, w_max);
  const std::size_t n = uvw.size() / 3 * freqs.size();
  SkyModel exact, fast;
  exact.points = imageToPointSources(img, kRa0, kDec0);
  fast.fast_image = std::make_shared<FastImageModel>(img, kRa0, kDec0);
  std::vector<std::complex<double>> a(n), b(n);
  predictVisibilities(exact, uvw.data(), uvw.size() / 3, freqs, a.data());
  predictVisibilities(fast, uvw.data(), uvw.size() / 3, freqs, b.data());
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    num += std::norm(a[i] - b[i]);
    den += std::norm(a[i]);
  }
  return std::sqrt(num / den);
}

}  // namespace

class TestSimImagePredict : public QObject {
  Q_OBJECT
 private slots:
  void fastAgreesWithExact_data() {
    QTest::addColumn<int>("nx");
    QTest::addColumn<int>("ny");
    QTest::addColumn<double>("ref_x");
    QTest::addColumn<double>("ref_y");
    QTest::addColumn<double>("w_max");  // metres; 0: the operator without w-stacking is used
    QTest::newRow("centred") << 64 << 64 << 32.0 << 32.0 << 1500.0;
    QTest::newRow("centred, w = 0") << 64 << 64 << 32.0 << 32.0 << 0.0;
    QTest::newRow("odd size, centred") << 63 << 41 << 31.0 << 20.0 << 1500.0;
    QTest::newRow("off-centre reference pixel") << 48 << 40 << 9.0 << 31.0 << 1500.0;
    QTest::newRow("reference pixel outside") << 30 << 30 << -6.0 << 40.0 << 1500.0;
  }
  void fastAgreesWithExact() {
    QFETCH(int, nx);
    QFETCH(int, ny);
    QFETCH(double, ref_x);
    QFETCH(double, ref_y);
    QFETCH(double, w_max);
    const FitsImage img = asymmetricImage(nx, ny, ref_x, ref_y, 5);
    const FastImageModel model(img, kRa0, kDec0);
    QVERIFY(model.nonZeroPixels() > 200);
    const double err = relativeError(img, w_max);
    qInfo("fast vs exact: relative L2 error %.3g over %zu pixels", err, model.nonZeroPixels());
    QVERIFY2(err < 1e-6, qPrintable(QString("relative L2 error %1").arg(err)));
  }

  // A mirrored image must NOT agree: guards against a test that could not see orientation.
  void orientationMatters() {
    FitsImage img = asymmetricImage(64, 64, 32.0, 32.0, 5);
    FitsImage mirrored = img;
    for (int y = 0; y < 64; ++y)
      for (int x = 0; x < 64; ++x)
        mirrored.pixels[std::size_t(y) * 64 + x] = img.at(63 - x, y);
    const std::vector<double> uvw = randomUvw(500), freqs = {100e9};
    SkyModel exact, fast;
    exact.points = imageToPointSources(img, kRa0, kDec0);
    fast.fast_image = std::make_shared<FastImageModel>(mirrored, kRa0, kDec0);
    std::vector<std::complex<double>> a(500), b(500);
    predictVisibilities(exact, uvw.data(), 500, freqs, a.data());
    predictVisibilities(fast, uvw.data(), 500, freqs, b.data());
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < 500; ++i) {
      num += std::norm(a[i] - b[i]);
      den += std::norm(a[i]);
    }
    QVERIFY(std::sqrt(num / den) > 0.1);
  }

  void refusesImagesOffTheOperatorGrid() {
    FitsImage shifted = asymmetricImage(32, 32, 16.0, 16.0, 1);
    shifted.ref_ra_rad += 0.5 * kArcsec;
    QVERIFY(FastImageModel::unsupportedReason(shifted, kRa0, kDec0).find("phase centre") !=
            std::string::npos);
    QVERIFY_THROWS_EXCEPTION(InputError, FastImageModel(shifted, kRa0, kDec0));
    FitsImage tan = asymmetricImage(32, 32, 16.0, 16.0, 1);
    tan.projection = "TAN";
    QVERIFY(FastImageModel::unsupportedReason(tan, kRa0, kDec0).find("TAN") != std::string::npos);
    FitsImage half = asymmetricImage(32, 32, 15.5, 16.0, 1);
    QVERIFY(FastImageModel::unsupportedReason(half, kRa0, kDec0).find("whole pixel") !=
            std::string::npos);
    FitsImage beam = asymmetricImage(32, 32, 16.0, 16.0, 1);
    beam.bunit = "JY/BEAM";
    QVERIFY_THROWS_EXCEPTION(InputError, FastImageModel(beam, kRa0, kDec0));
    QVERIFY(FastImageModel::unsupportedReason(asymmetricImage(32, 32, 16.0, 16.0, 1), kRa0, kDec0)
                .empty());
  }

  // Through the whole simulation: --predict fast and exact write the same visibilities (to the
  // files' single precision); fast is refused with the reason for an image it cannot take, and
  // auto falls back to exact for it.
  void simulationPaths() {
    QTemporaryDir dir;
    const std::string fits = dir.filePath("sky.fits").toStdString();
    SimulationRequest r;
    r.ra = "04:57:53.5";
    r.dec = "-34:22:39.1";
    FitsImage img = asymmetricImage(64, 64, 32.0, 32.0, 9);
    img.ref_ra_rad = parseRightAscension(r.ra);
    img.ref_dec_rad = parseDeclination(r.dec);
    writeFitsImage(fits, img, FitsPixelType::Float64);
    r.sky_fits = fits;
    r.array = "random:3000:8:12";
    r.hours = 1.0;
    r.integration_s = 300.0;
    r.freq_hz = 100e9;
    std::vector<std::vector<std::complex<float>>> vis;
    for (const char* mode : {"exact", "fast"}) {
      r.predict = mode;
      r.output = dir.filePath(QString("sim-%1.uvfits").arg(mode)).toStdString();
      const SimulationOutcome out = runSimulation(r);
      QVERIFY2(
          out.image_prediction.find(mode == std::string("fast") ? "gridding operator"
                                                                : "exact DFT") != std::string::npos,
          out.image_prediction.c_str());
      ReadOptions options;
      auto source = openVisibilitySource(r.output, options);
      VisibilityChunk chunk;
      vis.emplace_back();
      while (source->next(chunk))
        vis.back().insert(vis.back().end(), chunk.visibilities.begin(), chunk.visibilities.end());
    }
    QCOMPARE(vis[0].size(), vis[1].size());
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < vis[0].size(); ++i) {
      num += std::norm(std::complex<double>(vis[0][i] - vis[1][i]));
      den += std::norm(std::complex<double>(vis[0][i]));
    }
    QVERIFY(den > 0.0);
    QVERIFY2(std::sqrt(num / den) < 1e-6, qPrintable(QString::number(std::sqrt(num / den))));

    r.ra = "04:57:53.6";  // phase centre away from CRVAL
    r.predict = "fast";
    r.output = dir.filePath("refused.ms").toStdString();
    try {
      runSimulation(r);
      QFAIL("--predict fast accepted an image away from the phase centre");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("--predict fast: the image's reference point"), e.what());
    }
    r.predict = "auto";
    QVERIFY(runSimulation(r).image_prediction.find("exact DFT") == 0);
  }
};

QTEST_GUILESS_MAIN(TestSimImagePredict)
#include "test_sim_image_predict.moc"
