// Model visibilities against independent answers: the analytic phase ramp of point sources,
// a direct numerical Fourier sum over finely sampled Gaussian and disk brightness, and the pixel
// point sources of an image (positions from the SIN-projection definition, not from wcslib).
#include <QtTest>
#include <cmath>
#include <complex>
#include <random>

#include "core/sim/disk_model.h"
#include "core/sim/image_sky.h"
#include "core/sim/predict.h"
#include "core/util/input_error.h"

using namespace apertura;
using namespace apertura::sim;
using cd = std::complex<double>;

namespace {

constexpr double kC = 299792458.0;
constexpr double kArcsec = M_PI / (180.0 * 3600.0);

std::vector<double> randomUvw(std::size_t rows, double max_m, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(-max_m, max_m);
  std::vector<double> uvw(3 * rows);
  for (double& x : uvw)
    x = d(gen);
  return uvw;
}

std::vector<cd> predict(const SkyModel& sky, const std::vector<double>& uvw,
                        const std::vector<double>& freqs) {
  std::vector<cd> out(uvw.size() / 3 * freqs.size());
  predictVisibilities(sky, uvw.data(), uvw.size() / 3, freqs, out.data());
  return out;
}

// Direct Fourier sum of a brightness function (Jy/sr) on a fine grid (w = 0).
template <typename F>
cd directSum(F brightness, double half_width, int n, double u, double v) {
  const double cell = 2.0 * half_width / n;
  cd sum = 0.0;
  for (int j = 0; j < n; ++j) {
    const double m = -half_width + (j + 0.5) * cell;
    for (int i = 0; i < n; ++i) {
      const double l = -half_width + (i + 0.5) * cell;
      sum += brightness(l, m) * std::exp(cd(0.0, -2.0 * M_PI * (u * l + v * m)));
    }
  }
  return sum * cell * cell;
}

}  // namespace

class TestSimPredict : public QObject {
  Q_OBJECT
 private slots:
  void pointAtPhaseCentreIsConstant() {
    SkyModel sky;
    sky.points.push_back({2.5, 0.0, 0.0, 0.0});
    const auto uvw = randomUvw(500, 5000.0, 1);
    const auto v = predict(sky, uvw, {100e9, 230e9});
    for (const cd& x : v) {
      QVERIFY(std::abs(x - cd(2.5, 0.0)) < 1e-12);
    }
  }

  void shiftedPointIsThePhaseRamp() {
    // V = S exp(-2 pi i (u l + v m + w (n - 1))), u v w in wavelengths.
    SkyModel sky;
    const double l = 30.0 * kArcsec, m = -12.0 * kArcsec, s = 0.7;
    sky.points.push_back({s, l, m, 0.0});
    const auto uvw = randomUvw(400, 3000.0, 2);
    const std::vector<double> freqs{90e9, 345e9};
    const auto v = predict(sky, uvw, freqs);
    const double n = std::sqrt(1.0 - l * l - m * m);
    for (std::size_t r = 0; r < uvw.size() / 3; ++r) {
      for (std::size_t c = 0; c < freqs.size(); ++c) {
        const double k = freqs[c] / kC;
        const double phase =
            -2.0 * M_PI * k * (uvw[3 * r] * l + uvw[3 * r + 1] * m + uvw[3 * r + 2] * (n - 1.0));
        const cd expected = s * std::exp(cd(0.0, phase));
        QVERIFY2(std::abs(v[r * 2 + c] - expected) < 1e-9, qPrintable(QString::number(r)));
      }
    }
    // The w-term matters far from the phase centre: a 1-degree offset on a 3 km w.
    SkyModel far;
    const double lf = M_PI / 180.0;
    far.points.push_back({1.0, lf, 0.0, 0.0});
    const std::vector<double> w_only{0.0, 0.0, 3000.0};
    const auto vw = predict(far, w_only, {230e9});
    const double expected_phase =
        -2.0 * M_PI * 230e9 / kC * 3000.0 * (std::sqrt(1.0 - lf * lf) - 1.0);
    QVERIFY(std::abs(vw[0] - std::exp(cd(0.0, expected_phase))) < 1e-9);
    QVERIFY(std::abs(vw[0] - cd(1.0, 0.0)) > 0.1);  // the test would notice a missing w-term
  }

  void spectralIndexScalesFlux() {
    SkyModel sky;
    sky.reference_frequency_hz = 100e9;
    sky.points.push_back({1.0, 0.0, 0.0, -0.7});
    const auto v = predict(sky, {0.0, 0.0, 0.0}, {100e9, 200e9});
    QVERIFY(std::abs(v[0] - 1.0) < 1e-12);
    QVERIFY(std::abs(v[1].real() - std::pow(2.0, -0.7)) < 1e-12);
  }

  void gaussianMatchesDirectFourierSum() {
    GaussianSource g;
    g.flux_jy = 1.3;
    g.major_fwhm = 2.0 * kArcsec;
    g.minor_fwhm = 0.8 * kArcsec;
    g.position_angle = 30.0 * M_PI / 180.0;
    SkyModel sky;
    sky.gaussians.push_back(g);
    const double k = 1.0 / (2.0 * std::sqrt(2.0 * std::log(2.0)));
    const double sa = g.major_fwhm * k, sb = g.minor_fwhm * k;
    auto brightness = [&](double l, double m) {
      // Major axis along (sin PA, cos PA): PA from north through east.
      const double x = l * std::sin(g.position_angle) + m * std::cos(g.position_angle);
      const double y = l * std::cos(g.position_angle) - m * std::sin(g.position_angle);
      return g.flux_jy / (2 * M_PI * sa * sb) *
             std::exp(-0.5 * (x * x / (sa * sa) + y * y / (sb * sb)));
    };
    const double uv[][2] = {{0, 0},         {30000, 0},      {0, 30000},
                            {40000, 69282}, {-50000, 20000}, {80000, -45000}};
    for (const auto& p : uv) {
      const cd expected = directSum(brightness, 5.0 * kArcsec, 300, p[0], p[1]);
      // uvw in metres at a frequency where 1 m = 1 wavelength.
      const auto v = predict(sky, {p[0], p[1], 0.0}, {kC});
      QVERIFY2(std::abs(v[0] - expected) < 1e-6 * g.flux_jy,
               qPrintable(QString("u=%1 v=%2 got %3 want %4")
                              .arg(p[0])
                              .arg(p[1])
                              .arg(v[0].real())
                              .arg(expected.real())));
    }
    // Orientation: along the major axis the visibility falls faster than along the minor axis.
    const double q = 40000.0, pa = g.position_angle;
    const auto along_major = predict(sky, {q * std::sin(pa), q * std::cos(pa), 0.0}, {kC});
    const auto along_minor = predict(sky, {q * std::cos(pa), -q * std::sin(pa), 0.0}, {kC});
    QVERIFY(along_major[0].real() < along_minor[0].real());
  }

  void inclinedDiskMatchesDirectFourierSum() {
    RingDiskSource d;
    d.flux_jy = 0.5;
    d.inner_radius = 0.1 * kArcsec;
    d.gap_inner = 0.8 * kArcsec;
    d.gap_outer = 1.1 * kArcsec;
    d.outer_radius = 2.0 * kArcsec;
    d.gap_depth = 0.1;
    d.power_index = 0.8;
    d.inclination = 50.0 * M_PI / 180.0;
    d.position_angle = 120.0 * M_PI / 180.0;
    d.annuli = 20;
    SkyModel sky;
    sky.disks.push_back(d);
    const DiskProfile profile = makeDiskProfile(d);
    auto brightness = [&](double l, double m) { return diskBrightness(profile, l, m); };
    const double uv[][2] = {{0, 0},         {20000, 0},      {0, 20000},
                            {35000, 35000}, {-60000, 25000}, {90000, 10000}};
    for (const auto& p : uv) {
      const cd expected = directSum(brightness, 2.2 * kArcsec, 1400, p[0], p[1]);
      const auto v = predict(sky, {p[0], p[1], 0.0}, {kC});
      // The sharp annulus edges limit the direct sum's accuracy to ~1e-3 of the flux.
      QVERIFY2(std::abs(v[0] - expected) < 2e-3 * d.flux_jy,
               qPrintable(QString("u=%1 v=%2 got %3 want %4")
                              .arg(p[0])
                              .arg(p[1])
                              .arg(v[0].real())
                              .arg(expected.real())));
    }
    const auto v0 = predict(sky, {0.0, 0.0, 0.0}, {kC});
    QVERIFY(std::abs(v0[0] - d.flux_jy) < 1e-12);
  }

  void imageDftEqualsItsPixelPointSources() {
    FitsImage img;
    img.nx = 16;
    img.ny = 12;
    img.pixels.assign(16 * 12, 0.0);
    img.cell_x_rad = -0.5 * kArcsec;
    img.cell_y_rad = 0.5 * kArcsec;
    img.ref_pixel_x = 8;
    img.ref_pixel_y = 6;
    img.ref_ra_rad = 1.2;
    img.ref_dec_rad = -0.5;
    img.bunit = "Jy/pixel";
    struct Pix {
      int x, y;
      double f;
    };
    const Pix pix[] = {{8, 6, 1.0}, {3, 2, 0.25}, {15, 11, -0.1}, {0, 7, 0.5}};
    for (const auto& p : pix)
      img.pixels[p.y * 16 + p.x] = p.f;
    SkyModel from_image;
    from_image.points = imageToPointSources(img, img.ref_ra_rad, img.ref_dec_rad);
    QCOMPARE(from_image.points.size(), std::size_t(4));
    // SIN projection about the phase centre: (l, m) are the intermediate coordinates exactly.
    SkyModel explicit_points;
    for (const auto& p : pix) {
      explicit_points.points.push_back({p.f, img.cell_x_rad * (p.x - img.ref_pixel_x),
                                        img.cell_y_rad * (p.y - img.ref_pixel_y), 0.0});
    }
    const auto uvw = randomUvw(300, 2000.0, 3);
    const auto a = predict(from_image, uvw, {230e9, 231e9});
    const auto b = predict(explicit_points, uvw, {230e9, 231e9});
    for (std::size_t i = 0; i < a.size(); ++i)
      QVERIFY(std::abs(a[i] - b[i]) < 1e-9);
    img.bunit = "JY/BEAM";
    QVERIFY_EXCEPTION_THROWN(imageToPointSources(img, 1.2, -0.5), InputError);
  }
};

QTEST_GUILESS_MAIN(TestSimPredict)
#include "test_sim_predict.moc"
