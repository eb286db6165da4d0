// The CUDA VectorSpace (cuda_vector_space.cuh): construction, transfers, vector arithmetic and
// the solvers' fused passes (kernels in space_kernels.cuh).
#include "core/cuda/cuda_vector_space.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/cuda/space_kernels.cuh"

namespace apertura::cuda {

using space::elementBlocks;
using space::forEachKernel;
using space::heldAt;
using space::kMaxSums;
using space::kReduceBlocks;
using space::kThreads;
using space::requireSame;

CudaVectorSpace::CudaVectorSpace(int device, cudaStream_t stream, ByteCounter bytes)
    : device_(device), stream_(stream), bytes_(std::move(bytes)) {
  partials_.track(bytes_);
  selectDevice();
  partials_.reserve(kMaxSums * (kReduceBlocks + 1), device_, "the reductions' partial sums");
  totals_.allocate(kMaxSums * sizeof(double));
}

void CudaVectorSpace::selectDevice() const {
  check(cudaSetDevice(device_), "cudaSetDevice");
}

unsigned CudaVectorSpace::blocks(std::size_t n) const {
  return std::max(1u, std::min(kReduceBlocks, elementBlocks(n)));
}

const double* CudaVectorSpace::of(const compute::SpaceVector& v) {
  const auto* c = dynamic_cast<const Vec*>(&v);
  if (c == nullptr)
    throw std::invalid_argument(
        v.element() == compute::Element::Float
            ? "CUDA vector space: a float vector where a double one is needed"
            : "CUDA vector space: a vector of another space");
  return c->data.data();
}

double* CudaVectorSpace::of(compute::SpaceVector& v) {
  return const_cast<double*>(of(std::as_const(v)));
}

std::string CudaVectorSpace::describe() const {
  return "CUDA device " + std::to_string(device_) + " (" + deviceName(device_) + ")";
}

std::size_t CudaVectorSpace::bytesHeld() const {
  return std::size_t(std::max<std::int64_t>(0, bytes_->load()));
}

std::size_t CudaVectorSpace::bytesAvailable() const {
  selectDevice();
  std::size_t free_bytes = 0, total = 0;
  check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  return free_bytes;
}

template <typename T>
compute::SpaceVectorPtr CudaVectorSpace::allocate(std::size_t n, const char* what) {
  selectDevice();
  auto v = std::make_unique<Elements<T>>();
  v->data.track(bytes_);
  v->data.reserve(std::max<std::size_t>(1, n), device_, what);
  v->n = n;
  check(cudaMemsetAsync(v->data.data(), 0, n * sizeof(T), stream_), "cudaMemset (vector)");
  return v;
}

compute::SpaceVectorPtr CudaVectorSpace::create(std::size_t n) {
  return allocate<double>(n, "an image-sized vector of the optimizer");
}

compute::SpaceVectorPtr CudaVectorSpace::createFloat(std::size_t n) {
  return allocate<float>(n, "an L-BFGS correction vector (float)");
}

void CudaVectorSpace::upload(const double* host, compute::SpaceVector& v) {
  selectDevice();
  check(cudaMemcpyAsync(of(v), host, v.size() * sizeof(double), cudaMemcpyHostToDevice, stream_),
        "upload of a vector");
  check(cudaStreamSynchronize(stream_), "upload of a vector");  // `host` may be pageable
}

void CudaVectorSpace::download(const compute::SpaceVector& v, double* host) {
  selectDevice();
  check(cudaMemcpyAsync(host, of(v), v.size() * sizeof(double), cudaMemcpyDeviceToHost, stream_),
        "download of a vector");
  check(cudaStreamSynchronize(stream_), "download of a vector");
}

void CudaVectorSpace::copy(const compute::SpaceVector& from, compute::SpaceVector& to) {
  requireSame(from.size(), to.size(), "copy");
  selectDevice();
  check(cudaMemcpyAsync(of(to), of(from), to.size() * sizeof(double), cudaMemcpyDeviceToDevice,
                        stream_),
        "copy of a vector");
}

void CudaVectorSpace::copyRange(const compute::SpaceVector& from, std::size_t from_offset,
                                compute::SpaceVector& to, std::size_t to_offset, std::size_t n) {
  compute::requireRange(from, from_offset, to, to_offset, n, "CUDA vector space");
  if (n == 0)
    return;
  selectDevice();
  check(cudaMemcpyAsync(of(to) + to_offset, of(from) + from_offset, n * sizeof(double),
                        cudaMemcpyDeviceToDevice, stream_),
        "copy of a vector range");
}

void CudaVectorSpace::fill(double value, compute::SpaceVector& v) {
  double* p = of(v);
  forEachKernel<<<elementBlocks(v.size()), kThreads, 0, stream_>>>(
      v.size(), [=] __device__(unsigned long long i) { p[i] = value; });
  check(cudaGetLastError(), "fill kernel launch");
}

void CudaVectorSpace::scale(double a, compute::SpaceVector& vx) {
  double* x = of(vx);
  forEachKernel<<<elementBlocks(vx.size()), kThreads, 0, stream_>>>(
      vx.size(), [=] __device__(unsigned long long i) { x[i] *= a; });
  check(cudaGetLastError(), "scale kernel launch");
}

void CudaVectorSpace::multiply(const compute::SpaceVector& va, const compute::SpaceVector& vb,
                               compute::SpaceVector& vout) {
  requireSame(va.size(), vb.size(), "multiply");
  requireSame(va.size(), vout.size(), "multiply");
  const double* a = of(va);
  const double* b = of(vb);
  double* out = of(vout);
  forEachKernel<<<elementBlocks(vout.size()), kThreads, 0, stream_>>>(
      vout.size(), [=] __device__(unsigned long long i) { out[i] = a[i] * b[i]; });
  check(cudaGetLastError(), "multiply kernel launch");
}

void CudaVectorSpace::axpby(double a, const compute::SpaceVector& vx, double b,
                            compute::SpaceVector& vy) {
  requireSame(vx.size(), vy.size(), "axpby");
  const double* x = of(vx);
  double* y = of(vy);
  forEachKernel<<<elementBlocks(vy.size()), kThreads, 0, stream_>>>(
      vy.size(), [=] __device__(unsigned long long i) { y[i] = a * x[i] + b * y[i]; });
  check(cudaGetLastError(), "axpby kernel launch");
}

double CudaVectorSpace::projectedGradient(const compute::SpaceVector& vx,
                                          const compute::SpaceVector& vg, bool positivity,
                                          double sign, compute::SpaceVector* vd) {
  requireSame(vx.size(), vg.size(), "projectedGradient");
  if (vd != nullptr)
    requireSame(vx.size(), vd->size(), "projectedGradient");
  const double* x = of(vx);
  const double* g = of(vg);
  double* d = vd ? of(*vd) : nullptr;
  double s = 0.0;
  reduce<1>(
      vx.size(),
      [=] __device__(unsigned long long i, double* acc) {
        const double pg = heldAt(positivity, x[i], g[i]) ? 0.0 : g[i];
        acc[0] += pg * pg;
        if (d != nullptr)
          d[i] = sign * pg;
      },
      &s);
  return s;
}

void CudaVectorSpace::holdAtBound(const compute::SpaceVector& vx, const compute::SpaceVector& vg,
                                  compute::SpaceVector& vd) {
  requireSame(vx.size(), vd.size(), "holdAtBound");
  const double* x = of(vx);
  const double* g = of(vg);
  double* d = of(vd);
  forEachKernel<<<elementBlocks(vd.size()), kThreads, 0, stream_>>>(
      vd.size(), [=] __device__(unsigned long long i) {
        if (heldAt(true, x[i], g[i]))
          d[i] = 0.0;
      });
  check(cudaGetLastError(), "holdAtBound kernel launch");
}

void CudaVectorSpace::step(const compute::SpaceVector& vx, double alpha,
                           const compute::SpaceVector& vd, bool clip, compute::SpaceVector& vout) {
  requireSame(vx.size(), vd.size(), "step");
  requireSame(vx.size(), vout.size(), "step");
  const double* x = of(vx);
  const double* d = of(vd);
  double* out = of(vout);
  forEachKernel<<<elementBlocks(vout.size()), kThreads, 0, stream_>>>(
      vout.size(), [=] __device__(unsigned long long i) {
        const double v = x[i] + alpha * d[i];
        out[i] = clip ? fmax(0.0, v) : v;
      });
  check(cudaGetLastError(), "step kernel launch");
}

double CudaVectorSpace::dotDifference(const compute::SpaceVector& vg,
                                      const compute::SpaceVector& va,
                                      const compute::SpaceVector& vb) {
  requireSame(vg.size(), va.size(), "dotDifference");
  requireSame(vg.size(), vb.size(), "dotDifference");
  const double* g = of(vg);
  const double* a = of(va);
  const double* b = of(vb);
  double s = 0.0;
  reduce<1>(
      vg.size(),
      [=] __device__(unsigned long long i, double* acc) { acc[0] += g[i] * (a[i] - b[i]); }, &s);
  return s;
}

compute::VectorSpace::ConjugateProducts CudaVectorSpace::conjugateProducts(
    const compute::SpaceVector& vg0, const compute::SpaceVector& vg1,
    const compute::SpaceVector& vd) {
  requireSame(vg0.size(), vg1.size(), "conjugateProducts");
  requireSame(vg0.size(), vd.size(), "conjugateProducts");
  const double* g0 = of(vg0);
  const double* g1 = of(vg1);
  const double* d = of(vd);
  double s[7] = {};
  reduce<7>(
      vg0.size(),
      [=] __device__(unsigned long long i, double* acc) {
        const double y = g1[i] - g0[i];
        acc[0] += g0[i] * g0[i];
        acc[1] += g1[i] * g1[i];
        acc[2] += d[i] * y;
        acc[3] += g1[i] * y;
        acc[4] += y * y;
        acc[5] += d[i] * g1[i];
        acc[6] += d[i] * d[i];
      },
      s);
  return {s[0], s[1], s[2], s[3], s[4], s[5], s[6]};
}

void CudaVectorSpace::gradientStep(const compute::SpaceVector& vy, const compute::SpaceVector& vg,
                                   double lipschitz, compute::SpaceVector& vout) {
  requireSame(vy.size(), vg.size(), "gradientStep");
  requireSame(vy.size(), vout.size(), "gradientStep");
  const double* y = of(vy);
  const double* g = of(vg);
  double* out = of(vout);
  forEachKernel<<<elementBlocks(vout.size()), kThreads, 0, stream_>>>(
      vout.size(), [=] __device__(unsigned long long k) { out[k] = y[k] - g[k] / lipschitz; });
  check(cudaGetLastError(), "gradientStep kernel launch");
}

double CudaVectorSpace::distanceSquared(const compute::SpaceVector& va,
                                        const compute::SpaceVector& vb) {
  requireSame(va.size(), vb.size(), "distanceSquared");
  const double* a = of(va);
  const double* b = of(vb);
  double s = 0.0;
  reduce<1>(
      va.size(),
      [=] __device__(unsigned long long k, double* acc) {
        acc[0] += (a[k] - b[k]) * (a[k] - b[k]);
      },
      &s);
  return s;
}

void CudaVectorSpace::extrapolate(const compute::SpaceVector& vp, const compute::SpaceVector& vx,
                                  double momentum, compute::SpaceVector& vy) {
  requireSame(vp.size(), vx.size(), "extrapolate");
  requireSame(vp.size(), vy.size(), "extrapolate");
  const double* p = of(vp);
  const double* x = of(vx);
  double* y = of(vy);
  forEachKernel<<<elementBlocks(vy.size()), kThreads, 0, stream_>>>(
      vy.size(), [=] __device__(unsigned long long k) { y[k] = p[k] + momentum * (p[k] - x[k]); });
  check(cudaGetLastError(), "extrapolate kernel launch");
}

void CudaVectorSpace::maxWith(double floor, compute::SpaceVector& vv) {
  double* v = of(vv);
  forEachKernel<<<elementBlocks(vv.size()), kThreads, 0, stream_>>>(
      vv.size(), [=] __device__(unsigned long long k) { v[k] = fmax(v[k], floor); });
  check(cudaGetLastError(), "maxWith kernel launch");
}

}  // namespace apertura::cuda
