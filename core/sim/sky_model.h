#pragma once

#include <memory>
#include <vector>

namespace apertura::sim {

// Positions are direction cosines (l, m) relative to the phase centre: l towards east (increasing
// RA), m towards north. They are the SIN-projection offsets a radio image shows, so an image
// pixel at (l, m) and a component at (l, m) coincide. Angles are radians; fluxes are Jy at
// reference_frequency_hz of the SkyModel, scaled by (nu / nu_ref)^spectral_index.

struct PointSource {
  double flux_jy = 0.0;
  double l = 0.0;
  double m = 0.0;
  double spectral_index = 0.0;
};

// Elliptical Gaussian: FWHM along the major and minor axes; position angle of the major axis
// measured from north through east.
struct GaussianSource {
  double flux_jy = 0.0;
  double l = 0.0;
  double m = 0.0;
  double major_fwhm = 0.0;
  double minor_fwhm = 0.0;
  double position_angle = 0.0;
  double spectral_index = 0.0;
};

// A protoplanetary-disk-like source: an optically thin, geometrically flat disk whose surface
// brightness falls as r^-power_index between inner_radius and outer_radius, with a gap
// (brightness times gap_depth) between gap_inner and gap_outer, seen at inclination (0 = face-on)
// with the major axis (line of nodes) at position_angle (north through east). Radii are angles on
// the sky measured in the disk plane. The profile is represented by concentric uniform annuli, so
// its visibilities are an exact sum of Bessel functions (see disk_model.h).
struct RingDiskSource {
  double flux_jy = 0.0;
  double l = 0.0;
  double m = 0.0;
  double inner_radius = 0.0;
  double gap_inner = 0.0;
  double gap_outer = 0.0;
  double outer_radius = 0.0;
  double gap_depth = 0.0;  // 0: empty gap; 1: no gap
  double power_index = 1.0;
  double inclination = 0.0;
  double position_angle = 0.0;
  double spectral_index = 0.0;
  int annuli = 48;  // annuli outside the gap; more follow the power law more closely
};

class FastImageModel;  // image_predictor.h

struct SkyModel {
  double reference_frequency_hz = 1.0e9;
  std::vector<PointSource> points;  // image pixels become point sources (the exact DFT path)
  std::vector<GaussianSource> gaussians;
  std::vector<RingDiskSource> disks;
  // An image predicted through the gridding operator (the fast path for large jobs), added to
  // the components; flat spectrum.
  std::shared_ptr<const FastImageModel> fast_image;

  bool empty() const { return points.empty() && gaussians.empty() && disks.empty() && !fast_image; }
  double totalFluxJy() const;  // at the reference frequency
};

}  // namespace apertura::sim
