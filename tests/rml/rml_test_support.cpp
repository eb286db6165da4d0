#include "tests/rml/rml_test_support.h"

#include <algorithm>
#include <cmath>

#include "core/util/random.h"

namespace apertura::rml::test {

double Random::uniform(double lo, double hi) {
  return lo + (hi - lo) * counterUniform(0x5eed, state_++);
}

double Random::normal() {
  return counterNormalPair(0xbeef, state_++).a;
}

std::vector<double> Random::vector(std::size_t n, double lo, double hi) {
  std::vector<double> v(n);
  for (double& x : v)
    x = uniform(lo, hi);
  return v;
}

imaging::UvwBlock SyntheticUv::block() const {
  return imaging::UvwBlock{uvw_m.data(), uvw_m.size() / 3, frequencies_hz.data(),
                           frequencies_hz.size()};
}

SyntheticUv randomUv(std::size_t rows, double max_uv_wavelengths, Random& rng) {
  SyntheticUv uv;
  uv.frequencies_hz = {imaging::kSpeedOfLight};  // 1 wavelength = 1 metre
  for (std::size_t r = 0; r < rows; ++r) {
    const double radius = max_uv_wavelengths * std::sqrt(rng.uniform(0.0, 1.0));
    const double angle = rng.uniform(0.0, 2.0 * M_PI);
    uv.uvw_m.push_back(radius * std::cos(angle));
    uv.uvw_m.push_back(radius * std::sin(angle));
    uv.uvw_m.push_back(rng.uniform(-10.0, 10.0));
  }
  return uv;
}

double gradientError(const std::function<double(const double*, double*)>& f,
                     const std::vector<double>& x, double h) {
  std::vector<double> g(x.size());
  f(x.data(), g.data());
  std::vector<double> xp = x;
  double err2 = 0.0, ref2 = 0.0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    xp[k] = x[k] + h;
    const double fp = f(xp.data(), nullptr);
    xp[k] = x[k] - h;
    const double fm = f(xp.data(), nullptr);
    xp[k] = x[k];
    const double fd = (fp - fm) / (2.0 * h);
    err2 += (fd - g[k]) * (fd - g[k]);
    ref2 += g[k] * g[k];
  }
  return std::sqrt(err2 / ref2);
}

double gradientError(DifferentiableFunction& f, const std::vector<double>& x, double h) {
  return gradientError([&f](const double* p, double* g) { return f.evaluate(p, g); }, x, h);
}

double termGradientError(ObjectiveTerm& term, const std::vector<double>& x, double h,
                         double scale) {
  return gradientError(
      [&](const double* p, double* g) {
        if (g != nullptr)
          std::fill(g, g + x.size(), 0.0);
        const double v = term.evaluate(p, g, scale);
        if (g != nullptr) {
          for (std::size_t i = 0; i < x.size(); ++i)
            g[i] /= scale;
        }
        return v;
      },
      x, h);
}

double norm(const std::vector<double>& a) {
  double s = 0.0;
  for (double v : a)
    s += v * v;
  return std::sqrt(s);
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k)
    s += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(s);
}

}  // namespace apertura::rml::test
