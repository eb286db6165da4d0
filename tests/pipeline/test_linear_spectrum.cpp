// MFS with a linear spectrum (imaging.mfs_spectrum) end to end, on a simulated three-channel
// observation of a point source whose flux grows as nu^2 across 230-246 GHz: the sky at both
// band ends and at the image frequency, a fit at the noise where a flat model cannot reach it,
// one-plane snapshots and products, the auto rule, and the refusals.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <mutex>

#include "core/engine/memory_estimate.h"
#include "core/io/fits_image_io.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/pipeline/initial_model.h"
#include "core/pipeline/model_file.h"
#include "core/project/project_file.h"
#include "core/util/input_error.h"
#include "tests/support/cube_point_source.h"
#include "tests/support/pipeline_run.h"

using namespace apertura;
using namespace apertura::testing::cube_point;

namespace {

constexpr double kSpectralIndex = 2.0;
constexpr std::size_t kPixels = std::size_t(kSize) * kSize;

double trueFlux(double hz) {
  return std::pow(hz / kRefHz, kSpectralIndex);
}

// Flux within two pixels of the source in `image` (kPixels values).
double sourceFlux(const double* image) {
  const int ix = kSize / 2 - kEastCells, iy = kSize / 2 + kNorthCells;
  double flux = 0.0;
  for (int y = iy - 2; y <= iy + 2; ++y) {
    for (int x = ix - 2; x <= ix + 2; ++x)
      flux += image[std::size_t(y) * kSize + std::size_t(x)];
  }
  return flux;
}

class ModelObserver : public engine::RunObserver {
 public:
  void snapshot(const std::shared_ptr<const engine::ImageSnapshot>& s) override {
    if (s->name != "model")
      return;
    std::lock_guard<std::mutex> lock(mutex);
    ++models;
    planes = std::max(planes, s->planes);
    pixels = std::max(pixels, s->pixels.size());
  }
  void progress(double, const std::string& message) override {
    std::lock_guard<std::mutex> lock(mutex);
    messages.push_back(message);
  }
  std::mutex mutex;
  int models = 0;
  int planes = 0;
  std::size_t pixels = 0;
  std::vector<std::string> messages;
};

std::shared_ptr<pipeline::ImagingProducts> run(
    const project::ProjectSettings& s, std::shared_ptr<engine::RunObserver> observer = nullptr) {
  const testing::PipelineRun r = testing::runImagingPipeline(s, std::move(observer));
  if (!r.finished())
    throw std::runtime_error(r.outcome.message);
  return r.products;
}

}  // namespace

class TestLinearSpectrum : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = simulate(dir_.path().toStdString() + "/spectral.ms", kSpectralIndex);
  }

  project::ProjectSettings mfsSettings(project::MfsSpectrum spectrum) const {
    project::ProjectSettings s = cubeSettings(ms_);
    s.imaging.spectral_mode = project::SpectralMode::Mfs;
    s.imaging.mfs_spectrum = spectrum;
    s.regularizers = {{"l1", 1e-3, false, {}}};
    s.optimizer.max_iterations = 200;
    s.optimizer.relative_tolerance = 1e-12;
    return s;
  }

  void fitsTheSpectrumAtBothEnds() {
    auto observer = std::make_shared<ModelObserver>();
    project::ProjectSettings s = mfsSettings(project::MfsSpectrum::Linear);
    s.output.prefix = dir_.path().toStdString() + "/linear";
    const auto p = run(s, observer);
    const double low = kRefHz, high = kRefHz + 2 * kChannelHz;
    QCOMPARE(p->band_edges_hz, (std::vector<double>{low, high}));
    QCOMPARE(p->band_model.size(), 2 * kPixels);
    QCOMPARE(p->planes, 1);
    for (const auto* image : {&p->model, &p->residual, &p->restored})
      QCOMPARE(image->size(), kPixels);
    // Each end within a few % (RML's loosely constrained plateau, as for cube planes), their
    // ratio to 2 % (nu^2 over the band: 1.144).
    const double f_low = sourceFlux(p->band_model.data());
    const double f_high = sourceFlux(p->band_model.data() + kPixels);
    QVERIFY2(std::fabs(f_low / trueFlux(low) - 1.0) < 0.05, qPrintable(QString::number(f_low)));
    QVERIFY2(std::fabs(f_high / trueFlux(high) - 1.0) < 0.05, qPrintable(QString::number(f_high)));
    const double ratio = f_high / f_low, true_ratio = trueFlux(high) / trueFlux(low);
    QVERIFY2(std::fabs(ratio / true_ratio - 1.0) < 0.02,
             qPrintable(QString("ratio %1, expected %2").arg(ratio).arg(true_ratio)));
    // The model is the sky at the image's frequency (the channels' mean, 238 GHz).
    QCOMPARE(p->frequency_hz, kRefHz + kChannelHz);
    const double t = (p->frequency_hz - low) / (high - low);
    QVERIFY(std::fabs(sourceFlux(p->model.data()) - ((1 - t) * f_low + t * f_high)) < 1e-9);
    // Fits at the noise (sigma 0.05 Jy per visibility, absolute weights; 1.10 measured, as a cube
    // run of these data).
    qInfo("linear chi2/dof %g", p->chi2_per_dof);
    QVERIFY2(p->chi2_per_dof > 0.8 && p->chi2_per_dof < 1.3,
             qPrintable(QString::number(p->chi2_per_dof)));
    // Snapshots are one image: the sky at the image frequency, not the two planes.
    QVERIFY(observer->models > 0);
    QCOMPARE(observer->planes, 1);
    QCOMPARE(observer->pixels, kPixels);

    // The spectral index at the source (nu^2: 2) and none where there is no emission.
    QCOMPARE(p->spectral_index.size(), kPixels);
    const std::size_t source =
        std::size_t(kSize / 2 + kNorthCells) * kSize + std::size_t(kSize / 2 - kEastCells);
    QVERIFY2(std::fabs(p->spectral_index[source] - kSpectralIndex) < 0.15,
             qPrintable(QString::number(p->spectral_index[source])));
    QVERIFY(std::isnan(p->spectral_index[std::size_t(kSize / 2 - 20) * kSize + kSize / 2 + 20]));
    // Written beside the restored image, pixel for pixel.
    const FitsImage alpha = readFitsImage(s.output.prefix + "-alpha.fits");
    QCOMPARE(alpha.pixels.size(), kPixels);
    QVERIFY(std::fabs(alpha.pixels[source] - p->spectral_index[source]) < 1e-6);

    // "Continue from last model" writes both planes, and a linear run starts from both.
    const std::string path = dir_.path().toStdString() + "/continue-model.fits";
    pipeline::writeModelFits(*p, path);
    const std::vector<double> start = pipeline::readInitialModelCube(
        path, p->geometry, p->phase_centre_ra_rad, p->phase_centre_dec_rad, true, {}, 2);
    QCOMPARE(start, p->band_model);

    // The same data with a flat spectrum cannot fit the 14 % change across the band (2.5).
    const auto flat = run(mfsSettings(project::MfsSpectrum::Flat));
    qInfo("flat chi2/dof %g", flat->chi2_per_dof);
    QVERIFY(flat->band_edges_hz.empty() && flat->band_model.empty() &&
            flat->spectral_index.empty());
    QVERIFY2(
        flat->chi2_per_dof > p->chi2_per_dof + 0.5,
        qPrintable(QString("flat %1, linear %2").arg(flat->chi2_per_dof).arg(p->chi2_per_dof)));
  }

  // auto: linear on this band (16 GHz of 238: 6.7 %), flat on one channel.
  void autoFollowsTheBand() {
    auto observer = std::make_shared<ModelObserver>();
    project::ProjectSettings s = mfsSettings(project::MfsSpectrum::Auto);
    s.optimizer.max_iterations = 5;
    QCOMPARE(run(s, observer)->band_edges_hz.size(), std::size_t(2));
    bool said = false;
    for (const std::string& m : observer->messages)
      said = said || m.find("linear spectrum") != std::string::npos;
    QVERIFY(said);
    s.data.channel_end = 0;  // one channel
    const auto one = run(s);
    QVERIFY(one->band_edges_hz.empty());
    QCOMPARE(one->model.size(), kPixels);
    s.data.channel_end = 1;  // 230 and 238 GHz: 3.4 %
    QVERIFY(run(s)->band_edges_hz.empty());
  }

  void refusesWhatItCannotDo() {
    project::ProjectSettings s = mfsSettings(project::MfsSpectrum::Linear);
    s.imaging.w_stacking = true;
    try {
      project::validateProject(s);
      QFAIL("linear with w-stacking was accepted");
    } catch (const InputError& e) {
      QVERIFY(std::string(e.what()).find("imaging.mfs_spectrum") != std::string::npos);
    }
    s.imaging.w_stacking = false;
    s.imaging.spectral_mode = project::SpectralMode::Cube;
    QVERIFY_THROWS_EXCEPTION(InputError, project::validateProject(s));
    // auto with a cube: the cube's planes hold the spectrum, nothing to refuse.
    s.imaging.mfs_spectrum = project::MfsSpectrum::Auto;
    project::validateProject(s);
  }

  // The estimate counts a second operator's grids and two planes of parameters.
  void memoryEstimateCountsTheSecondPlane() {
    project::ProjectSettings s = mfsSettings(project::MfsSpectrum::Flat);
    engine::DataVolume v;
    v.rows = 1000;
    v.samples = 3000;
    v.channels_per_row = 3;
    v.fractional_band = 0.067;
    const engine::MemoryEstimate flat = engine::estimateMemory(s, v, 8ull << 30);
    s.imaging.mfs_spectrum = project::MfsSpectrum::Auto;
    const engine::MemoryEstimate linear = engine::estimateMemory(s, v, 8ull << 30);
    QVERIFY(linear.grid_bytes > flat.grid_bytes);
    QVERIFY(linear.image_bytes > flat.image_bytes);
    QVERIFY(linear.optimizer_bytes > flat.optimizer_bytes);
    v.fractional_band = 0.01;
    QCOMPARE(engine::estimateMemory(s, v, 8ull << 30).grid_bytes, flat.grid_bytes);
  }

 private:
  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestLinearSpectrum)
#include "test_linear_spectrum.moc"
