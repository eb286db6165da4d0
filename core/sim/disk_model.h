#pragma once

#include <vector>

#include "core/sim/sky_model.h"

namespace apertura::sim {

// The radial profile of a RingDiskSource as uniform annuli: brightness[k] holds between
// radius[k] and radius[k+1] (in the disk plane), in units such that the whole inclined disk
// carries flux_jy. Built once per source; shared by the visibility and the image renderer so the
// two describe the same sky.
struct DiskProfile {
  std::vector<double> radius;      // n + 1 increasing boundaries (rad)
  std::vector<double> brightness;  // n values, Jy per steradian of sky (projected)
  double cos_inclination = 1.0;
  double sin_pa = 0.0;
  double cos_pa = 1.0;
};

DiskProfile makeDiskProfile(const RingDiskSource& disk);

// Visibility of the disk centred on the phase centre at (u, v) in wavelengths, before the
// spectral and position factors: real, because the disk is point-symmetric.
double diskVisibility(const DiskProfile& profile, double u, double v);

// Surface brightness (Jy/sr) at sky offset (dl, dm) from the disk centre.
double diskBrightness(const DiskProfile& profile, double dl, double dm);

}  // namespace apertura::sim
