// `simulate --like` on a UVFITS file: the copy keeps the header, the random parameters and every
// table byte for byte and only the data change: parallel hands (and Stokes I) hold the sky's
// visibilities for the group's field, cross hands zero, weights kept (or scaled for --snr),
// flagged samples flagged; on real VLBA data the reader then returns the analytic point source
// on the copy's own uvw, with noise whose scatter matches the weights. The input is untouched.
#include <fitsio.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <complex>
#include <fstream>
#include <iterator>

#include "core/io/fits_image_io.h"
#include "core/io/read_options.h"
#include "core/io/uvfits_data_rewrite.h"
#include "core/io/visibility_source_factory.h"
#include "core/sim/like_simulation.h"
#include "tests/io/uvfits_fixture.h"
#include "tests/support/input_error_text.h"
#include "tests/support/shared_data.h"

using namespace apertura;
using apertura::testing::inputErrorOf;
using apertura::testing::UvfitsFixture;

namespace {

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A file's bytes with the primary data unit cut out, and that unit's random parameters and data
// (as doubles, scaling applied), read with cfitsio on its own terms.
struct Groups {
  std::string outside_data;  // the primary header and every extension
  std::vector<std::vector<double>> params, data;
};

Groups groupsOf(const std::string& path) {
  fitsfile* f = nullptr;
  int status = 0;
  fits_open_diskfile(&f, path.c_str(), READONLY, &status);
  LONGLONG head = 0, start = 0, end = 0;
  fits_get_hduaddrll(f, &head, &start, &end, &status);
  long pcount = 0, gcount = 0;
  fits_read_key_lng(f, "PCOUNT", &pcount, nullptr, &status);
  fits_read_key_lng(f, "GCOUNT", &gcount, nullptr, &status);
  const long elements =
      3L * UvfitsFixture::kStokes * UvfitsFixture::kChannels * UvfitsFixture::kIfs;
  Groups g;
  for (long i = 1; i <= gcount; ++i) {
    std::vector<double> p(static_cast<std::size_t>(pcount)), d(static_cast<std::size_t>(elements));
    int anynul = 0;
    fits_read_grppar_dbl(f, i, 1, pcount, p.data(), &status);
    fits_read_img_dbl(f, i, 1, elements, 0.0, d.data(), &anynul, &status);
    g.params.push_back(p);
    g.data.push_back(d);
  }
  fits_close_file(f, &status);
  if (status != 0)
    qFatal("cfitsio status %d reading %s", status, path.c_str());
  const std::string all = bytesOf(path);
  g.outside_data = all.substr(0, std::size_t(start)) + all.substr(std::size_t(end));
  return g;
}

// The fixture's data order: IF, channel, Stokes, then (re, im, weight).
std::size_t at(int i, int c, int k, int part) {
  const int index = ((i * UvfitsFixture::kChannels + c) * UvfitsFixture::kStokes + k) * 3 + part;
  return static_cast<std::size_t>(index);
}

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kCell = 0.2e-3 * kArcsec;  // 0.2 mas: VLBA at 8 GHz resolves about 1 mas
constexpr int kSize = 64, kX = 40, kY = 25;
constexpr double kFlux = 2.0;

}  // namespace

class TestSimulateLikeUvfits : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

  // A Jy/pixel SIN image holding one point at (kX, kY), its reference point on (ra, dec).
  std::string pointImage(double ra_rad, double dec_rad, double flux) const {
    FitsImage im;
    im.nx = im.ny = kSize;
    im.pixels.assign(std::size_t(kSize) * kSize, 0.0);
    im.pixels[std::size_t(kY) * kSize + kX] = flux;
    im.cell_x_rad = -kCell;
    im.cell_y_rad = kCell;
    im.ref_pixel_x = im.ref_pixel_y = kSize / 2;
    im.ref_ra_rad = ra_rad;
    im.ref_dec_rad = dec_rad;
    im.frequency_hz = 8e9;
    std::string p = path(flux > 0 ? "point.fits" : "empty.fits");
    writeFitsImage(p, im);
    return p;
  }

  static std::complex<double> pointVisibility(const double* uvw, double frequency_hz) {
    const double l = -(kX - kSize / 2) * kCell, m = (kY - kSize / 2) * kCell;
    const double n = std::sqrt(1.0 - l * l - m * m);
    const double k = frequency_hz / 299792458.0;
    return kFlux * std::polar(1.0, -2.0 * M_PI * k * (uvw[0] * l + uvw[1] * m + uvw[2] * (n - 1)));
  }

  // Every unflagged Stokes I sample the reader gives from `path`: its value, its weight and the
  // test point source's exact visibility on its own uvw and frequency.
  template <typename Visit>
  static void forEachSample(const std::string& path, Visit visit) {
    auto source = openVisibilitySource(path, ReadOptions{});
    VisibilityChunk chunk;
    while (source->next(chunk)) {
      const std::size_t nchan = chunk.frequencies_hz.size();
      for (std::size_t row = 0; row < chunk.num_rows(); ++row) {
        for (std::size_t c = 0; c < nchan; ++c) {
          const std::size_t i = row * nchan + c;
          if (chunk.weights[i] > 0.0f)
            visit(std::complex<double>(chunk.visibilities[i]), double(chunk.weights[i]),
                  pointVisibility(&chunk.uvw_m[3 * row], chunk.frequencies_hz[c]));
        }
      }
    }
  }

  std::string mojave() const {
    const QString data = testing::sharedDataDir();
    const QString file = data + "/vlba_mojave/mojave.uvfits";
    return data.isEmpty() || !QFile::exists(file) ? std::string() : file.toStdString();
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // Exact, on a file of known content: each group gets its own field's sky at its own uvw and
  // frequencies; nothing else in the file changes.
  void groupsGetTheirFieldsSkyAndNothingElseChanges() {
    UvfitsFixture::Options o;
    o.multi_source = true;
    const std::string input = UvfitsFixture::write(path("known.uvfits"), o);
    const std::string before = bytesOf(input);
    DataRewriteRequest r;
    r.input_path = input;
    r.output_path = path("known-sim.uvfits");
    r.noise = false;
    std::vector<int> fields_seen;
    r.sky = [&](int field, const std::vector<double>& freqs, const double* uvw, std::size_t rows,
                std::complex<double>* out) {
      fields_seen.push_back(field);
      for (std::size_t j = 0; j < rows; ++j)
        for (std::size_t c = 0; c < freqs.size(); ++c)
          out[j * freqs.size() + c] = {10.0 * (field + 1) + freqs[c] * 1e-9, uvw[3 * j]};
    };
    const DataRewriteSummary s = rewriteUvfitsData(r);
    QCOMPARE(s.rows, std::uint64_t(UvfitsFixture::kGroups));
    QCOMPARE(s.samples, std::uint64_t(UvfitsFixture::kGroups * UvfitsFixture::kIfs *
                                      UvfitsFixture::kChannels));
    QCOMPARE(fields_seen.size(), std::size_t(2 * UvfitsFixture::kIfs));  // 2 fields x 2 IFs
    QCOMPARE(bytesOf(input), before);

    const Groups in = groupsOf(input), out = groupsOf(r.output_path);
    QCOMPARE(out.outside_data, in.outside_data);
    QCOMPARE(out.params, in.params);
    int flagged = 0;
    for (int g = 0; g < UvfitsFixture::kGroups; ++g) {
      // The SU table lists ID 7 first: groups 3-5 (ID 7) are field 0, groups 0-2 (ID 3) field 1.
      const int field = UvfitsFixture::sourceId(g, o) == 7 ? 0 : 1;
      const double u = UvfitsFixture::uMetres(g);
      for (int i = 0; i < UvfitsFixture::kIfs; ++i) {
        for (int c = 0; c < UvfitsFixture::kChannels; ++c) {
          const double re = 10.0 * (field + 1) + UvfitsFixture::frequencyHz(i, c) * 1e-9;
          for (int k = 0; k < UvfitsFixture::kStokes; ++k) {
            const bool parallel = k < 2;  // RR LL RL LR
            const auto& d = out.data[std::size_t(g)];
            QVERIFY(std::abs(d[at(i, c, k, 0)] - (parallel ? re : 0.0)) < 1e-5 * re);
            // Imaging-convention u is minus the file's; float data keep 7 digits.
            QVERIFY(std::abs(d[at(i, c, k, 1)] - (parallel ? -u : 0.0)) < 1e-6 * (1 + std::abs(u)));
            QCOMPARE(d[at(i, c, k, 2)], in.data[std::size_t(g)][at(i, c, k, 2)]);
            flagged += d[at(i, c, k, 2)] <= 0.0 ? 1 : 0;
          }
        }
      }
    }
    QVERIFY(flagged > 0);  // the fixture's flagged LL sample is still flagged
  }

  void weightScaleScalesTheWeightsOnly() {
    const std::string input = UvfitsFixture::write(path("scaled.uvfits"));
    DataRewriteRequest r;
    r.input_path = input;
    r.output_path = path("scaled-sim.uvfits");
    r.noise = false;
    r.weight_scale = 4.0;
    r.sky = [](int, const std::vector<double>& freqs, const double*, std::size_t rows,
               std::complex<double>* out) {
      std::fill(out, out + rows * freqs.size(), std::complex<double>(1.0, 0.0));
    };
    rewriteUvfitsData(r);
    const Groups in = groupsOf(input), out = groupsOf(r.output_path);
    for (std::size_t g = 0; g < in.data.size(); ++g)
      for (std::size_t e = 2; e < in.data[g].size(); e += 3)
        QCOMPARE(out.data[g][e], 4.0 * in.data[g][e]);  // flagged (negative) ones stay negative
    QCOMPARE(uvfitsStokesIWeightSum(r.output_path), 4.0 * uvfitsStokesIWeightSum(input));
  }

  // End to end on real VLBA coverage: what the reader returns from the copy is the point source
  // on the copy's own uvw (no noise), or that plus noise of the weights' scatter.
  void realVlbaCoverageThroughTheReader() {
    const std::string like = mojave();
    if (like.empty())
      QSKIP("../shared/data/vlba_mojave is absent");
    const UvfitsObservation observation = readUvfitsObservation(like);
    const std::vector<FieldInfo>& fields = observation.fields;
    QCOMPARE(observation.first_field, 0);
    QCOMPARE(observation.weight_sum, uvfitsStokesIWeightSum(like, 0));
    sim::LikeSimulationRequest r;
    r.like = like;
    r.image = pointImage(fields[0].ra_rad, fields[0].dec_rad, kFlux);
    r.output = path("mojave-sim.uvfits");
    r.noise = false;
    const sim::LikeSimulationOutcome out = sim::simulateLike(r);
    QCOMPARE(out.rows, std::uint64_t(3150));
    QCOMPARE(out.total_flux_jy, kFlux);

    std::size_t samples = 0;
    double worst = 0.0;
    forEachSample(r.output, [&](std::complex<double> v, double, std::complex<double> expected) {
      worst = std::max(worst, std::abs(v - expected));
      ++samples;
    });
    QVERIFY(samples > 1000);
    QVERIFY2(worst < 1e-5 * kFlux, qPrintable(QString::number(worst)));

    // With noise from the weights scaled for SNR 100: the data scatter as the weights say.
    r.noise = true;
    r.snr = 100.0;
    r.output = path("mojave-noisy.uvfits");
    const sim::LikeSimulationOutcome noisy = sim::simulateLike(r);
    QCOMPARE(noisy.image_noise_jy, kFlux / 100.0);
    QVERIFY(std::abs(1.0 / std::sqrt(uvfitsStokesIWeightSum(r.output, 0)) - kFlux / 100.0) <
            1e-4 * kFlux / 100.0);
    double chi2 = 0.0;
    std::size_t n = 0;
    forEachSample(r.output, [&](std::complex<double> v, double w, std::complex<double> expected) {
      chi2 += w * std::norm(v - expected);
      ++n;
    });
    // Stokes I = (RR + LL) / 2 with weight 4 / (1/w_RR + 1/w_LL): chi2 / 2n is 1 at the weights.
    QVERIFY2(std::abs(chi2 / (2.0 * double(n)) - 1.0) < 0.05,
             qPrintable(QString::number(chi2 / (2.0 * double(n)))));
  }

  void refusals() {
    const std::string input = UvfitsFixture::write(path("refuse.uvfits"));
    sim::LikeSimulationRequest r;
    r.like = input;
    r.image =
        pointImage(UvfitsFixture::kRaDeg * M_PI / 180, UvfitsFixture::kDecDeg * M_PI / 180, kFlux);
    r.output = path("copy.ms");
    QVERIFY(inputErrorOf([&] { sim::simulateLike(r); }).contains("is a UVFITS file"));
    QVERIFY(!QFile::exists(QString::fromStdString(r.output)));

    UvfitsFixture::Options o;
    o.integer_data = true;
    r.like = UvfitsFixture::write(path("integer.uvfits"), o);
    r.output = path("integer-sim.uvfits");
    const QString integer = inputErrorOf([&] { sim::simulateLike(r); });
    QVERIFY2(integer.contains("integer-sim.uvfits") && integer.contains("BITPIX 16"),
             qPrintable(integer));
    QVERIFY(!QFile::exists(QString::fromStdString(r.output)));

    r.like = input;
    r.output = input;
    r.overwrite = true;
    QVERIFY(!inputErrorOf([&] { sim::simulateLike(r); }).isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestSimulateLikeUvfits)
#include "test_simulate_like_uvfits.moc"
