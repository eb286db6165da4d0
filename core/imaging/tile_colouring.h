#pragma once

#include <cstdint>
#include <vector>

namespace apertura::imaging {

// Tiles of a periodic grid grouped into colours such that no two tiles of one colour write a
// common grid cell. A tile starting at cell i * tile_size writes `span` cells per axis (its own
// cells plus the kernel halo), wrapping around the grid. Usually 2 x 2 colours; an odd tile count
// or a ragged last tile needs a third colour on that axis.
struct TileColouring {
  int tiles_u = 0, tiles_v = 0;
  std::vector<std::vector<std::uint32_t>> tiles;  // per colour: tile indices tv * tiles_u + tu
};

// Greedy colouring of one axis in index order (deterministic): colour[i] for each tile.
std::vector<int> colourAxis(int tiles, int tile_size, int span, int cells);

TileColouring colourTiles(int tiles_u, int tiles_v, int tile_size, int span, int cells_u,
                          int cells_v);

}  // namespace apertura::imaging
