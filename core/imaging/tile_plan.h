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
  // Tile edge in cells; a constant so that the planner's divisions by it are shifts.
  static constexpr int kTileSize = 32;
  int tile_size = kTileSize;
  int tiles_u = 0, tiles_v = 0, groups = 1;
  std::vector<std::uint32_t> order;  // sample indices
  std::vector<std::uint32_t> start;  // groups * tiles_u * tiles_v + 1 offsets into order
  // Parallel to order when stored: single precision without w-stacking (float y moves a sample by
  // up to 3e-8 cells, fine for float accuracy, not for double).
  std::vector<TapPosition> positions;

  std::size_t numTiles() const { return std::size_t(tiles_u) * tiles_v; }
};

// floor(x) and ceil(x) without the libm call a baseline x86-64 build may make (no SSE4.1 round
// instruction) and without a data-dependent branch (the sign of grid coordinates is random):
// truncate, then step towards -inf / +inf for non-integers. Equal to std::floor and std::ceil up
// to the sign of a zero result; huge values and NaN take the library path.
inline double fastFloor(double x) {
  if (!(std::fabs(x) < 4.0e18))
    return std::floor(x);
  const double t = double(static_cast<std::int64_t>(x));
  return t - double(t > x);
}

inline double fastCeil(double x) {
  if (!(std::fabs(x) < 4.0e18))
    return std::ceil(x);
  const double t = double(static_cast<std::int64_t>(x));
  return t + double(t < x);
}

// floor(g / n) exactly as computed with the division, but from a multiplication by inv_n = 1 / n:
// both quotients lie within 2 ulp of the exact one, so their floors agree unless the quotient is
// within 1e-9 of an integer (or huge), where the division decides.
inline double floorQuotient(double g, double n, double inv_n) {
  const double q = g * inv_n;
  const double f = fastFloor(q);
  const double frac = q - f;
  if (frac > 1e-9 && frac < 1.0 - 1e-9 && std::fabs(q) < 1.0e6)
    return f;
  return fastFloor(g / n);
}

// First tap of a kernel of support W around grid coordinate g, wrapped into [0, n).
// y = 2 (i0 - g) + W - 1 in [-1, 1) is the kernel polynomial's variable.
inline int firstTap(double g, int support, int n, double inv_n, double* y = nullptr) {
  const double wrapped = g - n * floorQuotient(g, n, inv_n);
  const double i0d = fastCeil(wrapped - 0.5 * support);
  if (y)
    *y = 2.0 * (i0d - wrapped) + support - 1;
  int i0 = int(i0d);
  if (i0 < 0)
    i0 += n;
  if (i0 >= n)
    i0 -= n;
  return i0;
}

inline int firstTap(double g, int support, int n, double* y = nullptr) {
  return firstTap(g, support, n, 1.0 / n, y);
}

TilePlan buildTilePlan(const BlockScales& scales, int support, int grid_u, int grid_v,
                       int w_support, int w_groups, bool store_positions);

}  // namespace apertura::imaging
