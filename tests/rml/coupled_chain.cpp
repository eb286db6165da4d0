#include "tests/rml/coupled_chain.h"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace apertura::rml::test {

CoupledChain::CoupledChain(Vector w, Vector b, double mu, bool log_cosh)
    : w_(std::move(w)), b_(std::move(b)), mu_(mu), log_cosh_(log_cosh) {}

double CoupledChain::evaluate(const double* x, double* g) {
  ++evaluations;
  if (throw_after > 0 && evaluations > throw_after)
    throw std::runtime_error("objective failed on purpose");
  const std::size_t n = w_.size();
  if (record_points)
    points.emplace_back(x, x + n);
  double f = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = x[i] - b_[i];
    f += 0.5 * w_[i] * r * r;
    if (g != nullptr)
      g[i] = w_[i] * r;
  }
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double d = x[i] - x[i + 1];
    double t = mu_ * d;
    f += 0.5 * mu_ * d * d;
    if (log_cosh_) {
      f += std::log(std::cosh(d));
      t += std::tanh(d);
    }
    if (g != nullptr) {
      g[i] += t;
      g[i + 1] -= t;
    }
  }
  return f;
}

}  // namespace apertura::rml::test
