#include "core/rml/complex_parameters.h"

#include <stdexcept>

namespace apertura::rml {

namespace {

// f(z) as a function of x = (Re z_0, Im z_0, Re z_1, ...). The parameters and the gradient are
// copied through complex buffers allocated once (no reinterpretation of double arrays).
class InterleavedFunction final : public DifferentiableFunction {
 public:
  explicit InterleavedFunction(ComplexDifferentiableFunction& f)
      : f_(f), z_(f.dimension()), g_(f.dimension()) {}
  std::size_t dimension() const override { return 2 * f_.dimension(); }
  double evaluate(const double* x, double* gradient) override {
    for (std::size_t k = 0; k < z_.size(); ++k)
      z_[k] = {x[2 * k], x[2 * k + 1]};
    const double value = f_.evaluate(z_.data(), gradient != nullptr ? g_.data() : nullptr);
    if (gradient != nullptr) {
      for (std::size_t k = 0; k < g_.size(); ++k) {
        gradient[2 * k] = g_[k].real();
        gradient[2 * k + 1] = g_[k].imag();
      }
    }
    return value;
  }

 private:
  ComplexDifferentiableFunction& f_;
  ComplexVector z_, g_;
};

}  // namespace

std::complex<double> hermitianDot(const ComplexVector& a, const ComplexVector& b) {
  if (a.size() != b.size())
    throw std::invalid_argument("hermitianDot: vectors of different sizes");
  std::complex<double> s = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k)
    s += std::conj(a[k]) * b[k];
  return s;
}

ComplexOptimizerResult minimizeConjugateGradient(ComplexDifferentiableFunction& f, ComplexVector z0,
                                                 const CgSettings& settings) {
  if (z0.size() != f.dimension())
    throw std::invalid_argument("CG: z0 has the wrong size");
  InterleavedFunction real(f);
  Vector x(2 * z0.size());
  for (std::size_t k = 0; k < z0.size(); ++k) {
    x[2 * k] = z0[k].real();
    x[2 * k + 1] = z0[k].imag();
  }
  const OptimizerResult r = minimizeConjugateGradient(real, x, settings);
  ComplexOptimizerResult out;
  out.z.resize(z0.size());
  for (std::size_t k = 0; k < z0.size(); ++k)
    out.z[k] = {r.x[2 * k], r.x[2 * k + 1]};
  out.objective = r.objective;
  out.iterations = r.iterations;
  out.evaluations = r.evaluations;
  out.reason = r.reason;
  return out;
}

}  // namespace apertura::rml
