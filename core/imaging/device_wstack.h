#pragma once

// w-stacking (w_stacking.h) as the CUDA backend does it: the per-sample plane factor and the
// per-pixel phase screen as inline functions that compile as CUDA device code and as host C++
// (tests/imaging/test_operator_factory runs them on the host against the CPU operator), and the
// host-side sort of a block's samples by their first w plane, so that each plane's pass visits
// only the samples whose kernel reaches it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/imaging/device_gridding.h"
#include "core/imaging/uv_samples.h"

namespace apertura::imaging {

// The planes of WStackLayout packed for the device (trivially copyable). planes == 0: no
// w-stacking.
struct DeviceWStack {
  int planes = 0;
  double w0 = 0.0, dw = 1.0, x0 = 0.0;
};

// A sample's w in plane units, gw = w_m * scale - offset (scale = f / (c dw), offset = w0 / dw),
// rounded the same on host and device: a fused multiply-add could move gw across a plane
// boundary, and the pass that visits the sample would then miss one of its planes.
APERTURA_HOST_DEVICE inline double deviceWCoordinate(double w_m, double scale, double offset) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(__dmul_rn(w_m, scale), offset);
#else
  return w_m * scale - offset;
#endif
}

// The first w plane a sample at gw reaches with a kernel of `support` planes.
APERTURA_HOST_DEVICE inline int deviceFirstPlane(int support, double gw) {
#if !defined(__CUDA_ARCH__)
  using std::ceil;
#endif
  return int(ceil(gw - 0.5 * support));
}

// The factor of a sample at gw on plane `plane`: the kernel's tap along w times the residual
// phase exp(sign 2 pi i w x0) (sign -1 degridding, +1 gridding); false off the sample's planes.
// The CPU's planeFactor (grid_tiles.cpp) with the exact kernel in place of its polynomial.
template <typename T>
APERTURA_HOST_DEVICE inline bool deviceWPlaneFactor(const DeviceKernelParams& k,
                                                    const DeviceWStack& ws, double gw, int plane,
                                                    double sign, T& fr, T& fi) {
#if !defined(__CUDA_ARCH__)
  using std::cos;
  using std::sin;
#endif
  const int p0 = deviceFirstPlane(k.support, gw);
  const int tap = plane - p0;
  if (tap < 0 || tap >= k.support)
    return false;
  const double x0 = 2.0 * (p0 - gw) / k.support, step = 2.0 / k.support;
  const T tap_value = deviceKernelValue<T>(k, x0 + step * tap);
  const double phase = sign * 2.0 * M_PI * (ws.w0 + gw * ws.dw) * ws.x0;
  fr = T(tap_value * cos(phase));
  fi = T(tap_value * sin(phase));
  return true;
}

// The phase screen of plane `plane` at a pixel: corr_w exp(sign 2 pi i w_plane xi), with xi and
// corr_w the pixel's entries of WStackLayout (sign -1 image to grid, +1 grid to image).
template <typename T>
APERTURA_HOST_DEVICE inline void deviceWScreen(const DeviceWStack& ws, int plane, double xi,
                                               double corr_w, double sign, T& re, T& im) {
#if !defined(__CUDA_ARCH__)
  using std::cos;
  using std::sin;
#endif
  const double phase = sign * 2.0 * M_PI * (ws.w0 + plane * ws.dw) * xi;
  re = T(corr_w * cos(phase));
  im = T(corr_w * sin(phase));
}

// Degridding of one sample on one plane: the interpolation at (gu, gv) times the plane factor;
// false (and nothing to add) off the sample's planes.
template <typename T, typename Cx>
APERTURA_HOST_DEVICE inline bool deviceWDegridSample(const DeviceKernelParams& k,
                                                     const DeviceWStack& ws, int plane, double gu,
                                                     double gv, double gw, const Cx* grid, T& re,
                                                     T& im) {
  T fr, fi;
  if (!deviceWPlaneFactor<T>(k, ws, gw, plane, -1.0, fr, fi))
    return false;
  T sr, si;
  deviceDegridSample<T>(k, gu, gv, grid, sr, si);
  re = sr * fr - si * fi;
  im = sr * fi + si * fr;
  return true;
}

// Gridding of one (weighted) sample on one plane: (vr, vi) times the plane factor, spread at
// (gu, gv) as deviceGridSample does.
template <typename T, typename G, typename Add>
APERTURA_HOST_DEVICE inline void deviceWGridSample(const DeviceKernelParams& k,
                                                   const DeviceWStack& ws, int plane, double gu,
                                                   double gv, double gw, T vr, T vi, G* grid,
                                                   Add add) {
  T fr, fi;
  if (!deviceWPlaneFactor<T>(k, ws, gw, plane, +1.0, fr, fi))
    return;
  deviceGridSample<T>(k, gu, gv, vr * fr - vi * fi, vr * fi + vi * fr, grid, add);
}

// A block's samples sorted by their first w plane (clamped to the planes, as the CPU's tile plan
// does): plane j's pass visits the samples whose first plane lies in [j - W + 1, j], one
// contiguous range of `order` (samplesOnPlane).
struct WPlaneOrder {
  std::vector<std::uint32_t> order;
  std::vector<std::size_t> start;  // planes + 1 offsets into order
};

// [first, last) of a WPlaneOrder's order (of offsets `start`) for plane `plane` of a kernel of
// `support` planes.
inline std::pair<std::size_t, std::size_t> samplesOnPlane(const std::vector<std::size_t>& start,
                                                          int plane, int support) {
  const int planes = int(start.size()) - 1;
  const int lo = plane - support + 1 < 0 ? 0 : plane - support + 1;
  const int hi = plane < planes - 1 ? plane : planes - 1;
  if (lo > hi)
    return {0, 0};
  return {start[std::size_t(lo)], start[std::size_t(hi) + 1]};
}

// scale_w[c] = f_c / (c dw) per channel, offset = w0 / dw. Blocks of 2^32 samples or more are
// the caller's to refuse (32-bit indices).
inline WPlaneOrder orderByWPlane(const UvwBlock& b, const std::vector<double>& scale_w,
                                 double offset, int support, int planes) {
  WPlaneOrder o;
  const std::size_t n = b.numSamples(), nchan = b.num_channels;
  std::vector<std::uint32_t> plane_of(n);
  o.start.assign(std::size_t(planes) + 1, 0);
  for (std::size_t s = 0; s < n; ++s) {
    const std::size_t r = s / nchan, c = s - r * nchan;
    int p = deviceFirstPlane(support, deviceWCoordinate(b.uvw_m[3 * r + 2], scale_w[c], offset));
    p = p < 0 ? 0 : (p >= planes ? planes - 1 : p);
    plane_of[s] = std::uint32_t(p);
    ++o.start[std::size_t(p) + 1];
  }
  for (int p = 0; p < planes; ++p)
    o.start[std::size_t(p) + 1] += o.start[std::size_t(p)];
  std::vector<std::size_t> cursor(o.start.begin(), o.start.end() - 1);
  o.order.resize(n);
  for (std::size_t s = 0; s < n; ++s)
    o.order[cursor[plane_of[s]]++] = std::uint32_t(s);
  return o;
}

}  // namespace apertura::imaging
