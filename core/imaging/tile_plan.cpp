#include "core/imaging/tile_plan.h"

#include <stdexcept>

namespace apertura::imaging {

TilePlan buildTilePlan(const BlockScales& scales, int support, int grid_u, int grid_v,
                       int w_support, int w_groups, bool store_positions) {
  TilePlan plan;
  plan.tiles_u = (grid_u + plan.tile_size - 1) / plan.tile_size;
  plan.tiles_v = (grid_v + plan.tile_size - 1) / plan.tile_size;
  plan.groups = std::max(1, w_groups);
  const std::size_t n = scales.block.numSamples();
  if (n > 0xffffffffu)
    throw std::length_error("a visibility block holds more than 2^32 samples");
  const std::size_t tiles = plan.numTiles();
  std::vector<std::uint32_t> key(n);
  std::vector<std::uint32_t> count(tiles * plan.groups + 1, 0);
  for (std::size_t s = 0; s < n; ++s) {
    double gu, gv, gw;
    scales.coordinates(std::uint32_t(s), gu, gv, gw);
    const int tu = firstTap(gu, support, grid_u) / plan.tile_size;
    const int tv = firstTap(gv, support, grid_v) / plan.tile_size;
    int group = 0;
    if (plan.groups > 1) {
      group = int(std::ceil(gw - 0.5 * w_support));
      group = std::min(std::max(group, 0), plan.groups - 1);
    }
    key[s] = std::uint32_t((std::size_t(group) * plan.tiles_v + tv) * plan.tiles_u + tu);
    ++count[key[s] + 1];
  }
  for (std::size_t k = 1; k < count.size(); ++k)
    count[k] += count[k - 1];
  plan.start = count;
  plan.order.resize(n);
  for (std::size_t s = 0; s < n; ++s)
    plan.order[count[key[s]]++] = std::uint32_t(s);
  if (store_positions && plan.groups == 1) {
    plan.positions.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      double gu, gv, gw, yu, yv;
      scales.coordinates(plan.order[k], gu, gv, gw);
      const int iu = firstTap(gu, support, grid_u, &yu);
      const int iv = firstTap(gv, support, grid_v, &yv);
      plan.positions[k] = TapPosition{float(yu), float(yv), std::uint16_t(iu % plan.tile_size),
                                      std::uint16_t(iv % plan.tile_size)};
    }
  }
  return plan;
}

}  // namespace apertura::imaging
