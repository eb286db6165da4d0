// The image-domain operations of the CUDA VectorSpace: the regularizers' penalties and pixel
// proxes (core/compute/penalty_math.h), the positivity mappings (core/compute/mapping_math.h) and
// the operator's real/complex image conversions; one thread per pixel, or a fixed reduction.
#include <cuda_runtime.h>

#include <stdexcept>

#include "core/compute/mapping_math.h"
#include "core/compute/penalty_math.h"
#include "core/cuda/cuda_vector_space.cuh"
#include "core/cuda/space_kernels.cuh"

namespace apertura::cuda {

using space::elementBlocks;
using space::forEachKernel;
using space::kThreads;
using space::requireSame;

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
  const bool non_negative = args.non_negative;
  double sum = 0.0;
  reduce<1>(
      n,
      [=] __device__(unsigned long long i, double* acc) {
        double derivative = 0.0;
        acc[0] += compute::penalty::pixelPenaltyAt(
            kind, parameter, image[i], compute::penalty::weightAt(mask, i), prior ? prior[i] : 0.0,
            scale, gradient ? &derivative : nullptr, non_negative);
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
