#pragma once

#include <atomic>
#include <limits>
#include <memory>
#include <vector>

#include "core/compute/vector_space.h"
#include "core/rml/function.h"

namespace apertura::rml {

// Host vectors (std::vector<double>) with the solvers' parallel kernels (detail/parallel_sum.h:
// fixed blocks, bitwise the same for any number of threads). The reference every other space is
// checked against; the resident solvers run on it in the CPU tests.
class HostVectorSpace final : public compute::VectorSpace {
 public:
  // A vector of T (double, or float from createFloat); its bytes count in bytesHeld() while it
  // lives.
  template <typename T>
  class Elements final : public compute::SpaceVector {
   public:
    Elements(std::size_t n, std::shared_ptr<std::atomic<std::size_t>> held)
        : data(n, T(0)), held_(std::move(held)) {
      *held_ += n * sizeof(T);
    }
    ~Elements() override { *held_ -= data.size() * sizeof(T); }
    std::size_t size() const override { return data.size(); }
    compute::Element element() const override {
      return sizeof(T) == sizeof(float) ? compute::Element::Float : compute::Element::Double;
    }
    std::vector<T> data;  // its size is fixed: the count of held bytes follows it

   private:
    std::shared_ptr<std::atomic<std::size_t>> held_;
  };
  using Vec = Elements<double>;
  using FloatVec = Elements<float>;
  // A double vector's elements (std::invalid_argument for a float or another space's vector).
  static const std::vector<double>& of(const compute::SpaceVector& v);
  static std::vector<double>& of(compute::SpaceVector& v);
  // A float vector's elements (std::invalid_argument for any other).
  static const std::vector<float>& floatsOf(const compute::SpaceVector& v);
  static std::vector<float>& floatsOf(compute::SpaceVector& v);
  // std::invalid_argument naming `op` unless the sizes a and b are equal.
  static void requireSameSize(std::size_t a, std::size_t b, const char* op);

  std::string describe() const override { return "host"; }
  compute::SpaceVectorPtr create(std::size_t n) override;
  compute::SpaceVectorPtr createFloat(std::size_t n) override;
  void upload(const double* host, compute::SpaceVector& v) override;
  void download(const compute::SpaceVector& v, double* host) override;
  void copy(const compute::SpaceVector& from, compute::SpaceVector& to) override;
  void fill(double value, compute::SpaceVector& v) override;
  void copyRange(const compute::SpaceVector& from, std::size_t from_offset,
                 compute::SpaceVector& to, std::size_t to_offset, std::size_t n) override;
  // dot, axpy and differences take float vectors too: in host_vector_space_pairs.cpp.
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
  // In host_vector_space_penalties.cpp.
  double pixelPenalty(compute::PixelPenalty kind, const compute::PenaltyArgs& args,
                      const compute::SpaceVector& image, compute::SpaceVector* gradient,
                      double scale) override;
  double differencePenalty(compute::DifferencePenalty kind, const compute::PenaltyArgs& args,
                           const compute::SpaceVector& image, compute::SpaceVector* gradient,
                           double scale) override;
  void pixelProx(compute::PixelPenalty kind, const compute::PenaltyArgs& args,
                 const compute::SpaceVector& v, double step, compute::SpaceVector& out) override;
  // In host_vector_space_duals.cpp.
  void primalFromDual(int nx, int ny, const compute::SpaceVector& v, const compute::SpaceVector& qx,
                      const compute::SpaceVector& qy, double step, bool nonnegative,
                      compute::SpaceVector& out) override;
  DualSums dualStep(const DualStepArgs& args, const compute::SpaceVector& x,
                    compute::SpaceVector& qx, compute::SpaceVector& qy, compute::SpaceVector& rx,
                    compute::SpaceVector& ry) override;
  std::size_t bytesHeld() const override;
  // Unbounded, unless limited (the tests of what a small device falls back to).
  std::size_t bytesAvailable() const override { return available_; }
  void limitAvailableBytes(std::size_t bytes) { available_ = bytes; }

 private:
  std::size_t available_ = std::numeric_limits<std::size_t>::max();
  // Bytes of the vectors alive (shared: a vector may outlive its space).
  std::shared_ptr<std::atomic<std::size_t>> bytes_ = std::make_shared<std::atomic<std::size_t>>(0);
};

// A host function seen through the host space (evaluateIn on the vectors' own storage, no
// copies), so that a solver written once for VectorSpace runs host functions too.
class OnHostSpace final : public DifferentiableFunction {
 public:
  explicit OnHostSpace(DifferentiableFunction& f) : f_(f) {}
  std::size_t dimension() const override { return f_.dimension(); }
  double evaluate(const double* x, double* gradient) override { return f_.evaluate(x, gradient); }
  std::vector<TermValue> lastTermValues() const override { return f_.lastTermValues(); }
  std::vector<StageTime> takeStageTimes() override { return f_.takeStageTimes(); }
  compute::VectorSpace* residentSpace() override { return &space_; }
  double evaluateIn(const compute::SpaceVector& x, compute::SpaceVector* gradient) override {
    return f_.evaluate(HostVectorSpace::of(x).data(),
                       gradient ? HostVectorSpace::of(*gradient).data() : nullptr);
  }

 private:
  DifferentiableFunction& f_;
  HostVectorSpace space_;
};

}  // namespace apertura::rml
