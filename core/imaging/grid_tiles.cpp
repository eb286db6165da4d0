// The inner loops of gridding and degridding, instantiated for every support W = 1..16 so the tap
// loops have compile-time trip counts and the compiler unrolls and vectorises them.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "core/imaging/grid_tiles.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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

// 16-byte SIMD vectors through the GCC/Clang vector extension: SSE2 in a baseline x86-64 build,
// wider registers where the compiler may use them. The padded tap loops below are written on them
// directly because GCC does not vectorise the 8-column row updates on its own.
typedef float Float4 __attribute__((vector_size(16)));
typedef double Double2 __attribute__((vector_size(16)));

template <typename T>
struct Simd;

template <typename T, typename Vec>
struct SimdOps {
  using V = Vec;
  static constexpr int kLanes = int(sizeof(Vec) / sizeof(T));
  static V load(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store(T* p, V v) { std::memcpy(p, &v, sizeof v); }
  static V broadcast(T x) { return V{} + x; }
};

template <>
struct Simd<float> : SimdOps<float, Float4> {};
template <>
struct Simd<double> : SimdOps<double, Double2> {};

// Taps at y over P = paddedSupport(W) columns (P / lanes vectors) from the zero-padded
// coefficients; taps W..P-1 are exactly 0. Element by element the same Horner steps as
// evaluateTaps, so the tap values are the same.
template <typename T, int P>
__attribute__((always_inline)) inline void evaluatePadded(const T* coeff, int degree, T y,
                                                          typename Simd<T>::V* taps) {
  using S = Simd<T>;
  constexpr int kVecs = P / S::kLanes;
  const typename S::V yv = S::broadcast(y);
  const T* c = coeff;
  for (int k = 0; k < kVecs; ++k)
    taps[k] = S::load(c + k * S::kLanes);
  for (int d = 1; d <= degree; ++d) {
    c += P;
    for (int k = 0; k < kVecs; ++k)
      taps[k] = taps[k] * yv + S::load(c + k * S::kLanes);
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
// set), so their visibilities (and uvw rows, without precomputed positions) are cache and TLB
// misses. The tile loops therefore work in batches: first a loop of independent loads gathers a
// batch's visibilities (gridding) or scatters its results (degridding), which the core overlaps
// many at a time, then the arithmetic runs on the gathered values. Per sample the arithmetic and
// its order are those of a one-sample-at-a-time loop, so results are bitwise the same.
constexpr std::ptrdiff_t kBatch = 32;

// Tap offsets (relative to the tile) and polynomial variables of sample `k` of the tile, from the
// plan's positions or from uvw; false when the sample is off the current w plane. With w-stacking
// `f` is multiplied by the plane factor.
template <typename T>
__attribute__((always_inline)) inline bool samplePosition(const TileContext<T>& t,
                                                          const std::uint32_t* it, std::ptrdiff_t k,
                                                          int support, double sign, T& yu, T& yv,
                                                          int& iu, int& iv, std::complex<T>& f,
                                                          bool& has_f) {
  if (t.positions) {
    const TapPosition& p = t.positions[k];
    yu = T(p.yu);
    yv = T(p.yv);
    iu = p.iu;
    iv = p.iv;
    return true;
  }
  double gu, gv, gw;
  t.scales->coordinates(it[k], gu, gv, gw);
  if (t.w_poly) {
    if (!planeFactor(t, gw, sign, f))
      return false;
    has_f = true;
  }
  iu = tapOffset(gu, support, t.grid_u, t.u0, yu);
  iv = tapOffset(gv, support, t.grid_v, t.v0, yv);
  return true;
}

// uvw rows of the next batch, when positions are computed from them.
template <typename T>
inline void prefetchRows(const TileContext<T>& t, const std::uint32_t* it,
                         const std::uint32_t* end) {
  if (t.positions)
    return;
  for (const std::uint32_t* p = it; p < end; ++p)
    __builtin_prefetch(t.scales->rowOf(*p));
}

// Gridding and degridding run their row loops over P = paddedSupport(W) columns whose last P - W
// taps are 0, so each row is a few whole vectors. A sample whose padded row would run past the
// buffer row (only possible in the last few columns of a tile) takes the W-column loop instead.
// Gridding adds +-0 to the padded cells, which changes nothing but the sign of a zero; degridding
// sums each column over the rows first, then the columns (a fixed order, so it stays
// deterministic).
template <typename T, int W>
void gridTileW(const TileContext<T>& t, const std::uint32_t* begin, const std::uint32_t* end,
               const std::complex<T>* vis, const float* weights) {
  constexpr int P = KernelPolynomial<T>::paddedSupport(W);
  const bool padded = !t.poly->padded.empty();
  T ku[W], kv[W];
  T br[kBatch], bi[kBatch];
  bool live[kBatch];
  for (const std::uint32_t* batch = begin; batch < end; batch += kBatch) {
    const std::ptrdiff_t m = std::min<std::ptrdiff_t>(kBatch, end - batch);
    // Gather: independent loads only.
    for (std::ptrdiff_t j = 0; j < m; ++j) {
      const std::uint32_t s = batch[j];
      const T wt = weights ? T(weights[s]) : T(1);
      const std::complex<T> v = vis[s] * wt;
      live[j] = wt != T(0);
      br[j] = v.real();
      bi[j] = v.imag();
    }
    const std::uint32_t* next = batch + m;
    prefetchRows(t, next, next + std::min<std::ptrdiff_t>(kBatch, end - next));
    const std::ptrdiff_t base = batch - begin;
    for (std::ptrdiff_t j = 0; j < m; ++j) {
      if (!live[j])
        continue;
      T yu, yv;
      int iu, iv;
      std::complex<T> f(1, 0);
      bool has_f = false;
      if (!samplePosition(t, begin, base + j, W, +1.0, yu, yv, iu, iv, f, has_f))
        continue;
      std::complex<T> v(br[j], bi[j]);
      if (has_f)
        v *= f;
      const T vr = v.real(), vi = v.imag();
      if (padded && iu + P <= t.stride) {
        using S = Simd<T>;
        constexpr int kVecs = P / S::kLanes;
        typename S::V kuv[kVecs], kvv[kVecs];
        evaluatePadded<T, P>(t.poly->padded.data(), t.poly->degree, yu, kuv);
        evaluatePadded<T, P>(t.poly->padded.data(), t.poly->degree, yv, kvv);
        for (int a = 0; a < W; ++a) {
          T* rr = t.re + std::size_t(iv + a) * t.stride + iu;
          T* ri = t.im + std::size_t(iv + a) * t.stride + iu;
          const T kva = kvv[a / S::kLanes][a % S::kLanes];
          const typename S::V fr = S::broadcast(vr * kva), fi = S::broadcast(vi * kva);
          for (int k = 0; k < kVecs; ++k) {
            S::store(rr + k * S::kLanes, S::load(rr + k * S::kLanes) + fr * kuv[k]);
            S::store(ri + k * S::kLanes, S::load(ri + k * S::kLanes) + fi * kuv[k]);
          }
        }
        continue;
      }
      evaluateTaps<T, W>(*t.poly, yu, ku);
      evaluateTaps<T, W>(*t.poly, yv, kv);
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
}

template <typename T, int W>
void degridTileW(const TileContext<T>& t, const std::uint32_t* begin, const std::uint32_t* end,
                 std::complex<T>* vis) {
  constexpr int P = KernelPolynomial<T>::paddedSupport(W);
  const bool padded = !t.poly->padded.empty();
  T ku[W], kv[W];
  std::complex<T> out[kBatch];
  bool live[kBatch];
  for (const std::uint32_t* batch = begin; batch < end; batch += kBatch) {
    const std::ptrdiff_t m = std::min<std::ptrdiff_t>(kBatch, end - batch);
    const std::uint32_t* next = batch + m;
    prefetchRows(t, next, next + std::min<std::ptrdiff_t>(kBatch, end - next));
    const std::ptrdiff_t base = batch - begin;
    for (std::ptrdiff_t j = 0; j < m; ++j) {
      T yu, yv;
      int iu, iv;
      std::complex<T> f(1, 0);
      bool has_f = false;
      live[j] = samplePosition(t, begin, base + j, W, -1.0, yu, yv, iu, iv, f, has_f);
      if (!live[j])
        continue;
      T sr = 0, si = 0;
      if (padded && iu + P <= t.stride) {
        using S = Simd<T>;
        constexpr int kVecs = P / S::kLanes;
        typename S::V kuv[kVecs], kvv[kVecs], cr[kVecs] = {}, ci[kVecs] = {};
        evaluatePadded<T, P>(t.poly->padded.data(), t.poly->degree, yu, kuv);
        evaluatePadded<T, P>(t.poly->padded.data(), t.poly->degree, yv, kvv);
        for (int a = 0; a < W; ++a) {
          const T* rr = t.re + std::size_t(iv + a) * t.stride + iu;
          const T* ri = t.im + std::size_t(iv + a) * t.stride + iu;
          const typename S::V kva = S::broadcast(kvv[a / S::kLanes][a % S::kLanes]);
          for (int k = 0; k < kVecs; ++k) {
            cr[k] += kva * S::load(rr + k * S::kLanes);
            ci[k] += kva * S::load(ri + k * S::kLanes);
          }
        }
        for (int b = 0; b < W; ++b) {
          const T kub = kuv[b / S::kLanes][b % S::kLanes];
          sr += kub * cr[b / S::kLanes][b % S::kLanes];
          si += kub * ci[b / S::kLanes][b % S::kLanes];
        }
      } else {
        evaluateTaps<T, W>(*t.poly, yu, ku);
        evaluateTaps<T, W>(*t.poly, yv, kv);
        for (int b = 0; b < W; ++b) {
          T tr = 0, ti = 0;
          for (int a = 0; a < W; ++a) {
            tr += kv[a] * t.re[std::size_t(iv + a) * t.stride + iu + b];
            ti += kv[a] * t.im[std::size_t(iv + a) * t.stride + iu + b];
          }
          sr += ku[b] * tr;
          si += ku[b] * ti;
        }
      }
      out[j] = has_f ? std::complex<T>(sr, si) * f : std::complex<T>(sr, si);
    }
    // Scatter: independent read-modify-writes.
    for (std::ptrdiff_t j = 0; j < m; ++j)
      if (live[j])
        vis[batch[j]] += out[j];
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
