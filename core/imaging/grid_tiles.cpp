// The inner loops of gridding and degridding, instantiated for every support W = 1..16 so the tap
// loops have compile-time trip counts and the compiler unrolls and vectorises them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "core/imaging/grid_tiles.h"

#include <cmath>

namespace apertura::imaging {

namespace {

// First tap (relative to the tile origin) and polynomial variable y of a sample at coordinate g.
template <typename T>
inline int tapOffset(double g, int support, int n, int origin, T& y) {
  const double wrapped = g - n * std::floor(g / n);
  const double i0 = std::ceil(wrapped - 0.5 * support);
  y = T(2.0 * (i0 - wrapped) + support - 1);
  int i = int(i0);
  if (i < 0)
    i += n;
  if (i >= n)
    i -= n;
  return i - origin;
}

template <typename T, int W>
inline void evaluateTaps(const KernelPolynomial<T>& p, T y, T* taps) {
  const T* c = p.coeff.data();
  for (int j = 0; j < W; ++j)
    taps[j] = c[j];
  for (int d = 1; d <= p.degree; ++d) {
    c += W;
    for (int j = 0; j < W; ++j)
      taps[j] = taps[j] * y + c[j];
  }
}

// Factor of the sample on the current w plane: the w kernel tap times the residual phase
// exp(-+2 pi i w x0) (sign -1 for degridding, +1 for gridding); 0 off the sample's footprint.
template <typename T>
inline bool planeFactor(const TileContext<T>& t, double gw, double sign, std::complex<T>& f) {
  const int ws = t.w_poly->support;
  const double p0 = std::ceil(gw - 0.5 * ws);
  const int tap = t.plane - int(p0);
  if (tap < 0 || tap >= ws)
    return false;
  T taps[kMaxSupport];
  t.w_poly->evaluate(T(2.0 * (p0 - gw) + ws - 1), taps);
  const double w = t.w0 + gw * t.dw;
  const double phase = sign * 2.0 * M_PI * w * t.x0;
  f = std::complex<T>(T(taps[tap] * std::cos(phase)), T(taps[tap] * std::sin(phase)));
  return true;
}

// Samples of a tile are scattered through the block (random order in a 1-channel-per-row data
// set), so their uvw and visibilities are cache misses; fetching a few samples ahead overlaps
// them with the tap loops.
constexpr std::ptrdiff_t kPrefetchAhead = 6;

template <typename T, typename V>
inline void prefetchSample(const TileContext<T>& t, const std::uint32_t* it,
                           const std::uint32_t* end, const V* vis, const float* weights) {
  // (A branch-free choice of the sample ahead: with an early return GCC 12 drops the prefetches.)
  const std::uint32_t s = *(end - it > kPrefetchAhead ? it + kPrefetchAhead : end - 1);
  if (!t.positions)
    __builtin_prefetch(t.scales->rowOf(s));
  __builtin_prefetch(vis + s);
  if (weights)
    __builtin_prefetch(weights + s);
}

template <typename T, int W>
void gridTileW(const TileContext<T>& t, const std::uint32_t* begin, const std::uint32_t* end,
               const std::complex<T>* vis, const float* weights) {
  T ku[W], kv[W];
  for (const std::uint32_t* it = begin; it != end; ++it) {
    prefetchSample(t, it, end, vis, weights);
    const std::uint32_t s = *it;
    const T wt = weights ? T(weights[s]) : T(1);
    if (wt == T(0))
      continue;
    std::complex<T> v = vis[s] * wt;
    T yu, yv;
    int iu, iv;
    if (t.positions) {
      const TapPosition& p = t.positions[it - begin];
      yu = T(p.yu);
      yv = T(p.yv);
      iu = p.iu;
      iv = p.iv;
    } else {
      double gu, gv, gw;
      t.scales->coordinates(s, gu, gv, gw);
      if (t.w_poly) {
        std::complex<T> f;
        if (!planeFactor(t, gw, +1.0, f))
          continue;
        v *= f;
      }
      iu = tapOffset(gu, W, t.grid_u, t.u0, yu);
      iv = tapOffset(gv, W, t.grid_v, t.v0, yv);
    }
    evaluateTaps<T, W>(*t.poly, yu, ku);
    evaluateTaps<T, W>(*t.poly, yv, kv);
    const T vr = v.real(), vi = v.imag();
    for (int a = 0; a < W; ++a) {
      T* __restrict rr = t.re + std::size_t(iv + a) * t.stride + iu;
      T* __restrict ri = t.im + std::size_t(iv + a) * t.stride + iu;
      const T fr = vr * kv[a], fi = vi * kv[a];
      for (int b = 0; b < W; ++b) {
        rr[b] += fr * ku[b];
        ri[b] += fi * ku[b];
      }
    }
  }
}

template <typename T, int W>
void degridTileW(const TileContext<T>& t, const std::uint32_t* begin, const std::uint32_t* end,
                 std::complex<T>* vis) {
  T ku[W], kv[W];
  for (const std::uint32_t* it = begin; it != end; ++it) {
    prefetchSample(t, it, end, vis, static_cast<const float*>(nullptr));
    const std::uint32_t s = *it;
    std::complex<T> f(1, 0);
    T yu, yv;
    int iu, iv;
    if (t.positions) {
      const TapPosition& p = t.positions[it - begin];
      yu = T(p.yu);
      yv = T(p.yv);
      iu = p.iu;
      iv = p.iv;
    } else {
      double gu, gv, gw;
      t.scales->coordinates(s, gu, gv, gw);
      if (t.w_poly && !planeFactor(t, gw, -1.0, f))
        continue;
      iu = tapOffset(gu, W, t.grid_u, t.u0, yu);
      iv = tapOffset(gv, W, t.grid_v, t.v0, yv);
    }
    evaluateTaps<T, W>(*t.poly, yu, ku);
    evaluateTaps<T, W>(*t.poly, yv, kv);
    T sr = 0, si = 0;
    for (int a = 0; a < W; ++a) {
      const T* __restrict rr = t.re + std::size_t(iv + a) * t.stride + iu;
      const T* __restrict ri = t.im + std::size_t(iv + a) * t.stride + iu;
      T tr = 0, ti = 0;
      for (int b = 0; b < W; ++b) {
        tr += rr[b] * ku[b];
        ti += ri[b] * ku[b];
      }
      sr += kv[a] * tr;
      si += kv[a] * ti;
    }
    vis[s] += t.w_poly ? std::complex<T>(sr, si) * f : std::complex<T>(sr, si);
  }
}

}  // namespace

// clang-format off
#define APERTURA_SUPPORT_CASES(CALL)                                                     \
  CALL(1) CALL(2) CALL(3) CALL(4) CALL(5) CALL(6) CALL(7) CALL(8) CALL(9) CALL(10)        \
  CALL(11) CALL(12) CALL(13) CALL(14) CALL(15) CALL(16)
// clang-format on

template <typename T>
void gridTile(const TileContext<T>& tile, const std::uint32_t* begin, const std::uint32_t* end,
              const std::complex<T>* vis, const float* weights) {
  switch (tile.poly->support) {
#define APERTURA_CASE(W) \
  case W:                \
    return gridTileW<T, W>(tile, begin, end, vis, weights);
    APERTURA_SUPPORT_CASES(APERTURA_CASE)
#undef APERTURA_CASE
    default:
      break;
  }
}

template <typename T>
void degridTile(const TileContext<T>& tile, const std::uint32_t* begin, const std::uint32_t* end,
                std::complex<T>* vis) {
  switch (tile.poly->support) {
#define APERTURA_CASE(W) \
  case W:                \
    return degridTileW<T, W>(tile, begin, end, vis);
    APERTURA_SUPPORT_CASES(APERTURA_CASE)
#undef APERTURA_CASE
    default:
      break;
  }
}

template void gridTile<float>(const TileContext<float>&, const std::uint32_t*, const std::uint32_t*,
                              const std::complex<float>*, const float*);
template void gridTile<double>(const TileContext<double>&, const std::uint32_t*,
                               const std::uint32_t*, const std::complex<double>*, const float*);
template void degridTile<float>(const TileContext<float>&, const std::uint32_t*,
                                const std::uint32_t*, std::complex<float>*);
template void degridTile<double>(const TileContext<double>&, const std::uint32_t*,
                                 const std::uint32_t*, std::complex<double>*);

}  // namespace apertura::imaging
