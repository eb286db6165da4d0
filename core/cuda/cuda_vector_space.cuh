#pragma once

// Internal to core/cuda: the VectorSpace of the CUDA backend. Vectors live in device memory and
// every operation is queued on the operator's stream, so it is ordered with the operator's
// kernels; reductions wait for their result. Reductions use a fixed launch (threads, blocks and
// each thread's elements depend only on n) and add the blocks' partial sums in a fixed order:
// the same bits on every call.
#include <cuda_runtime.h>

#include "core/compute/vector_space.h"
#include "core/cuda/device_buffers.cuh"

namespace apertura::cuda {

class CudaVectorSpace final : public compute::VectorSpace {
 public:
  // A device vector of T: double, or float (createFloat, L-BFGS's curvature pairs).
  template <typename T>
  class Elements final : public compute::SpaceVector {
   public:
    std::size_t size() const override { return n; }
    compute::Element element() const override {
      return sizeof(T) == sizeof(float) ? compute::Element::Float : compute::Element::Double;
    }
    DeviceArray<T> data;
    std::size_t n = 0;
  };
  using Vec = Elements<double>;
  using FloatVec = Elements<float>;
  // The operator's device, stream and byte counter: the space's vectors count as the
  // operator's memory in the telemetry, and bytesHeld() is that counter's total.
  CudaVectorSpace(int device, cudaStream_t stream, ByteCounter bytes);

  // A double vector's elements (std::invalid_argument for a float or another space's vector).
  static const double* of(const compute::SpaceVector& v);
  static double* of(compute::SpaceVector& v);
  // A float vector's elements (std::invalid_argument for any other).
  static const float* floatsOf(const compute::SpaceVector& v);
  static float* floatsOf(compute::SpaceVector& v);

  std::string describe() const override;
  compute::SpaceVectorPtr create(std::size_t n) override;
  compute::SpaceVectorPtr createFloat(std::size_t n) override;
  void upload(const double* host, compute::SpaceVector& v) override;
  void download(const compute::SpaceVector& v, double* host) override;
  void copy(const compute::SpaceVector& from, compute::SpaceVector& to) override;
  void fill(double value, compute::SpaceVector& v) override;
  void copyRange(const compute::SpaceVector& from, std::size_t from_offset,
                 compute::SpaceVector& to, std::size_t to_offset, std::size_t n) override;
  // dot, axpy and differences take float vectors too: in cuda_space_pairs.cu.
  double dot(const compute::SpaceVector& a, const compute::SpaceVector& b) override;
  void axpy(double a, const compute::SpaceVector& x, compute::SpaceVector& y) override;
  void scale(double a, compute::SpaceVector& x) override;
  void multiply(const compute::SpaceVector& a, const compute::SpaceVector& b,
                compute::SpaceVector& out) override;
  void axpby(double a, const compute::SpaceVector& x, double b, compute::SpaceVector& y) override;
  double projectedGradient(const compute::SpaceVector& x, const compute::SpaceVector& g,
                           bool positivity, double sign, compute::SpaceVector* d) override;
  void holdAtBound(const compute::SpaceVector& x, const compute::SpaceVector& g,
                   compute::SpaceVector& d) override;
  void step(const compute::SpaceVector& x, double alpha, const compute::SpaceVector& d, bool clip,
            compute::SpaceVector& out) override;
  double dotDifference(const compute::SpaceVector& g, const compute::SpaceVector& a,
                       const compute::SpaceVector& b) override;
  PairSums differences(const compute::SpaceVector& x_new, const compute::SpaceVector& x,
                       const compute::SpaceVector& g_new, const compute::SpaceVector& g,
                       compute::SpaceVector* s, compute::SpaceVector* y) override;
  ConjugateProducts conjugateProducts(const compute::SpaceVector& g0,
                                      const compute::SpaceVector& g1,
                                      const compute::SpaceVector& d) override;
  void gradientStep(const compute::SpaceVector& y, const compute::SpaceVector& g, double lipschitz,
                    compute::SpaceVector& out) override;
  double distanceSquared(const compute::SpaceVector& a, const compute::SpaceVector& b) override;
  void extrapolate(const compute::SpaceVector& p, const compute::SpaceVector& x, double momentum,
                   compute::SpaceVector& y) override;
  void maxWith(double floor, compute::SpaceVector& v) override;
  void mapToImage(compute::PixelMapping m, const compute::SpaceVector& x,
                  const compute::SpaceVector* support, compute::SpaceVector& image) override;
  void mapGradient(compute::PixelMapping m, const compute::SpaceVector& x,
                   const compute::SpaceVector& image, const compute::SpaceVector* support,
                   const compute::SpaceVector& grad_image, compute::SpaceVector& grad_x) override;
  double pixelPenalty(compute::PixelPenalty kind, const compute::PenaltyArgs& args,
                      const compute::SpaceVector& image, compute::SpaceVector* gradient,
                      double scale) override;
  double differencePenalty(compute::DifferencePenalty kind, const compute::PenaltyArgs& args,
                           const compute::SpaceVector& image, compute::SpaceVector* gradient,
                           double scale) override;
  void pixelProx(compute::PixelPenalty kind, const compute::PenaltyArgs& args,
                 const compute::SpaceVector& v, double step, compute::SpaceVector& out) override;
  // In cuda_space_duals.cu.
  void primalFromDual(int nx, int ny, const compute::SpaceVector& v, const compute::SpaceVector& qx,
                      const compute::SpaceVector& qy, double step, bool nonnegative,
                      compute::SpaceVector& out) override;
  DualSums dualStep(const DualStepArgs& args, const compute::SpaceVector& x,
                    compute::SpaceVector& qx, compute::SpaceVector& qy, compute::SpaceVector& rx,
                    compute::SpaceVector& ry) override;
  std::size_t bytesHeld() const override;
  std::size_t bytesAvailable() const override;  // the device's free memory

  // Adds scale * Re(image[p]) to out[p] for a complex device image of T (the adjoint's last step).
  template <typename DC>
  void addReal(double scale, const DC* image, compute::SpaceVector& out);
  // out[p] = (image[p], 0) in T: a real resident image as the operator's complex image.
  template <typename DC>
  void toComplex(const compute::SpaceVector& image, DC* out);

  // Sums of K per-element terms over [0, n) (see the header comment); term(i, acc) adds element
  // i's terms into acc[0..K).
  template <int K, typename Term>
  void reduce(std::size_t n, Term term, double* sums);

  // dot, axpy and differences on elements of their own types (double or float), in
  // cuda_space_pairs.cu (public: an extended lambda's enclosing function may not be private).
  template <typename A, typename B>
  double dotOf(std::size_t n, const A* a, const B* b);
  template <typename X>
  void axpyOf(std::size_t n, double a, const X* x, double* y);
  template <typename T>
  PairSums differencesOf(std::size_t n, const double* xn, const double* x, const double* gn,
                         const double* g, T* s, T* y);

 private:
  void selectDevice() const;
  unsigned blocks(std::size_t n) const;
  // A zero-filled device vector of n T, counted in bytes_; `what` names it in an out-of-memory
  // error.
  template <typename T>
  compute::SpaceVectorPtr allocate(std::size_t n, const char* what);

  int device_;
  cudaStream_t stream_;
  ByteCounter bytes_;
  DeviceArray<double> partials_;  // K x kReduceBlocks block sums, then the K totals (K <= 7)
  PinnedBuffer totals_;           // the K totals on the host
};

}  // namespace apertura::cuda
