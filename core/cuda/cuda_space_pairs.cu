// The CUDA space's operations on L-BFGS's curvature pairs, which may be float vectors: dot, axpy
// and differences. Float elements are widened to double before any arithmetic, as the host space
// does (rml/host_vector_space_pairs.cpp).
#include <cuda_runtime.h>

#include <stdexcept>
#include <utility>

#include "core/cuda/cuda_vector_space.cuh"
#include "core/cuda/space_kernels.cuh"

namespace apertura::cuda {

using compute::Element;
using space::elementBlocks;
using space::forEachKernel;
using space::kThreads;
using space::requireSame;

const float* CudaVectorSpace::floatsOf(const compute::SpaceVector& v) {
  const auto* c = dynamic_cast<const FloatVec*>(&v);
  if (c == nullptr)
    throw std::invalid_argument(
        v.element() == Element::Double
            ? "CUDA vector space: a double vector where a float one is needed"
            : "CUDA vector space: a vector of another space");
  return c->data.data();
}

float* CudaVectorSpace::floatsOf(compute::SpaceVector& v) {
  return const_cast<float*>(floatsOf(std::as_const(v)));
}

template <typename A, typename B>
double CudaVectorSpace::dotOf(std::size_t n, const A* a, const B* b) {
  double s = 0.0;
  reduce<1>(
      n,
      [=] __device__(unsigned long long i, double* acc) { acc[0] += double(a[i]) * double(b[i]); },
      &s);
  return s;
}

template <typename X>
void CudaVectorSpace::axpyOf(std::size_t n, double a, const X* x, double* y) {
  forEachKernel<<<elementBlocks(n), kThreads, 0, stream_>>>(
      n, [=] __device__(unsigned long long i) { y[i] += a * double(x[i]); });
  check(cudaGetLastError(), "axpy kernel launch");
}

template <typename T>
compute::VectorSpace::PairSums CudaVectorSpace::differencesOf(std::size_t n, const double* xn,
                                                              const double* x, const double* gn,
                                                              const double* g, T* s, T* y) {
  double sums[4] = {};
  reduce<4>(
      n,
      [=] __device__(unsigned long long i, double* acc) {
        const double si = xn[i] - x[i];
        const double yi = gn[i] - g[i];
        const float sf = float(si), yf = float(yi);
        acc[0] += si * yi;
        acc[1] += si * si;
        acc[2] += yi * yi;
        acc[3] += double(sf) * double(yf);
        if (s != nullptr) {  // T(si) is sf for float pairs
          s[i] = T(si);
          y[i] = T(yi);
        }
      },
      sums);
  return {sums[0], sums[1], sums[2], sums[3]};
}

double CudaVectorSpace::dot(const compute::SpaceVector& va, const compute::SpaceVector& vb) {
  requireSame(va.size(), vb.size(), "dot");
  const bool fa = va.element() == Element::Float, fb = vb.element() == Element::Float;
  if (fa && fb)
    return dotOf(va.size(), floatsOf(va), floatsOf(vb));
  if (fa)
    return dotOf(va.size(), floatsOf(va), of(vb));
  if (fb)
    return dotOf(va.size(), of(va), floatsOf(vb));
  return dotOf(va.size(), of(va), of(vb));
}

void CudaVectorSpace::axpy(double a, const compute::SpaceVector& vx, compute::SpaceVector& vy) {
  requireSame(vx.size(), vy.size(), "axpy");
  if (vx.element() == Element::Float) {
    axpyOf(vy.size(), a, floatsOf(vx), of(vy));
  } else {
    axpyOf(vy.size(), a, of(vx), of(vy));
  }
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
  if ((vs == nullptr) != (vy == nullptr))
    throw std::invalid_argument("CUDA vector space: differences stores both s and y, or neither");
  if (vs != nullptr) {
    requireSame(vs->size(), vx.size(), "differences");
    requireSame(vy->size(), vx.size(), "differences");
  }
  const std::size_t n = vx.size();
  if (vs != nullptr && vs->element() == Element::Float)
    return differencesOf<float>(n, of(vxn), of(vx), of(vgn), of(vg), floatsOf(*vs), floatsOf(*vy));
  return differencesOf<double>(n, of(vxn), of(vx), of(vgn), of(vg), vs ? of(*vs) : nullptr,
                               vy ? of(*vy) : nullptr);
}

}  // namespace apertura::cuda
