#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/imaging/image_geometry.h"
#include "core/imaging/uv_samples.h"
#include "core/rml/direct_dft_operator.h"
#include "core/rml/function.h"
#include "core/rml/objective_term.h"

namespace apertura::rml::test {

// Deterministic uniform numbers in [lo, hi).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  double uniform(double lo = 0.0, double hi = 1.0);
  double normal();
  std::vector<double> vector(std::size_t n, double lo, double hi);

 private:
  std::uint64_t state_;
};

// Random uv sampling (uvw in metres at one channel of 1 GHz... see .cpp) for a geometry.
struct SyntheticUv {
  std::vector<double> uvw_m;
  std::vector<double> frequencies_hz;
  imaging::UvwBlock block() const;
};
SyntheticUv randomUv(std::size_t rows, double max_uv_wavelengths, Random& rng);

// Central-difference gradient of f at x with step h; returns |g_fd - g| / |g|.
double gradientError(DifferentiableFunction& f, const std::vector<double>& x, double h);
double gradientError(const std::function<double(const double*, double*)>& f,
                     const std::vector<double>& x, double h);
// The same for a term's gradient, evaluated with `scale` (terms add scale * gradient) so that
// the scaling is checked too.
double termGradientError(ObjectiveTerm& term, const std::vector<double>& x, double h,
                         double scale = 1.0);

double norm(const std::vector<double>& a);
double distance(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace apertura::rml::test
