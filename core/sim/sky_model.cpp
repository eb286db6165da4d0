#include "core/sim/sky_model.h"

#include "core/sim/image_predictor.h"

namespace apertura::sim {

double SkyModel::totalFluxJy() const {
  double sum = 0.0;
  for (const auto& p : points)
    sum += p.flux_jy;
  for (const auto& g : gaussians)
    sum += g.flux_jy;
  for (const auto& d : disks)
    sum += d.flux_jy;
  if (fast_image)
    sum += fast_image->totalFluxJy();
  return sum;
}

}  // namespace apertura::sim
