#pragma once

#include <complex>
#include <cstddef>
#include <vector>

#include "core/imaging/grid_tiles.h"
#include "core/imaging/kernel.h"
#include "core/imaging/kernel_poly.h"
#include "core/imaging/tile_colouring.h"
#include "core/imaging/tile_plan.h"
#include "core/imaging/w_stacking.h"

namespace apertura::imaging {

// The CPU operator's passes over one block's tile plan: each tile's samples are gridded into (or
// degridded from) a small local buffer that is copied from or added to the periodic grid. Kept
// apart from the operator, which owns the grids, the FFTs and the gridding correction. Callers run
// these inside their task arena.
template <typename T>
class CpuTilePasses {
 public:
  using Complex = std::complex<T>;

  // The references stay owned by the operator and must outlive this object.
  CpuTilePasses(const KernelShape& kernel, const KernelPolynomial<T>& poly,
                const KernelPolynomial<T>& w_poly, const WStackLayout& wstack, int grid_u,
                int grid_v);

  // Degrids the block's samples whose w group touches `plane` from `grid`.
  void degrid(const BlockScales& sc, const TilePlan& plan, int plane, const Complex* grid,
              Complex* vis_out) const;

  // Grids the block's samples whose w group touches `plane` into `grid`, a grid of T or, for the
  // wide accumulator, of double.
  template <typename C>
  void grid(const BlockScales& sc, const TilePlan& plan, int plane, const Complex* vis_in,
            const float* weights, C* grid);

 private:
  TileContext<T> context(const BlockScales& sc, const TilePlan& plan, int plane, std::size_t k,
                         std::vector<T>& buf) const;
  const TileColouring& colouringFor(const TilePlan& plan);
  void loadTile(const TileContext<T>& t, int span, const Complex* grid) const;
  template <typename C>
  void storeTile(const TileContext<T>& t, int span, C* grid) const;

  const KernelShape& kernel_;
  const KernelPolynomial<T>& poly_;
  const KernelPolynomial<T>& w_poly_;
  const WStackLayout& wstack_;
  int nu_, nv_;
  TileColouring colouring_;
};

}  // namespace apertura::imaging
