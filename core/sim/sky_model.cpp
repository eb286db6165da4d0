#include "core/sim/sky_model.h"

namespace apertura::sim {

double SkyModel::totalFluxJy() const {
  double sum = 0.0;
  for (const auto& p : points)
    sum += p.flux_jy;
  for (const auto& g : gaussians)
    sum += g.flux_jy;
  for (const auto& d : disks)
    sum += d.flux_jy;
  return sum;
}

}  // namespace apertura::sim
