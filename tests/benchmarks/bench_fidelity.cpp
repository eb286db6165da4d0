// Image fidelity on real coverage with a known sky. Not a test: prints figures (docs/fidelity.md).
// Usage: bench_fidelity [WORKDIR=/tmp/apertura-fidelity] [SIZE=256] [ITERATIONS=100]
//                       [--no-wsclean] [--sets l1,l1+tsv,l1=1+tsv,...|none] [--cases N]
//                       [--snr 1000|50] [--lambdas 0.1,0.3,...]
//
// For each real coverage in ../shared/data (ALMA Antennae mosaic field 0, VLA Ka band, 64
// channels), each truth sky (an inclined disk with a gap and three points, a field of Gaussian
// blobs, a field of points; sizes in units of the synthesized beam, so every coverage sees the
// same structure) and two noise levels (total flux / natural-weighted image noise = 1000 and
// 50), the data are `simulate --like` copies of the observation (sim/like_simulation.h). Each is
// imaged by
//   - the schema-1 default (L1 1e-4 + TSV 1e-3 on the unscaled objective: the "before" of #31),
//   - the default project (project::defaultProject(): automatic lambdas on the normalised
//     objective),
//   - for each regularizer set (--sets; terms joined by '+' share one normalised lambda, as
//     automatic lambdas do), a sweep of lambda in half decades, whose best is quoted, and the
//     same set with lambda auto,
//   - WSClean 3 (-multiscale -auto-mask 3 -auto-threshold 1, Briggs 0.5), and the best of a small
//     sweep of its settings (kWscleanSettings) at each resolution, unless --no-wsclean.
// Scores (lower is better): NRMSE = ||model * B - truth * B|| / ||truth * B|| with B the clean
// beam fitted to Apertura's PSF (the same for every method), at B and at half its size
// (super-resolution); and the restored image against truth * B.
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/io/dataset_summary_reader.h"
#include "core/io/fits_image_io.h"
#include "core/project/project_file.h"
#include "core/rml/restore.h"
#include "core/sim/image_sky.h"
#include "core/sim/like_simulation.h"
#include "tests/support/pipeline_run.h"
#include "tests/support/relative_difference.h"

using namespace apertura;
using apertura::test::nrmse;
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

// WSClean settings: the first is the reference (auto-masked multiscale CLEAN, Briggs 0.5); the
// others make the small sweep whose best is quoted: without multiscale (point fields), and
// with the weighting moved either way (resolution against sensitivity).
struct WscleanSetting {
  const char* name;
  const char* options;
};
const WscleanSetting kWscleanSettings[] = {
    {"ms b0.5", "-weight briggs 0.5 -multiscale -auto-mask 3 -auto-threshold 1"},
    {"b0.5", "-weight briggs 0.5 -auto-mask 3 -auto-threshold 1"},
    {"ms b-0.5", "-weight briggs -0.5 -multiscale -auto-mask 3 -auto-threshold 1"},
    {"ms natural", "-weight natural -multiscale -auto-mask 3 -auto-threshold 1"},
    {"ms b0.5 mask5", "-weight briggs 0.5 -multiscale -auto-mask 5 -auto-threshold 2"},
};

// WSClean's model (Jy/pixel) for the same grid, or empty when it fails.
std::vector<double> wscleanModel(const std::string& ms, int field, int size, double cell_rad,
                                 const WscleanSetting& setting, const std::string& prefix) {
  char command[1024];
  std::snprintf(command, sizeof command,
                "wsclean -quiet -field %d -size %d %d -scale %.6garcsec %s -niter 1000000 "
                "-mgain 0.8 -name '%s' '%s' > '%s.log' 2>&1",
                field, size, size, cell_rad * 180.0 / M_PI * 3600.0, setting.options,
                prefix.c_str(), ms.c_str(), prefix.c_str());
  const int status = std::system(command);
  if (status != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "  wsclean failed (see %s.log)\n", prefix.c_str());
    return {};
  }
  return readFitsImage(prefix + "-model.fits").pixels;
}

struct RegularizerSet {
  std::string name;                // e.g. "l1+tsv"
  std::vector<std::string> types;  // its terms
};

std::vector<RegularizerSet> parseSets(const std::string& text) {
  std::vector<RegularizerSet> sets;
  if (text.empty() || text == "none")  // the default project and WSClean alone
    return sets;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    RegularizerSet set{text.substr(start, end - start), {}};
    std::size_t a = 0;
    while (a <= set.name.size()) {
      const std::size_t b = std::min(set.name.find('+', a), set.name.size());
      set.types.push_back(set.name.substr(a, b - a));
      a = b + 1;
    }
    sets.push_back(set);
    start = end + 1;
  }
  return sets;
}

// A term written "type=L" keeps the fixed lambda L; the others take `lambda` (a 1-D sweep of the
// free terms at a fixed partner: "l1=1+tsv").
std::vector<project::RegularizerSettings> termsOf(const RegularizerSet& set,
                                                  std::optional<double> lambda) {
  std::vector<project::RegularizerSettings> terms;
  for (const auto& t : set.types) {
    const std::size_t eq = t.find('=');
    if (eq == std::string::npos)
      terms.push_back({t, lambda, false, {}});
    else
      terms.push_back({t.substr(0, eq), std::stod(t.substr(eq + 1)), false, {}});
  }
  return terms;
}

std::string cell(const Scores& s) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f / %.3f / %.3f", s.beam, s.half_beam, s.restored);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::string work = "/tmp/apertura-fidelity";
  int size = 256, iterations = 100;
  bool wsclean = true;
  std::vector<RegularizerSet> sets = parseSets("l1,l1+tsv");
  int max_cases = 1 << 30;
  double only_snr = 0.0;  // 0: both noise levels
  std::string lambda_list;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--no-wsclean")
      wsclean = false;
    else if (a == "--sets" && i + 1 < argc)
      sets = parseSets(argv[++i]);
    else if (a == "--cases" && i + 1 < argc)
      max_cases = std::stoi(argv[++i]);
    else if (a == "--snr" && i + 1 < argc)
      only_snr = std::stod(argv[++i]);
    else if (a == "--lambdas" && i + 1 < argc)
      lambda_list = argv[++i];
    else
      positional.emplace_back(a);
  }
  if (!positional.empty())
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
  // Normalised lambdas (for L1: thresholds in units of the image noise).
  std::vector<double> lambdas = {0.1, 0.3, 1, 3, 10, 30, 100, 300};
  if (!lambda_list.empty()) {
    lambdas.clear();
    for (std::size_t a = 0; a < lambda_list.size();) {
      const std::size_t b = std::min(lambda_list.find(',', a), lambda_list.size());
      lambdas.push_back(std::stod(lambda_list.substr(a, b - a)));
      a = b + 1;
    }
  }

  std::printf("| coverage | sky | SNR | schema-1 default | default (auto) | auto lambda |");
  for (const auto& set : sets)
    std::printf(" %s best lambda | %s best | %s auto |", set.name.c_str(), set.name.c_str(),
                set.name.c_str());
  std::printf(" WSClean | WSClean best (setting) |\n|---|---|---|---|---|---|");
  for (std::size_t k = 0; k < sets.size(); ++k)
    std::printf("---|---|---|");
  std::printf("---|---|\n");
  int cases = 0;
  for (const Coverage& cov : coverages) {
    if (!fs::exists(cov.ms)) {
      std::fprintf(stderr, "%s: %s is absent, skipped\n", cov.name, cov.ms.c_str());
      continue;
    }
    const DatasetSummary summary = summarizeDataset(cov.ms);
    const double cell_rad = summary.suggested_cell_rad;
    const double theta = 5.0 * cell_rad;  // about the synthesized beam
    const FieldInfo& field = summary.fields.at(std::size_t(cov.field));
    for (const char* sky_name : {"disk", "blobs", "points"}) {
      const sim::SkyModel sky = truthSky(sky_name, theta);
      const FitsImage truth = sim::renderSkyImage(sky, size, cell_rad, field.ra_rad, field.dec_rad,
                                                  summary.maxFrequencyHz());
      const std::string base = work + "/" + std::to_string(&cov - coverages) + "-" + sky_name;
      writeFitsImage(base + "-truth.fits", truth);
      for (const double snr : {1000.0, 50.0}) {
        if (only_snr > 0.0 && snr != only_snr)
          continue;
        if (cases++ >= max_cases)
          return 0;
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
        s.imaging.cell_arcsec = cell_rad * 180.0 / M_PI * 3600.0;
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
        const imaging::CleanBeam beam = def->beam;
        const auto scored = [&](const std::shared_ptr<pipeline::ImagingProducts>& p) {
          return score(p->model, &p->restored, truth.pixels, g, beam);
        };
        const Scores d = scored(def);
        project::ProjectSettings v1 = s;
        v1.regularization.scaling = project::ObjectiveScaling::None;
        v1.regularizers = {{"l1", 1e-4, false, {}}, {"tsv", 1e-3, false, {}}};
        const Scores old = scored(run(v1));
        std::fprintf(stderr, "  %s %s snr %g: schema-1 default %s, auto %s (lambda %.3g)\n",
                     cov.name, sky_name, snr, cell(old).c_str(), cell(d).c_str(), def->auto_lambda);
        std::printf("| %s | %s | %g | %s | %s | %.3g |", cov.name, sky_name, snr, cell(old).c_str(),
                    cell(d).c_str(), def->auto_lambda);
        for (const auto& set : sets) {
          Scores best;
          double best_lambda = NAN;
          project::ProjectSettings p = s;
          for (const double lambda : lambdas) {
            p.regularizers = termsOf(set, lambda);
            const Scores sc = scored(run(p));
            std::fprintf(stderr, "  %s %s snr %g: %s %g -> %s\n", cov.name, sky_name, snr,
                         set.name.c_str(), lambda, cell(sc).c_str());
            if (!(sc.beam >= best.beam)) {
              best = sc;
              best_lambda = lambda;
            }
          }
          p.regularizers = termsOf(set, std::nullopt);
          const auto a = run(p);
          const Scores sa = scored(a);
          std::fprintf(stderr, "  %s %s snr %g: %s auto (%.3g) -> %s\n", cov.name, sky_name, snr,
                       set.name.c_str(), a->auto_lambda, cell(sa).c_str());
          std::printf(" %g | %s | %s (%.3g) |", best_lambda, cell(best).c_str(), cell(sa).c_str(),
                      a->auto_lambda);
        }
        // The reference setting, and the best of the sweep at each resolution on its own.
        Scores w, best_w;
        std::string best_beam_setting, best_half_setting;
        for (const WscleanSetting& ws : kWscleanSettings) {
          if (!wsclean)
            break;
          const std::string name =
              tag + "-wsclean" +
              (&ws == kWscleanSettings ? "" : "-" + std::to_string(&ws - kWscleanSettings));
          const std::vector<double> model =
              wscleanModel(like.output, cov.field, size, cell_rad, ws, name);
          if (model.size() != g.numPixels())
            continue;
          const Scores sc = score(model, nullptr, truth.pixels, g, beam);
          std::fprintf(stderr, "  %s %s snr %g: wsclean %s -> %s\n", cov.name, sky_name, snr,
                       ws.name, cell(sc).c_str());
          if (&ws == kWscleanSettings)
            w = sc;
          if (!(sc.beam >= best_w.beam)) {
            best_w.beam = sc.beam;
            best_beam_setting = ws.name;
          }
          if (!(sc.half_beam >= best_w.half_beam)) {
            best_w.half_beam = sc.half_beam;
            best_half_setting = ws.name;
          }
        }
        std::printf(" %.3f / %.3f | %.3f (%s) / %.3f (%s) |\n", w.beam, w.half_beam, best_w.beam,
                    best_beam_setting.c_str(), best_w.half_beam, best_half_setting.c_str());
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
