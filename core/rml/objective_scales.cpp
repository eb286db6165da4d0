#include "core/rml/objective_scales.h"

#include <algorithm>
#include <cmath>

namespace apertura::rml {

double ObjectiveScales::term(const TermNormalisation& n) const {
  // Degree 2: the data term's curvature 1 / (N sigma^2); degree 1: a threshold of lambda times
  // the true image noise against that curvature.
  return std::pow(beam_area_pixels, n.beam_power) * std::pow(true_noise, 2.0 - n.flux_power) /
         (samples * image_noise * image_noise);
}

ObjectiveScales normalisedScales(const NoiseModel& noise) {
  ObjectiveScales s;
  const double n = double(std::max<std::size_t>(1, noise.samples));
  const double scale = noise.weight_scale > 0.0 ? noise.weight_scale : 1.0;
  s.samples = n;
  s.data = 1.0 / (2.0 * n * scale);
  // No weight at all: any finite noise keeps the terms finite (there is nothing to fit).
  s.image_noise = noise.sum_weights > 0.0 ? std::sqrt(scale / noise.sum_weights) : 1.0;
  s.beam_area_pixels = std::max(1.0, noise.beam_area_pixels);
  const double unique = std::clamp(1.0 - noise.duplicate_fraction, 1e-3, 1.0);
  s.true_noise = s.image_noise / std::sqrt(unique);
  return s;
}

double beamAreaPixels(double bmaj_rad, double bmin_rad, double cell_rad) {
  if (!(cell_rad > 0.0) || !(bmaj_rad > 0.0) || !(bmin_rad > 0.0))
    return 1.0;
  const double area = M_PI / (4.0 * std::log(2.0)) * bmaj_rad * bmin_rad / (cell_rad * cell_rad);
  return std::max(1.0, area);
}

}  // namespace apertura::rml
