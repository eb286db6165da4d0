// Image fidelity on real coverage with a known sky. Not a test: prints figures (docs/fidelity.md).
// Usage: bench_fidelity [WORKDIR=/tmp/apertura-fidelity] [SIZE=256] [ITERATIONS=100] [--no-wsclean]
//
// For each real coverage in ../shared/data (ALMA Antennae mosaic field 0, VLA Ka band, 64
// channels), each truth sky (an inclined disk with a gap and three points, a field of Gaussian
// blobs, a field of points; sizes in units of the synthesized beam, so every coverage sees the
// same structure) and two noise levels (total flux / natural-weighted image noise = 1000 and
// 50), the data are `simulate --like` copies of the observation (sim/like_simulation.h). Each is
// imaged by
//   - the default project (project::defaultProject(): L1 1e-4 + TSV 1e-3, L-BFGS),
//   - a sweep of L1 lambda over decades (the same project with L1 alone), whose best is quoted,
//   - WSClean 3 (-multiscale -auto-mask 3 -auto-threshold 1, Briggs 0.5) unless --no-wsclean.
// Scores (lower is better): NRMSE = ||model * B - truth * B|| / ||truth * B|| with B the clean
// beam fitted to Apertura's PSF (the same for every method), at B and at half its size
// (super-resolution); and the restored image against truth * B.
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/dataset_summary_reader.h"
#include "core/io/fits_image_io.h"
#include "core/project/project_file.h"
#include "core/rml/restore.h"
#include "core/sim/image_sky.h"
#include "core/sim/like_simulation.h"
#include "tests/support/pipeline_run.h"

using namespace apertura;
namespace fs = std::filesystem;

namespace {

struct Coverage {
  const char* name;
  std::string ms;
  int field;
};

struct Scores {
  double beam = NAN, half_beam = NAN, restored = NAN;
};

// Sky models in units of the synthesized beam theta (radians).
sim::SkyModel truthSky(const std::string& name, double theta) {
  sim::SkyModel sky;
  if (name == "disk") {
    sim::RingDiskSource d;
    d.flux_jy = 1.0;
    d.inner_radius = 0.5 * theta;
    d.gap_inner = 3.0 * theta;
    d.gap_outer = 4.5 * theta;
    d.outer_radius = 8.0 * theta;
    d.inclination = 40.0 * M_PI / 180.0;
    d.position_angle = 30.0 * M_PI / 180.0;
    sky.disks.push_back(d);
    sky.points = {{0.05, 12.0 * theta, 3.0 * theta, 0.0},
                  {0.03, -9.0 * theta, -10.0 * theta, 0.0},
                  {0.02, 2.0 * theta, 13.0 * theta, 0.0}};
  } else if (name == "blobs") {
    const double f[] = {0.4, 0.25, 0.15, 0.1, 0.1};
    const double x[] = {0.0, 7.0, -6.0, 3.0, -10.0}, y[] = {0.0, 4.0, 5.0, -9.0, -4.0};
    const double major[] = {4.0, 2.5, 3.0, 1.5, 2.0}, ratio[] = {0.6, 1.0, 0.5, 0.8, 0.7};
    for (int i = 0; i < 5; ++i)
      sky.gaussians.push_back({f[i], x[i] * theta, y[i] * theta, major[i] * theta,
                               ratio[i] * major[i] * theta, 0.7 * i, 0.0});
  } else {
    const double f[] = {0.5, 0.2, 0.1, 0.1, 0.05, 0.03, 0.02, 0.01};
    for (int i = 0; i < 8; ++i) {
      const double r = (3.0 + 1.7 * i) * theta, a = 2.4 * i;
      sky.points.push_back({f[i], r * std::sin(a), r * std::cos(a), 0.0});
    }
  }
  return sky;
}

double nrmse(const std::vector<double>& a, const std::vector<double>& truth) {
  double d = 0.0, t = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d += (a[i] - truth[i]) * (a[i] - truth[i]);
    t += truth[i] * truth[i];
  }
  return std::sqrt(d / t);
}

Scores score(const std::vector<double>& model, const std::vector<double>* restored,
             const std::vector<double>& truth, const imaging::ImageGeometry& g,
             const imaging::CleanBeam& beam) {
  imaging::CleanBeam half = beam;
  half.bmaj /= 2.0;
  half.bmin /= 2.0;
  Scores s;
  const std::vector<double> truth_b = rml::convolveWithCleanBeam(truth, g, beam);
  s.beam = nrmse(rml::convolveWithCleanBeam(model, g, beam), truth_b);
  s.half_beam =
      nrmse(rml::convolveWithCleanBeam(model, g, half), rml::convolveWithCleanBeam(truth, g, half));
  if (restored)
    s.restored = nrmse(*restored, truth_b);
  return s;
}

// WSClean's model (Jy/pixel) for the same grid, or empty when it fails.
std::vector<double> wscleanModel(const std::string& ms, int field, int size, double cell_rad,
                                 const std::string& prefix) {
  char command[1024];
  std::snprintf(command, sizeof command,
                "wsclean -quiet -field %d -size %d %d -scale %.6garcsec -weight briggs 0.5 "
                "-multiscale -auto-mask 3 -auto-threshold 1 -niter 1000000 -mgain 0.8 "
                "-name '%s' '%s' > '%s.log' 2>&1",
                field, size, size, cell_rad * 180.0 / M_PI * 3600.0, prefix.c_str(), ms.c_str(),
                prefix.c_str());
  const int status = std::system(command);
  if (status != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "  wsclean failed (see %s.log)\n", prefix.c_str());
    return {};
  }
  return readFitsImage(prefix + "-model.fits").pixels;
}

}  // namespace

int main(int argc, char** argv) {
  std::string work = "/tmp/apertura-fidelity";
  int size = 256, iterations = 100;
  bool wsclean = true;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--no-wsclean")
      wsclean = false;
    else
      positional.emplace_back(argv[i]);
  }
  if (positional.size() > 0)
    work = positional[0];
  if (positional.size() > 1)
    size = std::stoi(positional[1]);
  if (positional.size() > 2)
    iterations = std::stoi(positional[2]);
  const char* env = std::getenv("APERTURA_SHARED_DATA");
  const std::string data = env ? env : APERTURA_SHARED_DATA_DIR;
  fs::create_directories(work);
  const Coverage coverages[] = {
      {"ALMA Antennae f0", data + "/alma_antennae_mosaic/all_fields.ms", 0},
      {"VLA Ka 64 ch", data + "/vla_day2_tdem0003/day2_TDEM0003_10s_norx_1src_1spw.ms", 0}};
  const double lambdas[] = {1e-1, 1, 1e1, 1e2, 3e2, 1e3, 3e3, 1e4, 3e4, 1e5};

  std::printf(
      "| coverage | sky | SNR | default (beam / half / restored) | best L1 lambda | "
      "best L1 (beam / half / restored) | WSClean (beam / half) |\n"
      "|---|---|---|---|---|---|---|\n");
  for (const Coverage& cov : coverages) {
    if (!fs::exists(cov.ms)) {
      std::fprintf(stderr, "%s: %s is absent, skipped\n", cov.name, cov.ms.c_str());
      continue;
    }
    const DatasetSummary summary = summarizeDataset(cov.ms);
    const double cell = summary.suggested_cell_rad;
    const double theta = 5.0 * cell;  // about the synthesized beam
    const FieldInfo& field = summary.fields.at(std::size_t(cov.field));
    for (const char* sky_name : {"disk", "blobs", "points"}) {
      const sim::SkyModel sky = truthSky(sky_name, theta);
      const FitsImage truth = sim::renderSkyImage(sky, size, cell, field.ra_rad, field.dec_rad,
                                                  summary.maxFrequencyHz());
      const std::string base = work + "/" + std::to_string(&cov - coverages) + "-" + sky_name;
      writeFitsImage(base + "-truth.fits", truth);
      for (const double snr : {1000.0, 50.0}) {
        const std::string tag = base + "-snr" + std::to_string(int(snr));
        sim::LikeSimulationRequest like;
        like.like = cov.ms;
        like.image = base + "-truth.fits";
        like.snr = snr;
        like.output = tag + ".ms";
        like.overwrite = true;
        sim::simulateLike(like);

        project::ProjectSettings s = project::defaultProject();
        s.data.path = like.output;
        s.data.field_id = cov.field;
        s.imaging.nx = s.imaging.ny = size;
        s.imaging.cell_arcsec = cell * 180.0 / M_PI * 3600.0;
        s.optimizer.max_iterations = iterations;
        s.output.prefix = tag + "-default";
        const auto run = [](const project::ProjectSettings& p) {
          const testing::PipelineRun r = testing::runImagingPipeline(p);
          if (!r.finished()) {
            std::fprintf(stderr, "run failed: %s\n", r.outcome.message.c_str());
            std::exit(1);
          }
          return r.products;
        };
        const auto def = run(s);
        const imaging::ImageGeometry g = def->geometry;
        const Scores d = score(def->model, &def->restored, truth.pixels, g, def->beam);

        Scores best;
        double best_lambda = NAN;
        for (const double lambda : lambdas) {
          project::ProjectSettings l1 = s;
          l1.regularizers = {{"l1", lambda, false, {}}};
          const auto p = run(l1);
          const Scores sc = score(p->model, &p->restored, truth.pixels, g, def->beam);
          std::fprintf(stderr, "  %s %s snr %g: L1 %g -> %.3f / %.3f / %.3f\n", cov.name, sky_name,
                       snr, lambda, sc.beam, sc.half_beam, sc.restored);
          if (!(sc.beam >= best.beam)) {
            best = sc;
            best_lambda = lambda;
          }
        }
        Scores w;
        if (wsclean) {
          const std::vector<double> model =
              wscleanModel(like.output, cov.field, size, cell, tag + "-wsclean");
          if (model.size() == g.numPixels())
            w = score(model, nullptr, truth.pixels, g, def->beam);
        }
        std::printf(
            "| %s | %s | %g | %.3f / %.3f / %.3f | %g | %.3f / %.3f / %.3f | %.3f / %.3f |\n",
            cov.name, sky_name, snr, d.beam, d.half_beam, d.restored, best_lambda, best.beam,
            best.half_beam, best.restored, w.beam, w.half_beam);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
