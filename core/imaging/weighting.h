#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/imaging/image_geometry.h"
#include "core/imaging/uv_samples.h"
#include "core/imaging/weighting_scheme.h"

namespace apertura::imaging {

struct WeightingSettings {
  WeightingScheme scheme = WeightingScheme::Natural;
  double robust = 0.0;  // Briggs robust parameter, -2 (~uniform) .. 2 (~natural)
  // Gaussian uv taper, given as the FWHM of the image-plane Gaussian it convolves with (arcsec) or
  // as the FWHM in the uv plane (wavelengths).
  std::optional<double> taper_fwhm_arcsec;
  std::optional<double> taper_fwhm_lambda;
  // Super-uniform weighting: the weight grid's cells are this many times the image's uv cell
  // (1 / field of view), i.e. densities are counted over a field of view this many times smaller.
  double super_uniform = 1.0;

  // "natural", "uniform", "radial", "briggs" (robust 0) or "briggs:R"; throws InputError.
  static WeightingSettings parse(const std::string& text);
  std::string describe() const;
};

// Imaging weights block by block, for data that are read again on every pass: addDensity() for
// every block (uniform and Briggs only: needsDensity()), finishDensity(), then weights() for any
// block. imagingWeights() below does the same for blocks held in memory.
class ImagingWeighter {
 public:
  // Throws InputError for a non-positive super-uniform factor.
  ImagingWeighter(const ImageGeometry& geometry, const WeightingSettings& settings);

  bool needsDensity() const { return gridded_; }
  // data_weights may be null (all ones).
  void addDensity(const UvwBlock& block, const float* data_weights);
  // The gridded density, for summing over processes (MPI) before finishDensity().
  std::vector<double>& density() { return density_; }
  void finishDensity();
  // out[k] = imaging weight of sample k of `block`.
  void weights(const UvwBlock& block, const float* data_weights, float* out) const;

 private:
  std::size_t cell(double u, double v) const;

  WeightingSettings settings_;
  bool gridded_ = false;
  int nu_ = 1, nv_ = 1;
  double du_ = 1.0, dv_ = 1.0;
  std::vector<double> density_;
  double f2_ = 0.0;       // Briggs
  double taper_k_ = 0.0;  // weight *= exp(-taper_k * (u^2 + v^2))
};

// Imaging weights of every sample (data weight times the scheme's factor times the taper), one
// vector per block; data_weights[b] may be null (all ones). Densities for uniform and Briggs come
// from a gridded pass over all blocks that counts each sample at (u, v) and at (-u, -v), since a
// Measurement Set holds each baseline once. Briggs follows Briggs (1995) / CASA:
//   f^2 = (5 * 10^-R)^2 / (sum_cells D^2 / sum_cells D),  weight = w / (1 + D_k f^2),
// with D the gridded weight density and D_k the density in sample k's cell.
std::vector<std::vector<float>> imagingWeights(const std::vector<UvwBlock>& blocks,
                                               const std::vector<const float*>& data_weights,
                                               const ImageGeometry& geometry,
                                               const WeightingSettings& settings);

}  // namespace apertura::imaging
