#include "core/imaging/tile_colouring.h"

#include <algorithm>

namespace apertura::imaging {

namespace {

// Whether the cyclic cell ranges [a, a + span) and [b, b + span) modulo `cells` share a cell.
bool overlaps(int a, int b, int span, int cells) {
  if (span >= cells)
    return true;
  const int d = ((b - a) % cells + cells) % cells;  // b's offset from a, in [0, cells)
  return d < span || cells - d < span;
}

}  // namespace

std::vector<int> colourAxis(int tiles, int tile_size, int span, int cells) {
  std::vector<int> colour(std::size_t(std::max(tiles, 0)), 0);
  for (int i = 0; i < tiles; ++i) {
    std::vector<bool> used;
    for (int j = 0; j < i; ++j) {
      if (!overlaps(i * tile_size, j * tile_size, span, cells))
        continue;
      if (std::size_t(colour[j]) >= used.size())
        used.resize(colour[j] + 1, false);
      used[colour[j]] = true;
    }
    int c = 0;
    while (std::size_t(c) < used.size() && used[c])
      ++c;
    colour[i] = c;
  }
  return colour;
}

TileColouring colourTiles(int tiles_u, int tiles_v, int tile_size, int span, int cells_u,
                          int cells_v) {
  TileColouring out;
  out.tiles_u = tiles_u;
  out.tiles_v = tiles_v;
  const std::vector<int> cu = colourAxis(tiles_u, tile_size, span, cells_u);
  const std::vector<int> cv = colourAxis(tiles_v, tile_size, span, cells_v);
  const int nu = cu.empty() ? 0 : *std::max_element(cu.begin(), cu.end()) + 1;
  const int nv = cv.empty() ? 0 : *std::max_element(cv.begin(), cv.end()) + 1;
  out.tiles.resize(std::size_t(nu) * nv);
  for (int tv = 0; tv < tiles_v; ++tv)
    for (int tu = 0; tu < tiles_u; ++tu)
      out.tiles[std::size_t(cv[tv]) * nu + cu[tu]].push_back(std::uint32_t(tv) * tiles_u + tu);
  return out;
}

}  // namespace apertura::imaging
