// The CUDA VectorSpace (cuda_vector_space.cuh): element-wise kernels, one thread per element, and
// deterministic reductions for the resident RML iteration.
#include "core/cuda/cuda_vector_space.cuh"

#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>

#include "core/compute/penalty_math.h"
#include "core/cuda/gridding_kernels.cuh"

namespace apertura::cuda {

namespace {

constexpr unsigned kThreads = 256;
// Blocks of the reductions' grid-stride loop: enough to fill an H200 (132 SMs) several times.
constexpr unsigned kReduceBlocks = 1024;
constexpr int kMaxSums = 7;

unsigned elementBlocks(std::size_t n) {
  return unsigned((n + kThreads - 1) / kThreads);
}

// Partial sums of K terms per block: thread t of block b takes elements b * kThreads + t, then
// every gridDim.x * kThreads further (a fixed assignment for a given n), and blockSum adds a
// block's threads in a fixed tree.
template <int K, typename Term>
__global__ void reduceKernel(unsigned long long n, Term term, double* __restrict__ partial) {
  double acc[K];
  for (int k = 0; k < K; ++k)
    acc[k] = 0.0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = threadIndex(); i < n; i += stride)
    term(i, acc);
  for (int k = 0; k < K; ++k) {
    const double s = blockSum(acc[k]);
    if (threadIdx.x == 0)
      partial[k * gridDim.x + blockIdx.x] = s;
    __syncthreads();  // blockSum's shared slots are reused by the next k
  }
}

// The K totals of `blocks` partials each, by one block in a fixed order, into totals[0..K).
template <int K>
__global__ void totalKernel(const double* __restrict__ partial, unsigned blocks,
                            double* __restrict__ totals) {
  for (int k = 0; k < K; ++k) {
    double s = 0.0;
    for (unsigned b = threadIdx.x; b < blocks; b += blockDim.x)
      s += partial[k * blocks + b];
    s = blockSum(s);
    if (threadIdx.x == 0)
      totals[k] = s;
    __syncthreads();
  }
}

template <typename F>
__global__ void forEachKernel(unsigned long long n, F f) {
  const unsigned long long i = threadIndex();
  if (i < n)
    f(i);
}

__device__ inline bool heldAt(bool positivity, double x, double g) {
  return positivity && x <= 0.0 && g >= 0.0;
}

void requireSame(std::size_t a, std::size_t b, const char* op) {
  if (a != b)
    throw std::invalid_argument(std::string("CUDA vector space: ") + op +
                                " of vectors of different sizes");
}

}  // namespace

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
    throw std::invalid_argument("CUDA vector space: a vector of another space");
  return c->data.data();
}

double* CudaVectorSpace::of(compute::SpaceVector& v) {
  auto* c = dynamic_cast<Vec*>(&v);
  if (c == nullptr)
    throw std::invalid_argument("CUDA vector space: a vector of another space");
  return c->data.data();
}

std::string CudaVectorSpace::describe() const {
  return "CUDA device " + std::to_string(device_) + " (" + deviceName(device_) + ")";
}

std::size_t CudaVectorSpace::bytesHeld() const {
  return std::size_t(std::max<std::int64_t>(0, bytes_->load()));
}

compute::SpaceVectorPtr CudaVectorSpace::create(std::size_t n) {
  selectDevice();
  auto v = std::make_unique<Vec>();
  v->data.track(bytes_);
  v->data.reserve(std::max<std::size_t>(1, n), device_, "an image-sized vector of the optimizer");
  v->n = n;
  check(cudaMemsetAsync(v->data.data(), 0, n * sizeof(double), stream_), "cudaMemset (vector)");
  return v;
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

template <int K, typename Term>
void CudaVectorSpace::reduce(std::size_t n, Term term, double* sums) {
  selectDevice();
  const unsigned b = blocks(n);
  double* partial = partials_.data();
  double* totals = partial + kMaxSums * kReduceBlocks;
  reduceKernel<K><<<b, kThreads, 0, stream_>>>(n, term, partial);
  check(cudaGetLastError(), "reduction kernel launch");
  totalKernel<K><<<1, kThreads, 0, stream_>>>(partial, b, totals);
  check(cudaGetLastError(), "reduction total kernel launch");
  check(
      cudaMemcpyAsync(totals_.data(), totals, K * sizeof(double), cudaMemcpyDeviceToHost, stream_),
      "download of a reduction");
  check(cudaStreamSynchronize(stream_), "reduction");
  const auto* t = reinterpret_cast<const double*>(totals_.data());
  for (int k = 0; k < K; ++k)
    sums[k] = t[k];
}

void CudaVectorSpace::fill(double value, compute::SpaceVector& v) {
  double* p = of(v);
  forEachKernel<<<elementBlocks(v.size()), kThreads, 0, stream_>>>(
      v.size(), [=] __device__(unsigned long long i) { p[i] = value; });
  check(cudaGetLastError(), "fill kernel launch");
}

double CudaVectorSpace::dot(const compute::SpaceVector& va, const compute::SpaceVector& vb) {
  requireSame(va.size(), vb.size(), "dot");
  const double* a = of(va);
  const double* b = of(vb);
  double s = 0.0;
  reduce<1>(
      va.size(), [=] __device__(unsigned long long i, double* acc) { acc[0] += a[i] * b[i]; }, &s);
  return s;
}

void CudaVectorSpace::axpy(double a, const compute::SpaceVector& vx, compute::SpaceVector& vy) {
  requireSame(vx.size(), vy.size(), "axpy");
  const double* x = of(vx);
  double* y = of(vy);
  forEachKernel<<<elementBlocks(vy.size()), kThreads, 0, stream_>>>(
      vy.size(), [=] __device__(unsigned long long i) { y[i] += a * x[i]; });
  check(cudaGetLastError(), "axpy kernel launch");
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

compute::VectorSpace::PairSums CudaVectorSpace::differences(const compute::SpaceVector& vxn,
                                                            const compute::SpaceVector& vx,
                                                            const compute::SpaceVector& vgn,
                                                            const compute::SpaceVector& vg,
                                                            compute::SpaceVector* vs,
                                                            compute::SpaceVector* vy) {
  requireSame(vxn.size(), vx.size(), "differences");
  requireSame(vgn.size(), vg.size(), "differences");
  requireSame(vx.size(), vg.size(), "differences");
  const double* xn = of(vxn);
  const double* x = of(vx);
  const double* gn = of(vgn);
  const double* g = of(vg);
  double* s = vs ? of(*vs) : nullptr;
  double* y = vy ? of(*vy) : nullptr;
  double sums[3] = {};
  reduce<3>(
      vx.size(),
      [=] __device__(unsigned long long i, double* acc) {
        const double si = xn[i] - x[i];
        const double yi = gn[i] - g[i];
        acc[0] += si * yi;
        acc[1] += si * si;
        acc[2] += yi * yi;
        if (s != nullptr)
          s[i] = si;
        if (y != nullptr)
          y[i] = yi;
      },
      sums);
  return {sums[0], sums[1], sums[2]};
}

double CudaVectorSpace::pixelPenalty(compute::PixelPenalty kind, const compute::PenaltyArgs& args,
                                     const compute::SpaceVector& vimage,
                                     compute::SpaceVector* vgradient, double scale) {
  const std::size_t n = vimage.size();
  requireSame(n, std::size_t(args.nx) * std::size_t(args.ny), "pixelPenalty (image)");
  if (args.mask != nullptr)
    requireSame(n, args.mask->size(), "pixelPenalty (mask)");
  if (args.prior != nullptr)
    requireSame(n, args.prior->size(), "pixelPenalty (prior)");
  if (vgradient != nullptr)
    requireSame(n, vgradient->size(), "pixelPenalty (gradient)");
  if (kind == compute::PixelPenalty::Entropy && args.prior == nullptr)
    throw std::invalid_argument("CUDA vector space: entropy needs its default image");
  const double* image = of(vimage);
  const double* mask = args.mask ? of(*args.mask) : nullptr;
  const double* prior = args.prior ? of(*args.prior) : nullptr;
  double* gradient = vgradient ? of(*vgradient) : nullptr;
  const double parameter = args.parameter;
  double sum = 0.0;
  reduce<1>(
      n,
      [=] __device__(unsigned long long i, double* acc) {
        double derivative = 0.0;
        acc[0] += compute::penalty::pixelPenaltyAt(
            kind, parameter, image[i], compute::penalty::weightAt(mask, i), prior ? prior[i] : 0.0,
            scale, gradient ? &derivative : nullptr);
        if (gradient != nullptr)
          gradient[i] += derivative;
      },
      &sum);
  return sum;
}

double CudaVectorSpace::differencePenalty(compute::DifferencePenalty kind,
                                          const compute::PenaltyArgs& args,
                                          const compute::SpaceVector& vimage,
                                          compute::SpaceVector* vgradient, double scale) {
  const std::size_t n = vimage.size();
  requireSame(n, std::size_t(args.nx) * std::size_t(args.ny), "differencePenalty (image)");
  if (args.mask != nullptr)
    requireSame(n, args.mask->size(), "differencePenalty (mask)");
  if (vgradient != nullptr)
    requireSame(n, vgradient->size(), "differencePenalty (gradient)");
  const double* image = of(vimage);
  const double* mask = args.mask ? of(*args.mask) : nullptr;
  double* gradient = vgradient ? of(*vgradient) : nullptr;
  const double parameter = args.parameter;
  const int nx = args.nx, ny = args.ny;
  double sum = 0.0;
  reduce<1>(
      n,
      [=] __device__(unsigned long long i, double* acc) {
        const int y = int(i / unsigned(nx)), x = int(i - static_cast<unsigned long long>(y) * nx);
        acc[0] +=
            compute::penalty::differencePenaltyValueAt(kind, parameter, image, mask, nx, ny, x, y);
        if (gradient != nullptr)
          gradient[i] += scale * compute::penalty::differencePenaltyGradientAt(
                                     kind, parameter, image, mask, nx, ny, x, y);
      },
      &sum);
  return sum;
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

void CudaVectorSpace::pixelProx(compute::PixelPenalty kind, const compute::PenaltyArgs& args,
                                const compute::SpaceVector& vv, double step,
                                compute::SpaceVector& vout) {
  const std::size_t n = vv.size();
  requireSame(n, std::size_t(args.nx) * std::size_t(args.ny), "pixelProx (image)");
  requireSame(n, vout.size(), "pixelProx (out)");
  if (args.mask != nullptr)
    requireSame(n, args.mask->size(), "pixelProx (mask)");
  if (args.prior != nullptr)
    requireSame(n, args.prior->size(), "pixelProx (prior)");
  if (kind == compute::PixelPenalty::Entropy && args.prior == nullptr)
    throw std::invalid_argument("CUDA vector space: entropy needs its default image");
  const double* v = of(vv);
  const double* mask = args.mask ? of(*args.mask) : nullptr;
  const double* prior = args.prior ? of(*args.prior) : nullptr;
  double* out = of(vout);
  forEachKernel<<<elementBlocks(n), kThreads, 0, stream_>>>(
      n, [=] __device__(unsigned long long k) {
        out[k] = compute::penalty::pixelProxAt(
            kind, v[k], step, compute::penalty::weightAt(mask, k), prior ? prior[k] : 0.0);
      });
  check(cudaGetLastError(), "pixelProx kernel launch");
}

void CudaVectorSpace::mapToImage(compute::PixelMapping m, const compute::SpaceVector& vx,
                                 const compute::SpaceVector* vsupport,
                                 compute::SpaceVector& vimage) {
  requireSame(vx.size(), vimage.size(), "mapToImage");
  if (vsupport != nullptr)
    requireSame(vx.size(), vsupport->size(), "mapToImage");
  const double* x = of(vx);
  const double* support = vsupport ? of(*vsupport) : nullptr;
  double* image = of(vimage);
  forEachKernel<<<elementBlocks(vx.size()), kThreads, 0, stream_>>>(
      vx.size(), [=] __device__(unsigned long long k) {
        image[k] = support && support[k] == 0.0 ? 0.0 : compute::mapping::toImage(m, x[k]);
      });
  check(cudaGetLastError(), "mapToImage kernel launch");
}

void CudaVectorSpace::mapGradient(compute::PixelMapping m, const compute::SpaceVector& vx,
                                  const compute::SpaceVector& vimage,
                                  const compute::SpaceVector* vsupport,
                                  const compute::SpaceVector& vgrad_image,
                                  compute::SpaceVector& vgrad_x) {
  requireSame(vx.size(), vimage.size(), "mapGradient");
  requireSame(vx.size(), vgrad_image.size(), "mapGradient");
  requireSame(vx.size(), vgrad_x.size(), "mapGradient");
  const double* x = of(vx);
  const double* image = of(vimage);
  const double* support = vsupport ? of(*vsupport) : nullptr;
  const double* grad_image = of(vgrad_image);
  double* grad_x = of(vgrad_x);
  forEachKernel<<<elementBlocks(vx.size()), kThreads, 0, stream_>>>(
      vx.size(), [=] __device__(unsigned long long k) {
        const double derivative =
            support && support[k] == 0.0 ? 0.0 : compute::mapping::derivative(m, x[k], image[k]);
        grad_x[k] = derivative * grad_image[k];
      });
  check(cudaGetLastError(), "mapGradient kernel launch");
}

template <typename DC>
void CudaVectorSpace::addReal(double scale, const DC* image, compute::SpaceVector& vout) {
  double* out = of(vout);
  forEachKernel<<<elementBlocks(vout.size()), kThreads, 0, stream_>>>(
      vout.size(), [=] __device__(unsigned long long i) { out[i] += scale * double(image[i].x); });
  check(cudaGetLastError(), "adjoint image kernel launch");
}

template <typename DC>
void CudaVectorSpace::toComplex(const compute::SpaceVector& vimage, DC* out) {
  const double* image = of(vimage);
  using T = decltype(out->x);
  forEachKernel<<<elementBlocks(vimage.size()), kThreads, 0, stream_>>>(
      vimage.size(), [=] __device__(unsigned long long i) {
        out[i].x = T(image[i]);
        out[i].y = T(0);
      });
  check(cudaGetLastError(), "model image kernel launch");
}

template void CudaVectorSpace::addReal<float2>(double, const float2*, compute::SpaceVector&);
template void CudaVectorSpace::addReal<double2>(double, const double2*, compute::SpaceVector&);
template void CudaVectorSpace::toComplex<float2>(const compute::SpaceVector&, float2*);
template void CudaVectorSpace::toComplex<double2>(const compute::SpaceVector&, double2*);

}  // namespace apertura::cuda
