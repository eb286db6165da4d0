// The CUDA VectorSpace's passes of the total-variation prox's dual iteration
// (core/compute/dual_math.h): one thread per pixel, and a fixed reduction for the step's sums.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "core/compute/dual_math.h"
#include "core/cuda/cuda_vector_space.cuh"
#include "core/cuda/space_kernels.cuh"

namespace apertura::cuda {

using space::elementBlocks;
using space::forEachKernel;
using space::kThreads;
using space::requireSame;

namespace {

void requireImage(int nx, int ny, std::size_t n, const char* op) {
  if (nx <= 0 || ny <= 0)
    throw std::invalid_argument(std::string("CUDA vector space: ") + op + ": empty image shape");
  requireSame(n, std::size_t(nx) * std::size_t(ny), op);
}

}  // namespace

void CudaVectorSpace::primalFromDual(int nx, int ny, const compute::SpaceVector& vv,
                                     const compute::SpaceVector& vqx,
                                     const compute::SpaceVector& vqy, double step, bool nonnegative,
                                     compute::SpaceVector& vout) {
  if (&vout == &vqx || &vout == &vqy)
    throw std::invalid_argument("CUDA vector space: primalFromDual: out is a dual vector");
  for (const compute::SpaceVector* v :
       {&vv, &vqx, &vqy, static_cast<const compute::SpaceVector*>(&vout)})
    requireImage(nx, ny, v->size(), "primalFromDual");
  const std::size_t n = vv.size();
  const double* v = of(vv);
  const double* qx = of(vqx);
  const double* qy = of(vqy);
  double* out = of(vout);
  selectDevice();
  forEachKernel<<<elementBlocks(n), kThreads, 0, stream_>>>(
      n, [=] __device__(unsigned long long i) {
        const int y = int(i / unsigned(nx)), x = int(i - static_cast<unsigned long long>(y) * nx);
        out[i] = compute::dual::primalAt(
            v[i], step, compute::dual::differenceAdjointAt(qx, qy, nx, ny, x, y), nonnegative);
      });
  check(cudaGetLastError(), "primalFromDual kernel launch");
}

compute::VectorSpace::DualSums CudaVectorSpace::dualStep(
    const DualStepArgs& args, const compute::SpaceVector& vx, compute::SpaceVector& vqx,
    compute::SpaceVector& vqy, compute::SpaceVector& vrx, compute::SpaceVector& vry) {
  if (&vx == &vqx || &vx == &vqy || &vx == &vrx || &vx == &vry)
    throw std::invalid_argument("CUDA vector space: dualStep: x is a dual vector");
  for (const compute::SpaceVector* v : {&vx, static_cast<const compute::SpaceVector*>(&vqx),
                                        static_cast<const compute::SpaceVector*>(&vqy),
                                        static_cast<const compute::SpaceVector*>(&vrx),
                                        static_cast<const compute::SpaceVector*>(&vry)})
    requireImage(args.nx, args.ny, v->size(), "dualStep");
  if (args.mask != nullptr)
    requireImage(args.nx, args.ny, args.mask->size(), "dualStep (mask)");
  const double* image = of(vx);
  const double* mask = args.mask ? of(*args.mask) : nullptr;
  double* qx = of(vqx);
  double* qy = of(vqy);
  double* rx = of(vrx);
  double* ry = of(vry);
  DualStepArgs a = args;
  a.mask = nullptr;  // a host object: the kernel reads `mask`
  const int nx = args.nx;
  double sums[2] = {0.0, 0.0};
  reduce<2>(
      vx.size(),
      [=] __device__(unsigned long long i, double* acc) {
        const int y = int(i / unsigned(nx)), x = int(i - static_cast<unsigned long long>(y) * nx);
        const compute::dual::DualPixel d =
            compute::dual::dualStepAt(a, image, mask, x, y, qx[i], qy[i], rx[i], ry[i]);
        qx[i] = d.qx;
        qy[i] = d.qy;
        acc[0] += d.change;
        acc[1] += d.norm;
      },
      sums);
  return {sums[0], sums[1]};
}

}  // namespace apertura::cuda
