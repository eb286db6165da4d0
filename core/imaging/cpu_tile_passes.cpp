#include "core/imaging/cpu_tile_passes.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>

namespace apertura::imaging {

template <typename T>
CpuTilePasses<T>::CpuTilePasses(const KernelShape& kernel, const KernelPolynomial<T>& poly,
                                const KernelPolynomial<T>& w_poly, const WStackLayout& wstack,
                                int grid_u, int grid_v)
    : kernel_(kernel), poly_(poly), w_poly_(w_poly), wstack_(wstack), nu_(grid_u), nv_(grid_v) {}

// Every sample is read by one task and the grid is only read, so tiles run in any order.
template <typename T>
void CpuTilePasses<T>::degrid(const BlockScales& sc, const TilePlan& plan, int plane,
                              const Complex* grid, Complex* vis_out) const {
  const int span = plan.tile_size + kernel_.support - 1;
  const std::size_t tiles = plan.numTiles();
  const int g_lo = wstack_.active ? std::max(0, plane - kernel_.support + 1) : 0;
  const int g_hi = wstack_.active ? std::min(plan.groups - 1, plane) : 0;
  tbb::enumerable_thread_specific<std::vector<T>> buffers;
  const std::size_t first = std::size_t(g_lo) * tiles, last = std::size_t(g_hi + 1) * tiles;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(first, last, 4), [&](const auto& range) {
    std::vector<T>& buf = buffers.local();
    for (std::size_t key = range.begin(); key != range.end(); ++key) {
      const std::uint32_t* begin = plan.order.data() + plan.start[key];
      const std::uint32_t* end = plan.order.data() + plan.start[key + 1];
      if (begin == end)
        continue;
      TileContext<T> t = context(sc, plan, plane, key % tiles, buf);
      if (!plan.positions.empty())
        t.positions = plan.positions.data() + plan.start[key];
      loadTile(t, span, grid);
      degridTile(t, begin, end, vis_out);
    }
  });
}

// Neighbouring tiles' buffers overlap by the kernel halo, so tiles are stored colour by colour
// (tiles of one colour never share a cell): no locks, and every grid cell sums its contributions
// in the same order whatever the thread count or scheduling, which makes runs bitwise
// reproducible.
template <typename T>
template <typename C>
void CpuTilePasses<T>::grid(const BlockScales& sc, const TilePlan& plan, int plane,
                            const Complex* vis_in, const float* weights, C* grid) {
  const int span = plan.tile_size + kernel_.support - 1;
  const std::size_t tiles = plan.numTiles();
  const int g_lo = wstack_.active ? std::max(0, plane - kernel_.support + 1) : 0;
  const int g_hi = wstack_.active ? std::min(plan.groups - 1, plane) : 0;
  const TileColouring& colouring = colouringFor(plan);
  tbb::enumerable_thread_specific<std::vector<T>> buffers;
  for (const std::vector<std::uint32_t>& colour : colouring.tiles) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, colour.size(), 1), [&](const auto& r) {
      std::vector<T>& buf = buffers.local();
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        const std::size_t k = colour[i];
        bool any = false;
        for (int g = g_lo; g <= g_hi && !any; ++g)
          any = plan.start[g * tiles + k] != plan.start[g * tiles + k + 1];
        if (!any)
          continue;
        TileContext<T> t = context(sc, plan, plane, k, buf);
        std::fill(buf.begin(), buf.end(), T(0));
        for (int g = g_lo; g <= g_hi; ++g) {
          const std::size_t key = std::size_t(g) * tiles + k;
          t.positions = plan.positions.empty() ? nullptr : plan.positions.data() + plan.start[key];
          gridTile(t, plan.order.data() + plan.start[key], plan.order.data() + plan.start[key + 1],
                   vis_in, weights);
        }
        storeTile(t, span, grid);
      }
    });
  }
}

template <typename T>
TileContext<T> CpuTilePasses<T>::context(const BlockScales& sc, const TilePlan& plan, int plane,
                                         std::size_t k, std::vector<T>& buf) const {
  const int ts = plan.tile_size, span = ts + kernel_.support - 1;
  const int stride = (span + 7) / 8 * 8;
  buf.resize(2 * std::size_t(stride) * span);
  TileContext<T> t;
  t.scales = &sc;
  t.poly = &poly_;
  t.grid_u = nu_;
  t.grid_v = nv_;
  t.u0 = int(k % plan.tiles_u) * ts;
  t.v0 = int(k / plan.tiles_u) * ts;
  t.stride = stride;
  t.re = buf.data();
  t.im = buf.data() + std::size_t(stride) * span;
  if (wstack_.active) {
    t.w_poly = &w_poly_;
    t.plane = plane;
    t.w0 = wstack_.w0;
    t.dw = wstack_.dw;
    t.x0 = wstack_.x0;
  }
  return t;
}

template <typename T>
const TileColouring& CpuTilePasses<T>::colouringFor(const TilePlan& plan) {
  if (colouring_.tiles_u != plan.tiles_u || colouring_.tiles_v != plan.tiles_v)
    colouring_ = colourTiles(plan.tiles_u, plan.tiles_v, plan.tile_size,
                             plan.tile_size + kernel_.support - 1, nu_, nv_);
  return colouring_;
}

template <typename T>
void CpuTilePasses<T>::loadTile(const TileContext<T>& t, int span, const Complex* grid) const {
  for (int a = 0; a < span; ++a) {
    const Complex* row = grid + std::size_t((t.v0 + a) % nv_) * nu_;
    T* re = t.re + std::size_t(a) * t.stride;
    T* im = t.im + std::size_t(a) * t.stride;
    for (int c = 0; c < span; ++c) {
      int u = t.u0 + c;
      if (u >= nu_)
        u -= nu_;
      re[c] = row[u].real();
      im[c] = row[u].imag();
    }
  }
}

// The colouring guarantees no other task writes these cells.
template <typename T>
template <typename C>
void CpuTilePasses<T>::storeTile(const TileContext<T>& t, int span, C* grid) const {
  for (int a = 0; a < span; ++a) {
    C* row = grid + std::size_t((t.v0 + a) % nv_) * nu_;
    const T* re = t.re + std::size_t(a) * t.stride;
    const T* im = t.im + std::size_t(a) * t.stride;
    for (int c = 0; c < span; ++c) {
      int u = t.u0 + c;
      if (u >= nu_)
        u -= nu_;
      row[u] += C(re[c], im[c]);
    }
  }
}

template class CpuTilePasses<float>;
template class CpuTilePasses<double>;
template void CpuTilePasses<float>::grid(const BlockScales&, const TilePlan&, int,
                                         const std::complex<float>*, const float*,
                                         std::complex<float>*);
template void CpuTilePasses<float>::grid(const BlockScales&, const TilePlan&, int,
                                         const std::complex<float>*, const float*,
                                         std::complex<double>*);
template void CpuTilePasses<double>::grid(const BlockScales&, const TilePlan&, int,
                                          const std::complex<double>*, const float*,
                                          std::complex<double>*);

}  // namespace apertura::imaging
