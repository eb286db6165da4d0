// Continuing a cube run (imaging.spectral_mode cube) from its model: the model cube written for
// "Continue" reads back plane for plane, a 2-D model starts every plane, a cube of another plane
// count or grid is refused with the reason, and a continued run starts where the first one ended.
// Also the FITS helpers the GUI uses to load cube outputs (plane count, listed frequencies).
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <mutex>

#include "core/engine/engine.h"
#include "core/io/fits_cube_io.h"
#include "core/io/fits_image_io.h"
#include "core/io/fits_planes.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/pipeline/initial_model.h"
#include "core/pipeline/model_file.h"
#include "core/util/input_error.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr int kSize = 48;
constexpr double kCellArcsec = 0.15;

// A small cube of `planes` planes on a kSize grid: plane k, pixel i holds (k + 1) * 1e-3 + i *
// 1e-7 (some negative, one blank), so each plane and pixel is told apart.
pipeline::ImagingProducts cubeProducts(int planes) {
  pipeline::ImagingProducts p;
  p.geometry.nx = p.geometry.ny = kSize;
  p.geometry.cell_l = -kCellArcsec * kArcsec;
  p.geometry.cell_m = kCellArcsec * kArcsec;
  p.phase_centre_ra_rad = 1.2;
  p.phase_centre_dec_rad = -0.5;
  p.planes = planes;
  const std::size_t npix = p.geometry.numPixels();
  for (int k = 0; k < planes; ++k) {
    // Two windows: planes are not evenly spaced (the FREQ axis cannot say where each one is).
    p.plane_frequencies_hz.push_back(k < planes / 2 ? 224e9 + k * 125e6
                                                    : 240e9 + (k - planes / 2) * 125e6);
    p.plane_bandwidths_hz.push_back(62.5e6);
    for (std::size_t i = 0; i < npix; ++i)
      p.model.push_back((k + 1) * 1e-3 + double(i) * 1e-7 - (i % 17 == 0 ? 1.0 : 0.0));
  }
  p.model[5] = std::nan("");
  return p;
}

class LastMetrics : public engine::RunObserver {
 public:
  void iteration(const engine::IterationMetrics& m) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (first_chi2 < 0.0)
      first_chi2 = m.chi2_per_dof;
    last_chi2 = m.chi2_per_dof;
  }
  std::mutex mutex;
  double first_chi2 = -1.0;
  double last_chi2 = -1.0;
};

std::shared_ptr<pipeline::ImagingProducts> run(const project::ProjectSettings& s,
                                               std::shared_ptr<engine::RunObserver> observer) {
  auto products = std::make_shared<pipeline::ImagingProducts>();
  engine::Engine engine;
  engine.start(s, pipeline::makeImagingPipeline(products), observer);
  const engine::RunOutcome outcome = engine.wait();
  if (outcome.state != engine::RunState::Finished)
    throw std::runtime_error(outcome.message);
  return products;
}

}  // namespace

class TestCubeContinue : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void modelCubeReadsBackPlaneForPlane() {
    const pipeline::ImagingProducts p = cubeProducts(4);
    const std::string path = file("model4.fits");
    pipeline::writeModelFits(p, path);
    QCOMPARE(fitsImagePlanes(path), 4);
    const std::vector<double> back = pipeline::readInitialModelCube(
        path, p.geometry, p.phase_centre_ra_rad, p.phase_centre_dec_rad, false, {}, 4);
    QCOMPARE(back.size(), p.model.size());
    QCOMPARE(back[5], 0.0);  // the blank
    for (std::size_t i = 6; i < back.size(); ++i) {
      if (back[i] != p.model[i])
        QFAIL(
            qPrintable(QString("value %1 differs: %2 vs %3").arg(i).arg(back[i]).arg(p.model[i])));
    }
    // Positivity and a mask act on every plane.
    std::vector<double> mask(p.geometry.numPixels(), 1.0);
    mask[100] = 0.0;
    const std::vector<double> positive = pipeline::readInitialModelCube(
        path, p.geometry, p.phase_centre_ra_rad, p.phase_centre_dec_rad, true, mask, 4);
    const std::size_t npix = p.geometry.numPixels();
    for (int k = 0; k < 4; ++k) {
      QCOMPARE(positive[k * npix + 100], 0.0);
      QCOMPARE(positive[k * npix + 17], 0.0);  // negative
      QCOMPARE(positive[k * npix + 18], p.model[k * npix + 18]);
    }
  }

  void twoDimensionalModelStartsEveryPlane() {
    pipeline::ImagingProducts p = cubeProducts(1);
    p.planes = 1;
    p.plane_frequencies_hz.clear();
    const std::string path = file("model2d.fits");
    pipeline::writeModelFits(p, path);
    QCOMPARE(fitsImagePlanes(path), 1);
    const std::vector<double> back = pipeline::readInitialModelCube(
        path, p.geometry, p.phase_centre_ra_rad, p.phase_centre_dec_rad, false, {}, 3);
    const std::size_t npix = p.geometry.numPixels();
    QCOMPARE(back.size(), 3 * npix);
    for (int k = 0; k < 3; ++k)
      QCOMPARE(back[k * npix + 321], p.model[321]);
  }

  void otherPlaneCountOrGridIsRefused() {
    const pipeline::ImagingProducts p = cubeProducts(4);
    const std::string path = file("model4b.fits");
    pipeline::writeModelFits(p, path);
    try {
      pipeline::readInitialModelCube(path, p.geometry, p.phase_centre_ra_rad,
                                     p.phase_centre_dec_rad, false, {}, 2);
      QFAIL("a 4-plane model started a 2-plane run");
    } catch (const InputError& e) {
      const QString what = e.what();
      QVERIFY2(what.contains("optimizer.initial_model") && what.contains(path.c_str()) &&
                   what.contains("cube of 4 planes; this run images 2"),
               qPrintable(what));
    }
    imaging::ImageGeometry bigger = p.geometry;
    bigger.nx = bigger.ny = 2 * kSize;
    try {
      pipeline::readInitialModelCube(path, bigger, p.phase_centre_ra_rad, p.phase_centre_dec_rad,
                                     false, {}, 4);
      QFAIL("a model cube of another size was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("is 48 x 48 pixels; the run images 96 x 96"), e.what());
    }
    // An MFS run cannot start from a cube of several planes.
    try {
      pipeline::readInitialModel(path, p.geometry, p.phase_centre_ra_rad, p.phase_centre_dec_rad,
                                 false, {});
      QFAIL("an MFS run started from a cube");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("optimizer.initial_model"), e.what());
    }
    QVERIFY_THROWS_EXCEPTION(InputError, fitsImagePlanes(file("missing.fits")));
  }

  void listedFrequenciesOfUnevenPlanes() {
    pipeline::ImagingProducts p = cubeProducts(4);
    const std::string path = file("uneven.fits");
    pipeline::writeModelFits(p, path);
    const std::vector<double> hz = fitsListedPlaneFrequencies(path, 4);
    QCOMPARE(hz.size(), std::size_t(4));
    for (int k = 0; k < 4; ++k)
      QVERIFY(std::fabs(hz[k] - p.plane_frequencies_hz[k]) < 1e-3);
    // Evenly spaced planes are on the FREQ axis: nothing listed.
    p.plane_frequencies_hz = {224e9, 225e9, 226e9, 227e9};
    const std::string even = file("even.fits");
    pipeline::writeModelFits(p, even);
    QVERIFY(fitsListedPlaneFrequencies(even, 4).empty());
    QCOMPARE(readFitsCube(even).frequencies_hz[3], 227e9);
  }

  void continuedCubeRunStartsWhereTheFirstEnded() {
    sim::SkyModel sky = testing::pointAndGaussianSky();
    sim::ObservationSpec spec = testing::almaTestObservation();
    spec.spectral_windows = {sim::SpectralWindowSpec{224e9, 2e9, 2},
                             sim::SpectralWindowSpec{240e9, 2e9, 2}};
    const std::string ms = testing::simulateAlmaCompactMs(file("two-windows.ms"), sky, spec);
    project::ProjectSettings s;
    s.data.path = ms;
    s.imaging.nx = s.imaging.ny = kSize;
    s.imaging.cell_arcsec = kCellArcsec;
    s.imaging.spectral_mode = apertura::project::SpectralMode::Cube;
    s.imaging.channels_per_plane = 1;  // 4 planes, two per window
    s.weighting.scheme = apertura::imaging::WeightingScheme::Natural;
    s.regularizers = {{"l1", 1e-4, false, {}}, {"tsv-spectral", 1e-3, false, {}}};
    s.optimizer.max_iterations = 15;
    auto first = std::make_shared<LastMetrics>();
    const auto products = run(s, first);
    QCOMPARE(products->planes, 4);
    const std::string model = file("continue-model.fits");
    pipeline::writeModelFits(*products, model);

    s.optimizer.initial_model = model;
    s.optimizer.max_iterations = 3;
    auto second = std::make_shared<LastMetrics>();
    run(s, second);
    qInfo("chi2/dof: first run %.4f -> %.4f, continued run starts at %.4f", first->first_chi2,
          first->last_chi2, second->first_chi2);
    QVERIFY(second->first_chi2 <= first->last_chi2 * 1.05);
    QVERIFY(second->first_chi2 < 0.5 * first->first_chi2);

    // Another plane count (2 channels per plane: 2 planes) is refused before any iteration.
    s.imaging.channels_per_plane = 2;
    try {
      run(s, std::make_shared<engine::RunObserver>());
      QFAIL("a 4-plane model continued a 2-plane run");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("cube of 4 planes; this run images 2"), e.what());
    }
  }

 private:
  std::string file(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCubeContinue)
#include "test_cube_continue.moc"
