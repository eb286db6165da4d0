#pragma once

#include <complex>
#include <cstdint>

#include "core/imaging/kernel_poly.h"
#include "core/imaging/tile_plan.h"

namespace apertura::imaging {

// One tile's worth of work: the samples of one tile of the plan, against a local buffer of
// (tile_size + W - 1)^2 cells (real and imaginary parts in separate planes so the tap loops
// vectorise) whose cell (0, 0) is grid cell (u0, v0). Copying the buffer from and to the
// periodic grid is the caller's job, so these loops never wrap indices.
template <typename T>
struct TileContext {
  const BlockScales* scales = nullptr;
  const KernelPolynomial<T>* poly = nullptr;
  int grid_u = 0, grid_v = 0;
  int u0 = 0, v0 = 0;
  int stride = 0;  // buffer row length
  // Precomputed tap positions of this tile's samples (parallel to the sample indices), or null
  // to compute them from uvw (w-stacking, double precision).
  const TapPosition* positions = nullptr;
  T* re = nullptr;
  T* im = nullptr;
  // w-stacking: the w kernel, and the plane this pass works on (samples off this plane's kernel
  // footprint contribute nothing).
  const KernelPolynomial<T>* w_poly = nullptr;
  int plane = 0;
  double w0 = 0.0, dw = 1.0, x0 = 0.0;  // see WStackLayout
};

// buffer += sum over samples of weight * vis * kernel taps
template <typename T>
void gridTile(const TileContext<T>& tile, const std::uint32_t* begin, const std::uint32_t* end,
              const std::complex<T>* vis, const float* weights);

// vis += interpolation of the buffer at each sample
template <typename T>
void degridTile(const TileContext<T>& tile, const std::uint32_t* begin, const std::uint32_t* end,
                std::complex<T>* vis);

}  // namespace apertura::imaging
