#include "core/pipeline/run_diagnosis.h"

#include <algorithm>
#include <cmath>

#include "core/pipeline/mask_raster.h"
#include "core/util/number_text.h"

namespace apertura::pipeline {
namespace {

// Conventional detection threshold: a peak below 3 noise is not emission.
constexpr double kDetection = 3.0;
// A reduced chi-squared beyond these is no longer noise: 2 on the normalised objective (the
// weights are checked against the visibilities' scatter), 3 either way with absolute weights
// taken on trust.
constexpr double kFitFarAbove = 2.0;
constexpr double kFitFarBelow = 0.5;
constexpr double kWeightsOff = 3.0;

std::string emptyModel(const project::ProjectSettings& s, const ImagingProducts& out) {
  const std::vector<double> mask = rasterizeMask(s.mask, out.geometry.nx, out.geometry.ny);
  if (!s.mask.empty() && s.optimizer.mask_support &&
      std::none_of(mask.begin(), mask.end(), [](double m) { return m > 0; }))
    return "the model is empty: the mask covers no pixel of the " +
           std::to_string(out.geometry.nx) + " x " + std::to_string(out.geometry.ny) +
           " image, so every pixel is held at zero; draw it inside the image, or remove it";
  const double peak =
      out.dirty.empty() ? 0.0 : double(*std::max_element(out.dirty.begin(), out.dirty.end()));
  const double noise = out.image_noise;
  const std::string peak_text =
      significantDigits(peak) + " Jy/beam" +
      (noise > 0.0 ? ", " + significantDigits(peak / noise) + " times the image noise " +
                         significantDigits(noise)
                   : std::string());
  if (s.optimizer.positivity != project::Positivity::None && noise > 0.0 &&
      peak <= kDetection * noise)
    return "the model is empty: the dirty image's peak is " + peak_text +
           ", so positivity holds every pixel at zero; check the field (data.field_id), the "
           "phase centre and the data column (data.column), or image without positivity";
  double l1 = -1.0;
  for (const auto& r : s.regularizers)
    if (r.type == "l1" && r.lambda != 0.0)
      l1 = r.lambda.value_or(out.auto_lambda);
  if (l1 > 0.0)
    return "the model is empty: L1 at lambda " + significantDigits(l1) +
           " holds every pixel at zero (the dirty image's peak is " + peak_text +
           "); a smaller lambda keeps the emission";
  return "the model is empty (every pixel 0) after " + std::to_string(out.iterations) +
         " iterations (" + out.stop_reason + ")";
}

}  // namespace

std::vector<std::string> diagnoseRun(const project::ProjectSettings& s,
                                     const ImagingProducts& out) {
  std::vector<std::string> found;
  const bool empty =
      std::all_of(out.model.begin(), out.model.end(), [](double v) { return v == 0; });
  if (!out.model.empty() && empty)
    found.push_back(emptyModel(s, out));
  else if (out.iterations == 0)
    found.push_back("the optimizer stopped before its first iteration (" + out.stop_reason +
                    "): the image is the one it started from");
  const double fit = out.chi2_per_dof;
  if (!std::isfinite(fit) || out.iterations == 0)
    return found;
  if (s.regularization.scaling == project::ObjectiveScaling::Normalised) {
    if (fit > kFitFarAbove)
      found.push_back("the fit ends at reduced chi2 " + significantDigits(fit) +
                      ", far above the noise (1): the model cannot represent these data. "
                      "Likely: calibration errors, emission outside the image (a larger "
                      "image), a spectral index across the band imaged as one plane "
                      "(imaging.spectral_mode cube), or too few iterations");
    else if (fit < kFitFarBelow)
      found.push_back("the fit ends at reduced chi2 " + significantDigits(fit) +
                      ", far below the noise (1): the model fits the noise; a stronger lambda "
                      "(or lambda auto) keeps it out");
  } else if (fit > kWeightsOff || fit < 1.0 / kWeightsOff) {
    found.push_back("chi2/dof " + significantDigits(fit) +
                    " with regularization.scaling none: the weights are not absolute; the "
                    "normalised scaling rescales them from the visibilities' scatter");
  }
  return found;
}

}  // namespace apertura::pipeline
