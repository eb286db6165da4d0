#pragma once

#include <cstddef>

#include "core/rml/builtin_regularizers.h"

namespace apertura::rml {

// The normalised objective (project schema 2, regularization.scaling "normalised"):
//   J(I) = chi2(I) / (2 N s) + sum_k lambda_k * R_k(I) * area^b_k / (N sigma^p_k)
// with N the samples with w > 0, s the weight scale (NoiseScatter: the variance the visibilities
// show over the one their weights claim), sigma = sqrt(s / sum w) the natural-weighted image noise
// (Jy/beam), area the clean beam's area in pixels, and (p_k, b_k) the term's TermNormalisation.
// (With duplicated samples, a fraction f, the terms of degree 1 use sigma_true / sigma^2 in place
// of 1 / sigma, sigma_true = sigma / sqrt(1 - f): a copied data set keeps lambda's meaning.)
// The data term is the reduced chi-squared (about 1 for a fit at the noise level, whatever the
// data volume or weight scale). At I = 0 its gradient is -D / (N sigma^2), D the natural-weighted
// dirty image, so L1 with weight lambda keeps a pixel at zero while |D| < lambda sigma: lambda is
// a threshold in units of the image noise, as a CLEAN threshold is. TV and Huber compare with L1
// on beam-sized structure; quadratic terms (TSV, L2, Laplacian) with the data term's curvature.
struct NoiseModel {
  std::size_t samples = 0;    // N, with w > 0 (over every plane of a cube)
  double sum_weights = 0.0;   // of one image: the whole sum for MFS, a plane's mean for a cube
  double weight_scale = 1.0;  // s
  double beam_area_pixels = 1.0;
  // Samples that copy another (NoiseScatter::duplicateFraction): the weights then claim a noise
  // sqrt(1 / (1 - f)) times lower than the image has.
  double duplicate_fraction = 0.0;
};

struct ObjectiveScales {
  double data = 1.0;         // multiplies chi2
  double image_noise = 0.0;  // sigma, Jy/beam, as the weights (rescaled by s) claim
  double true_noise = 0.0;   // sigma with duplicated samples counted once
  double samples = 1.0;      // N
  double beam_area_pixels = 1.0;
  // The factor a term of this normalisation is multiplied by (lambda aside).
  double term(const TermNormalisation& n) const;
};

ObjectiveScales normalisedScales(const NoiseModel& noise);

// The clean beam's area in pixels: pi / (4 ln 2) * bmaj * bmin / cell^2 (at least one pixel).
double beamAreaPixels(double bmaj_rad, double bmin_rad, double cell_rad);

}  // namespace apertura::rml
