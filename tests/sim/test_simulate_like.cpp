// A known sky on a real observation's coverage (`simulate --like`): the copy keeps everything but
// its data, which are the sky's exact visibilities (checked against the analytic point source on
// the copy's own uvw) plus noise whose scatter matches the weights; --snr scales the weights to
// the asked image noise; the input is never touched.
#include <casacore/casa/Arrays/Array.h>
#include <casacore/tables/DataMan/StandardStMan.h>
#include <casacore/tables/Tables/ArrColDesc.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <complex>

#include "core/io/fits_image_io.h"
#include "core/io/ms_data_rewrite.h"
#include "core/io/read_options.h"
#include "core/io/visibility_source_factory.h"
#include "core/sim/like_simulation.h"
#include "core/util/input_error.h"
#include "tests/support/input_error_text.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;
using apertura::testing::inputErrorOf;

namespace {

namespace cc = casacore;

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kCell = 0.1 * kArcsec;
constexpr int kSize = 64, kX = 40, kY = 25;  // the point source's pixel
constexpr double kFlux = 1.5;

// A SIN image centred on the test observation's phase centre (RA 0, dec -0.5 rad).
FitsImage skyImage(double flux) {
  FitsImage im;
  im.nx = im.ny = kSize;
  im.pixels.assign(std::size_t(kSize) * kSize, 0.0);
  im.pixels[std::size_t(kY) * kSize + kX] = flux;
  im.cell_x_rad = -kCell;
  im.cell_y_rad = kCell;
  im.ref_pixel_x = im.ref_pixel_y = kSize / 2;
  im.ref_ra_rad = 0.0;
  im.ref_dec_rad = -0.5;
  im.frequency_hz = 230e9;
  return im;
}

std::vector<cc::Complex> column(const std::string& ms, const char* name) {
  const cc::Table t(ms);
  const cc::Array<cc::Complex> a = cc::ArrayColumn<cc::Complex>(t, name).getColumn();
  return std::vector<cc::Complex>(a.begin(), a.end());
}

template <typename T>
std::vector<T> arrayColumn(const std::string& ms, const char* name) {
  const cc::Table t(ms);
  const cc::Array<T> a = cc::ArrayColumn<T>(t, name).getColumn();
  return std::vector<T>(a.begin(), a.end());
}

std::vector<float> weights(const std::string& ms) {
  return arrayColumn<float>(ms, "WEIGHT");
}

// Visibility of the test image's point source at imaging-convention uvw (metres). In a SIN image
// whose reference point is the phase centre, the direction cosines are the pixel offsets times
// CDELT (RA increases to the left: CDELT1 < 0).
std::complex<double> pointVisibility(const double* uvw, double frequency_hz) {
  const double l = -(kX - kSize / 2) * kCell, m = (kY - kSize / 2) * kCell;
  const double n = std::sqrt(1.0 - l * l - m * m);
  const double k = frequency_hz / 299792458.0;
  const double phase = -2.0 * M_PI * k * (uvw[0] * l + uvw[1] * m + uvw[2] * (n - 1.0));
  return kFlux * std::polar(1.0, phase);
}

}  // namespace

class TestSimulateLike : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    input_ = path("observed.ms");
    sim::SkyModel other;  // the "observed" sky, which must vanish from the copy
    other.reference_frequency_hz = 230e9;
    other.points.push_back({3.0, -1.0 * kArcsec, 0.5 * kArcsec, 0.0});
    testing::simulateAlmaCompactMs(input_, other);
    // A calibrated-looking observation: CORRECTED_DATA beside DATA (different values).
    cc::Table t(input_, cc::Table::Update);
    t.addColumn(cc::ArrayColumnDesc<cc::Complex>("CORRECTED_DATA", "", 2),
                cc::StandardStMan("corrected"));
    cc::ArrayColumn<cc::Complex> data(t, "DATA"), corrected(t, "CORRECTED_DATA");
    for (cc::rownr_t r = 0; r < t.nrow(); ++r)
      corrected.put(r, data(r) * cc::Complex(2.0f, 0.0f));
    t.flush();
    sky_ = path("sky.fits");
    writeFitsImage(sky_, skyImage(kFlux));
    empty_sky_ = path("empty.fits");
    writeFitsImage(empty_sky_, skyImage(0.0));
  }

  void noiselessDataAreTheSkysVisibilities() {
    const std::vector<cc::Complex> observed = column(input_, "DATA");
    sim::LikeSimulationRequest r = request(sky_, "noiseless.ms");
    r.noise = false;
    const sim::LikeSimulationOutcome out = sim::simulateLike(r);
    QCOMPARE(out.total_flux_jy, kFlux);
    QCOMPARE(out.weight_scale, 1.0);
    // The copy's Stokes I, on its own uvw, is the point source's exact visibility.
    ReadOptions o;
    o.selection.data_column = DataColumn::kData;
    auto source = openVisibilitySource(r.output, o);
    VisibilityChunk chunk;
    std::size_t samples = 0;
    double worst = 0.0;
    while (source->next(chunk)) {
      for (std::size_t row = 0; row < chunk.num_rows(); ++row) {
        for (std::size_t c = 0; c < chunk.num_channels(); ++c) {
          const std::complex<double> want =
              pointVisibility(&chunk.uvw_m[3 * row], chunk.frequencies_hz[c]);
          const std::complex<float> got = chunk.visibilities[row * chunk.num_channels() + c];
          worst = std::max(worst, std::abs(std::complex<double>(got) - want));
          ++samples;
        }
      }
    }
    QVERIFY(samples > 1000);
    QVERIFY2(worst < 1e-5 * kFlux, qPrintable(QString::number(worst)));
    // Both hands carry it, CORRECTED_DATA equals DATA, and everything else is the input's.
    const std::vector<cc::Complex> data = column(r.output, "DATA");
    QVERIFY(column(r.output, "CORRECTED_DATA") == data);
    for (std::size_t i = 0; i + 1 < data.size(); i += 2)
      QCOMPARE(data[i], data[i + 1]);  // XX == YY
    QVERIFY(weights(r.output) == weights(input_));
    QVERIFY(arrayColumn<double>(r.output, "UVW") == arrayColumn<double>(input_, "UVW"));
    QVERIFY(arrayColumn<bool>(r.output, "FLAG") == arrayColumn<bool>(input_, "FLAG"));
    QVERIFY(column(input_, "DATA") == observed);  // the input is untouched
  }

  // Pure noise: its scatter is what the weights say, independently per correlation.
  void noiseFollowsTheWeights() {
    const sim::LikeSimulationRequest r = request(empty_sky_, "noise.ms");
    sim::simulateLike(r);
    const std::vector<cc::Complex> data = column(r.output, "DATA");
    const std::vector<float> w = weights(r.output);  // one per correlation, one channel
    QCOMPARE(w.size(), data.size());
    double chi2 = 0.0, cross = 0.0;
    for (std::size_t i = 0; i < data.size(); ++i)
      chi2 += w[i] * std::norm(data[i]);
    for (std::size_t i = 0; i + 1 < data.size(); i += 2)
      cross += std::sqrt(w[i] * w[i + 1]) * (data[i] * std::conj(data[i + 1])).real();
    const double n = double(data.size());
    QVERIFY2(std::abs(chi2 / (2.0 * n) - 1.0) < 0.05, qPrintable(QString::number(chi2 / n)));
    QVERIFY2(std::abs(cross / (n / 2.0)) < 0.05, qPrintable(QString::number(cross / n)));
    // Another seed, other noise; the same seed, the same file contents.
    sim::LikeSimulationRequest again = request(empty_sky_, "noise-again.ms");
    sim::simulateLike(again);
    QVERIFY(column(again.output, "DATA") == data);
    again.output = path("noise-seed2.ms");
    again.seed = 2;
    sim::simulateLike(again);
    QVERIFY(column(again.output, "DATA") != data);
  }

  // --snr: the copy's weights give the asked natural-weighted image noise, and the noise matches
  // those weights.
  void snrScalesTheWeights() {
    sim::LikeSimulationRequest r = request(sky_, "snr.ms");
    r.snr = 50.0;
    const sim::LikeSimulationOutcome out = sim::simulateLike(r);
    const double weight_sum = stokesIWeightSum(r.output);
    QVERIFY2(std::abs(1.0 / std::sqrt(weight_sum) - kFlux / 50.0) < 1e-4 * kFlux / 50.0,
             qPrintable(QString::number(1.0 / std::sqrt(weight_sum))));
    QCOMPARE(out.image_noise_jy, kFlux / 50.0);
    // The noise is that of the field an image is made of (here the only one, 0).
    QCOMPARE(stokesIWeightSum(r.output, 0), weight_sum);
    QCOMPARE(stokesIWeightSum(r.output, 5), 0.0);
    sim::LikeSimulationRequest clean = request(sky_, "snr-clean.ms");
    clean.noise = false;
    sim::simulateLike(clean);
    const std::vector<cc::Complex> noisy = column(r.output, "DATA"),
                                   model = column(clean.output, "DATA");
    const std::vector<float> w = weights(r.output);
    double chi2 = 0.0;
    for (std::size_t i = 0; i < noisy.size(); ++i)
      chi2 += w[i] * std::norm(noisy[i] - model[i]);
    QVERIFY2(std::abs(chi2 / (2.0 * noisy.size()) - 1.0) < 0.05,
             qPrintable(QString::number(chi2 / noisy.size())));
    const std::vector<float> before = weights(input_);
    QVERIFY(std::abs(w[0] / before[0] - out.weight_scale) < 1e-6 * out.weight_scale);
  }

  void refusals() {
    sim::LikeSimulationRequest r = request(sky_, "noiseless.ms");  // exists already
    QVERIFY(inputErrorOf([&] { sim::simulateLike(r); }).contains("already exists"));
    r.output = path("out.uvfits");
    QVERIFY(inputErrorOf([&] { sim::simulateLike(r); }).contains("is a Measurement Set"));
    r = request(empty_sky_, "never.ms");
    r.snr = 10.0;
    QVERIFY(inputErrorOf([&] { sim::simulateLike(r); }).contains("positive total flux"));
    r = request(path("missing.fits"), "never.ms");
    QVERIFY(!inputErrorOf([&] { sim::simulateLike(r); }).isEmpty());
    QVERIFY(!QFile::exists(QString::fromStdString(path("never.ms"))));
  }

 private:
  std::string path(const char* name) const { return dir_.path().toStdString() + "/" + name; }

  sim::LikeSimulationRequest request(const std::string& sky, const char* output) const {
    sim::LikeSimulationRequest r;
    r.like = input_;
    r.image = sky;
    r.output = path(output);
    r.seed = 7;
    return r;
  }

  QTemporaryDir dir_;
  std::string input_, sky_, empty_sky_;
};

QTEST_GUILESS_MAIN(TestSimulateLike)
#include "test_simulate_like.moc"
