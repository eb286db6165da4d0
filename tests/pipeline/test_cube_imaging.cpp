// Spectral cubes imaged jointly (imaging.spectral_mode cube) on a simulated three-channel
// observation of a point source with a spectral index: each plane's flux, the per-plane beams,
// the FITS cube written, a one-plane cube against the MFS run of the same channels (bit for
// bit), streaming against resident data, the across-channel TV pulling planes together, and the
// project settings (file round trip, defaults, refusals, memory estimate).
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

#include "core/engine/engine.h"
#include "core/engine/memory_estimate.h"
#include "core/io/fits_cube_io.h"
#include "core/pipeline/cube_planes.h"
#include "core/pipeline/imaging_pipeline.h"
#include "core/project/project_file.h"
#include "core/util/input_error.h"
#include "tests/support/cube_point_source.h"

using namespace apertura;
using namespace apertura::testing::cube_point;

namespace {

constexpr double kSpectralIndex = 2.0;

double trueFlux(double hz) {
  return std::pow(hz / kRefHz, kSpectralIndex);
}

class PlaneObserver : public engine::RunObserver {
 public:
  void snapshot(const std::shared_ptr<const engine::ImageSnapshot>& s) override {
    std::lock_guard<std::mutex> lock(mutex);
    planes = s->planes;
    pixels = s->pixels.size();
  }
  std::mutex mutex;
  int planes = 0;
  std::size_t pixels = 0;
};

std::shared_ptr<pipeline::ImagingProducts> run(
    const project::ProjectSettings& s,
    std::shared_ptr<engine::RunObserver> observer = std::make_shared<engine::RunObserver>()) {
  auto products = std::make_shared<pipeline::ImagingProducts>();
  engine::Engine engine;
  engine.start(s, pipeline::makeImagingPipeline(products), observer);
  const engine::RunOutcome outcome = engine.wait();
  if (outcome.state != engine::RunState::Finished)
    throw std::runtime_error(outcome.message);
  return products;
}

// Rank 0 of a pretend two-process run: enough for the pipeline to see a distributed run (each
// collective acts as if the other rank contributed nothing).
class TwoRanks final : public engine::Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 2; }
  void sum(double*, std::size_t) override {}
  void sum(float*, std::size_t) override {}
  void broadcast(void*, std::size_t, int) override {}
  bool any(bool flag) override { return flag; }
  void barrier() override {}
  bool deterministic() const override { return true; }
};

template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && !a.empty() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

class TestCubeImaging : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = simulate(dir_.path().toStdString() + "/spectral.ms", kSpectralIndex);
  }

  project::ProjectSettings cubeSettings() const {
    project::ProjectSettings s = testing::cube_point::cubeSettings(ms_);
    s.regularizers = {{"l1", 1e-3, false, {}}};
    s.optimizer.max_iterations = 150;
    s.optimizer.relative_tolerance = 1e-12;
    return s;
  }

  void eachPlaneHasItsOwnFlux() {
    project::ProjectSettings s = cubeSettings();
    s.output.prefix = dir_.path().toStdString() + "/cube";
    auto observer = std::make_shared<PlaneObserver>();
    const auto p = run(s, observer);
    const std::size_t npix = kSize * kSize;
    for (const auto* image : {&p->model, &p->residual, &p->restored})
      QCOMPARE(image->size(), 3 * npix);
    QCOMPARE(p->dirty.size(), 3 * npix);
    QCOMPARE(p->psf.size(), 3 * npix);
    QCOMPARE(p->plane_beams.size(), std::size_t(3));
    const std::size_t source =
        std::size_t(kSize / 2 + kNorthCells) * kSize + std::size_t(kSize / 2 - kEastCells);
    for (int k = 0; k < 3; ++k) {
      const double hz = kRefHz + k * kChannelHz;
      QCOMPARE(p->plane_frequencies_hz[std::size_t(k)], hz);
      // The model's flux near the source: within a few % (RML leaves the zero spacing, hence a
      // faint plateau around the source, only loosely constrained), and the plane-to-plane ratios
      // follow the spectrum to 1% (that bias is common to the planes).
      const double flux = planeFlux(*p, k);
      QVERIFY2(
          std::fabs(flux / trueFlux(hz) - 1.0) < 0.05,
          qPrintable(QString("plane %1: %2 Jy, expected %3").arg(k).arg(flux).arg(trueFlux(hz))));
      const double ratio = flux / planeFlux(*p, 0), true_ratio = trueFlux(hz) / trueFlux(kRefHz);
      QVERIFY2(
          std::fabs(ratio / true_ratio - 1.0) < 0.01,
          qPrintable(QString("plane %1: ratio %2, expected %3").arg(k).arg(ratio).arg(true_ratio)));
      // The restored image (model with the plane's clean beam plus residual) peaks at the flux.
      const double peak = p->restored[std::size_t(k) * npix + source];
      QVERIFY2(std::fabs(peak / trueFlux(hz) - 1.0) < 0.01,
               qPrintable(QString("plane %1: restored peak %2").arg(k).arg(peak)));
      // The PSF of every plane peaks at 1 at the centre.
      QVERIFY(std::fabs(p->psf[std::size_t(k) * npix + (kSize / 2) * kSize + kSize / 2] - 1.0) <
              1e-4);
    }
    QVERIFY2(p->chi2_per_dof > 0.8 && p->chi2_per_dof < 1.3,
             qPrintable(QString::number(p->chi2_per_dof)));
    // Planes differ as the spectrum does (+7% and +14%), and the beam narrows with frequency.
    QVERIFY(planeFlux(*p, 1) > planeFlux(*p, 0) * 1.04);
    QVERIFY(planeFlux(*p, 2) > planeFlux(*p, 1) * 1.04);
    QVERIFY(p->plane_beams[2].bmaj < p->plane_beams[0].bmaj * 0.98);
    QCOMPARE(p->beam.bmaj, p->plane_beams[0].bmaj);
    // Each snapshot holds every plane (the GUI's plane selector shows any of them).
    QCOMPARE(observer->planes, 3);
    QCOMPARE(observer->pixels, 3 * npix);

    // FITS cubes: a FREQ axis with one plane per image plane and a beam per plane.
    const FitsCube restored = readFitsCube(s.output.prefix + "-restored.fits");
    QCOMPARE(restored.planes, 3);
    QCOMPARE(restored.header.nx, kSize);
    QCOMPARE(restored.ctype3, std::string("FREQ"));
    QCOMPARE(restored.specsys, std::string("TOPOCENT"));
    QCOMPARE(restored.crval3, kRefHz);
    QCOMPARE(restored.cdelt3, kChannelHz);
    QCOMPARE(restored.crpix3, 1.0);
    QCOMPARE(restored.header.bunit, std::string("JY/BEAM"));
    QCOMPARE(restored.beams.size(), std::size_t(3));
    for (std::size_t k = 0; k < 3; ++k) {
      QVERIFY(std::fabs(restored.beams[k].major_fwhm_rad / p->plane_beams[k].bmaj - 1.0) < 1e-6);
      QVERIFY(std::fabs(restored.beams[k].minor_fwhm_rad / p->plane_beams[k].bmin - 1.0) < 1e-6);
    }
    const std::size_t peak = 2 * npix + source;
    QVERIFY(std::fabs(restored.pixels[peak] - p->restored[peak]) < 1e-6);
    const FitsCube model = readFitsCube(s.output.prefix + "-model.fits");
    QCOMPARE(model.planes, 3);
    QVERIFY(model.beams.empty());  // a model has no beam
    QCOMPARE(model.header.bunit, std::string("JY/PIXEL"));
  }

  void onePlaneCubeEqualsMfs() {
    project::ProjectSettings s = cubeSettings();
    s.optimizer.max_iterations = 30;
    s.imaging.channels_per_plane = 3;  // every channel in one plane
    const auto cube = run(s);
    QCOMPARE(cube->planes, 1);
    QCOMPARE(cube->plane_frequencies_hz.front(), kRefHz + kChannelHz);
    // Three 8 GHz wide channels (the simulator's CHAN_WIDTH) span 24 GHz.
    QCOMPARE(cube->plane_bandwidths_hz.front(), 3 * kChannelHz);
    s.imaging.spectral_mode = apertura::project::SpectralMode::Mfs;
    const auto mfs = run(s);
    QCOMPARE(mfs->bandwidth_hz, 3 * kChannelHz);
    QVERIFY(sameBits(cube->dirty, mfs->dirty));
    QVERIFY(sameBits(cube->psf, mfs->psf));
    QVERIFY(sameBits(cube->model, mfs->model));
    QVERIFY(sameBits(cube->residual, mfs->residual));
    QVERIFY(sameBits(cube->restored, mfs->restored));
    QCOMPARE(cube->iterations, mfs->iterations);
  }

  void streamingEqualsResident() {
    project::ProjectSettings s = cubeSettings();
    s.optimizer.max_iterations = 15;
    s.data.chunk_rows = 2000;  // several chunks per pass, the same in both runs
    s.data.mode = apertura::ReadMode::kResident;
    const auto held = run(s);
    s.data.mode = apertura::ReadMode::kStreaming;
    const auto streamed = run(s);
    QCOMPARE(streamed->data_mode, std::string("streaming"));
    QCOMPARE(streamed->planes, 3);
    QVERIFY(sameBits(held->dirty, streamed->dirty));
    QVERIFY(sameBits(held->model, streamed->model));
    QVERIFY(sameBits(held->residual, streamed->residual));
  }

  void spectralTvPullsPlanesTogether() {
    project::ProjectSettings s = cubeSettings();
    s.optimizer.max_iterations = 80;
    const auto free = run(s);
    s.regularizers.push_back({"tv-spectral", 1e9, false, {{"epsilon", 1e-3}}});
    const auto tied = run(s);
    const auto spread = [](const pipeline::ImagingProducts& p) {
      const double a = planeFlux(p, 0), b = planeFlux(p, 1), c = planeFlux(p, 2);
      return std::max({a, b, c}) - std::min({a, b, c});
    };
    QVERIFY2(spread(*tied) < 0.3 * spread(*free),
             qPrintable(QString("spread %1 tied, %2 free").arg(spread(*tied)).arg(spread(*free))));
    QVERIFY(!tied->metrics.empty());
    bool reported = false;
    for (const auto& t : tied->metrics.back().terms)
      reported = reported || t.first == "tv_spectral";
    QVERIFY(reported);
  }

  void projectSettingsRoundTrip() {
    project::ProjectSettings s = cubeSettings();
    s.imaging.channels_per_plane = 4;
    s.regularizers.push_back({"tsv-spectral", 2e-3, false, {}});
    const std::string json = project::projectToJson(s, "");
    const project::ProjectSettings back = project::projectFromJson(json, "", "test");
    QCOMPARE(back.imaging.spectral_mode, apertura::project::SpectralMode::Cube);
    QCOMPARE(back.imaging.channels_per_plane, 4);
    QCOMPARE(back.regularizers.back().type, std::string("tsv-spectral"));
    // A file written before cubes existed loads as MFS.
    const project::ProjectSettings old = project::projectFromJson(
        R"({"schema_version": 1, "imaging": {"nx": 128, "ny": 128}})", "", "old");
    QCOMPARE(old.imaging.spectral_mode, apertura::project::SpectralMode::Mfs);
    QCOMPARE(old.imaging.channels_per_plane, 1);
    // Refusals name the setting.
    const auto refused = [](project::ProjectSettings bad, const char* field) {
      try {
        project::validateProject(bad);
      } catch (const InputError& e) {
        return std::string(e.what()).find(field) != std::string::npos;
      }
      return false;
    };
    bool unknown_mode_refused = false;
    try {
      project::projectFromJson(R"({"schema_version": 1, "imaging": {"spectral_mode": "spectral"}})",
                               "", "bad");
    } catch (const InputError& e) {
      unknown_mode_refused =
          std::string(e.what()).find("imaging.spectral_mode") != std::string::npos;
    }
    QVERIFY(unknown_mode_refused);
    project::ProjectSettings bad = s;
    bad.imaging.channels_per_plane = 0;
    QVERIFY(refused(bad, "imaging.channels_per_plane"));
    bad = s;
    bad.imaging.w_stacking = true;
    QVERIFY(refused(bad, "imaging.spectral_mode"));
    bad = s;
    bad.output.write_model_column = true;
    QVERIFY(refused(bad, "output.write_model_column"));
  }

  void planesNeverMixWindows() {
    // Window 3 listed first but higher in frequency, with channels narrower than their spacing;
    // window 0 has five channels (1 GHz apart and wide).
    const std::vector<pipeline::SpectralWindowChannels> windows = {
        {3, {240e9, 241e9, 242e9}, 0.5e9}, {0, {224e9, 225e9, 226e9, 227e9, 228e9}, 1e9}};
    const std::vector<pipeline::CubePlane> planes = pipeline::cubePlanes(windows, 2);
    QCOMPARE(planes.size(), std::size_t(5));  // 3 of window 0, 2 of window 3
    const int spw[] = {0, 0, 0, 3, 3};
    const std::size_t first[] = {0, 2, 4, 0, 2}, count[] = {2, 2, 1, 2, 1};
    const double hz[] = {224.5e9, 226.5e9, 228e9, 240.5e9, 242e9};
    // Band edges: from half a channel below the first centre to half a channel above the last.
    const double width[] = {2e9, 2e9, 1e9, 1.5e9, 0.5e9};
    for (std::size_t k = 0; k < planes.size(); ++k) {
      QCOMPARE(planes[k].spectral_window, spw[k]);
      QCOMPARE(planes[k].first_channel, first[k]);
      QCOMPARE(planes[k].num_channels, count[k]);
      QCOMPARE(planes[k].frequency_hz, hz[k]);
      QCOMPARE(planes[k].bandwidth_hz, width[k]);
    }
    // A plane's chunk keeps every row with only its channels.
    VisibilityChunk c;
    c.spectral_window_id = 0;
    c.frequencies_hz = windows[1].frequencies_hz;
    c.uvw_m = {1, 2, 3, 4, 5, 6};
    for (int r = 0; r < 2; ++r) {
      for (int ch = 0; ch < 5; ++ch) {
        c.visibilities.emplace_back(float(10 * r + ch), 0.0f);
        c.weights.push_back(float(ch + 1));
      }
    }
    const VisibilityChunk plane = pipeline::sliceChannels(c, planes[1]);
    QCOMPARE(plane.num_rows(), std::size_t(2));
    QCOMPARE(plane.frequencies_hz, (std::vector<double>{226e9, 227e9}));
    QCOMPARE(plane.visibilities[2], std::complex<float>(12.0f, 0.0f));  // row 1, channel 2
    QCOMPARE(plane.weights, (std::vector<float>{3, 4, 3, 4}));
    QCOMPARE(plane.uvw_m, c.uvw_m);
  }

  // Distributed cubes run (tests/mpi/test_mpi_run), but not with the deterministic reduction.
  void distributedDeterministicCubeIsRefused() {
    auto products = std::make_shared<pipeline::ImagingProducts>();
    TwoRanks comm;
    engine::Engine engine;
    engine.start(cubeSettings(), pipeline::makeImagingPipeline(products, comm),
                 std::make_shared<engine::RunObserver>());
    const engine::RunOutcome outcome = engine.wait();
    QVERIFY(outcome.state == engine::RunState::Failed);
    QVERIFY2(outcome.message.find("imaging.spectral_mode") != std::string::npos &&
                 outcome.message.find("deterministic") != std::string::npos,
             outcome.message.c_str());
    QCOMPARE(products->rows, std::size_t(0));  // refused before reading
  }

  void memoryEstimateCountsPlanes() {
    project::ProjectSettings s = cubeSettings();
    engine::DataVolume v;
    v.rows = 1000;
    v.samples = 8000;
    v.channels_per_row = 8;
    v.spectral_windows = 2;
    s.imaging.channels_per_plane = 3;  // 3 planes per window
    QCOMPARE(engine::imagePlanes(s, v), std::uint64_t(6));
    const engine::MemoryEstimate cube = engine::estimateMemory(s, v, 1ull << 34);
    s.imaging.spectral_mode = apertura::project::SpectralMode::Mfs;
    QCOMPARE(engine::imagePlanes(s, v), std::uint64_t(1));
    const engine::MemoryEstimate mfs = engine::estimateMemory(s, v, 1ull << 34);
    QCOMPARE(cube.image_bytes, 6 * mfs.image_bytes);
    QCOMPARE(cube.optimizer_bytes, 6 * mfs.optimizer_bytes);
    QCOMPARE(cube.grid_bytes, mfs.grid_bytes);  // one operator serves every plane
  }

 private:
  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestCubeImaging)
#include "test_cube_imaging.moc"
