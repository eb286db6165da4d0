#include <cstdio>
#include <sstream>

#include "core/io/fits_cube_io.h"
#include "core/io/fits_image_io.h"
#include "core/pipeline/image_header.h"
#include "core/pipeline/lambda_path.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/project/project_file.h"
#include "core/util/atomic_file.h"
#include "core/util/output_set.h"
#include "core/version.h"

namespace apertura::pipeline {
namespace {

// A cube run's image (plane-major pixels) has a FREQ axis and one beam per plane.
template <typename T>
void writeImage(const std::string& path, const std::vector<T>& pixels, const std::string& bunit,
                bool with_beam, const ImagingProducts& p, const std::vector<std::string>& history) {
  if (!p.plane_frequencies_hz.empty()) {
    FitsCube c;
    c.header = imageHeader(p, bunit, history);
    c.planes = p.planes;
    c.pixels.assign(pixels.begin(), pixels.end());
    c.frequencies_hz = p.plane_frequencies_hz;
    c.bandwidths_hz = p.plane_bandwidths_hz;
    if (with_beam) {
      for (const auto& b : p.plane_beams)
        c.beams.push_back(ImageBeam{b.bmaj, b.bmin, b.bpa});
    }
    writeFitsCube(path, c);
    return;
  }
  FitsImage f = imageHeader(p, bunit, history);
  f.pixels.assign(pixels.begin(), pixels.end());
  f.frequency_hz = p.frequency_hz;
  f.bandwidth_hz = p.bandwidth_hz;
  if (with_beam)
    f.beam = ImageBeam{p.beam.bmaj, p.beam.bmin, p.beam.bpa};
  writeFitsImage(path, f);
}

std::string metricsCsv(const ImagingProducts& p) {
  std::ostringstream o;
  o.precision(10);
  o << "iteration,objective,chi2_per_dof,gradient_norm,step,seconds";
  const std::vector<std::pair<std::string, double>> none;
  const auto& names = p.metrics.empty() ? none : p.metrics.front().terms;
  for (const auto& t : names)
    o << "," << t.first;
  o << "\n";
  for (const auto& m : p.metrics) {
    o << m.iteration << "," << m.objective << "," << m.chi2_per_dof << "," << m.gradient_norm << ","
      << m.step << "," << m.seconds;
    for (const auto& t : m.terms)
      o << "," << t.second;
    o << "\n";
  }
  return o.str();
}

// The automatic lambda's path: one row per step (strongest first), then a row "chosen" with the
// lambda the run used. Held-out columns only for cross-validation.
std::string lambdaPathCsv(const ImagingProducts& p) {
  std::ostringstream o;
  o.precision(10);
  const bool cv = isCrossValidatedPath(p.lambda_path);
  const std::size_t folds = p.lambda_path.front().fold_validation.size();
  o << "row,lambda,training_chi2_reduced";
  if (cv) {
    o << ",held_out_chi2_reduced";
    for (std::size_t f = 1; f <= folds; ++f)
      o << ",held_out_fold_" << f;
  }
  o << "\n";
  for (const auto& step : p.lambda_path) {
    o << "step," << step.lambda << "," << step.chi2_reduced;
    if (cv) {
      o << "," << step.validation;
      for (std::size_t f = 0; f < folds; ++f)
        o << "," << (f < step.fold_validation.size() ? step.fold_validation[f] : 0.0);
    }
    o << "\n";
  }
  o << "chosen," << p.auto_lambda << ",";
  if (cv)
    o << std::string(folds + 1, ',');
  o << "\n";
  return o.str();
}

}  // namespace

void exportStage(engine::RunContext& ctx, ImagingProducts& p) {
  const auto& s = ctx.settings();
  const std::string& prefix = s.output.prefix;
  if (prefix.empty())
    return;
  const std::vector<std::string> history = provenanceHistory(s);
  OutputSet outputs;
  const auto emit = [&](bool wanted, const std::string& suffix, auto&& write) {
    if (wanted)
      outputs.write(prefix + suffix, write);
  };
  emit(s.output.dirty && !p.dirty.empty(), "-dirty.fits",
       [&](const std::string& f) { writeImage(f, p.dirty, "JY/BEAM", true, p, history); });
  emit(s.output.psf && !p.psf.empty(), "-psf.fits",
       [&](const std::string& f) { writeImage(f, p.psf, "", true, p, history); });
  emit(s.output.model && !p.model.empty(), "-model.fits",
       [&](const std::string& f) { writeImage(f, p.model, "JY/PIXEL", false, p, history); });
  emit(s.output.residual && !p.residual.empty(), "-residual.fits",
       [&](const std::string& f) { writeImage(f, p.residual, "JY/BEAM", true, p, history); });
  emit(s.output.restored && !p.restored.empty(), "-restored.fits",
       [&](const std::string& f) { writeImage(f, p.restored, "JY/BEAM", true, p, history); });
  // A linear spectrum's spectral index beside its restored image (dimensionless, NaN where the
  // emission is not significant).
  emit(s.output.restored && !p.spectral_index.empty(), "-alpha.fits",
       [&](const std::string& f) { writeImage(f, p.spectral_index, "", true, p, history); });
  emit(s.output.metrics_csv, "-metrics.csv",
       [&](const std::string& f) { writeFileAtomically(f, metricsCsv(p)); });
  emit(s.output.metrics_csv && !p.lambda_path.empty(), "-lambda-path.csv",
       [&](const std::string& f) { writeFileAtomically(f, lambdaPathCsv(p)); });
  outputs.commit();
  for (const std::string& f : outputs.finalPaths())
    p.written_files.push_back(f);
}

}  // namespace apertura::pipeline
