#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/imaging/uv_samples.h"

namespace apertura::imaging {

// Per-block factors that turn (row, channel) into grid coordinates on the fly:
//   gu = u_m * scale_u[c], in grid cells (u in wavelengths times cell_l * Nx), likewise gv; and
//   gw = w_m * scale_w[c] - w_offset, in w-plane units (only with w-stacking).
struct BlockScales {
  UvwBlock block;
  std::vector<double> scale_u, scale_v, scale_w;
  double w_offset = 0.0;

  const double* rowOf(std::uint32_t sample) const {
    const std::size_t nchan = block.num_channels;
    return block.uvw_m + 3 * (nchan == 1 ? sample : sample / nchan);
  }

  void coordinates(std::uint32_t sample, double& gu, double& gv, double& gw) const {
    const std::size_t nchan = block.num_channels;
    const std::size_t r = nchan == 1 ? sample : sample / nchan;
    const std::size_t c = nchan == 1 ? 0 : sample - r * nchan;
    const double* uvw = block.uvw_m + 3 * r;
    gu = uvw[0] * scale_u[c];
    gv = uvw[1] * scale_v[c];
    gw = scale_w.empty() ? 0.0 : uvw[2] * scale_w[c] - w_offset;
  }
};

// Samples of one block sorted by (w plane group, grid tile) with a counting sort, so that each
// task works on one tile of TS x TS cells (plus the kernel's halo) in a small local buffer. The
// group of a sample is its first w plane (0 without w-stacking); its tile is that of its first
// kernel tap, i0 = ceil(g - W/2) taken modulo the grid size.
// Where a sample's kernel taps start, relative to its tile's origin, and the polynomial variable
// of each axis (see KernelPolynomial). Stored in tile order so the tile loops stream through it
// instead of gathering uvw rows from all over the block.
struct TapPosition {
  float yu, yv;
  std::uint16_t iu, iv;
};

struct TilePlan {
  int tile_size = 32;
  int tiles_u = 0, tiles_v = 0, groups = 1;
  std::vector<std::uint32_t> order;  // sample indices
  std::vector<std::uint32_t> start;  // groups * tiles_u * tiles_v + 1 offsets into order
  // Parallel to order when stored: single precision without w-stacking (float y moves a sample by
  // up to 3e-8 cells, fine for float accuracy, not for double).
  std::vector<TapPosition> positions;

  std::size_t numTiles() const { return std::size_t(tiles_u) * tiles_v; }
};

// First tap of a kernel of support W around grid coordinate g, wrapped into [0, n).
// y = 2 (i0 - g) + W - 1 in [-1, 1) is the kernel polynomial's variable.
inline int firstTap(double g, int support, int n, double* y = nullptr) {
  const double wrapped = g - n * std::floor(g / n);
  const double i0d = std::ceil(wrapped - 0.5 * support);
  if (y)
    *y = 2.0 * (i0d - wrapped) + support - 1;
  int i0 = int(i0d);
  if (i0 < 0)
    i0 += n;
  if (i0 >= n)
    i0 -= n;
  return i0;
}

TilePlan buildTilePlan(const BlockScales& scales, int support, int grid_u, int grid_v,
                       int w_support, int w_groups, bool store_positions);

}  // namespace apertura::imaging
