#include "core/rml/gradient_regularizers.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rml/detail/parallel_sum.h"
#include "core/rml/finite_differences.h"
#include "core/rml/tv_prox.h"

namespace apertura::rml {

namespace {

// The prox of a quadratic term by conjugate gradients (tv_prox.h): on the host with the class's
// own gradient, in a space with the space's penalty (the same gradient elements).
void quadraticProx(ObjectiveTerm& term, std::size_t n, const double* v, double step, double* out) {
  proxQuadratic(
      [&term, n](const double* x, double* g) {
        std::fill(g, g + n, 0.0);
        term.evaluate(x, g, 1.0);
      },
      n, v, step, out);
}

void quadraticProxIn(compute::VectorSpace& space, compute::DifferencePenalty kind,
                     const compute::PenaltyArgs& args, const compute::SpaceVector& v, double step,
                     compute::SpaceVector& out) {
  proxQuadraticIn(
      space,
      [&](const compute::SpaceVector& x, compute::SpaceVector& ax) {
        space.copy(x, ax);  // ax = x + step grad R(x)
        space.differencePenalty(kind, args, x, &ax, step);
      },
      v, out);
}

}  // namespace

TotalVariation::TotalVariation(int nx, int ny, TvKind kind, double epsilon)
    : DualProxRegularizer(nx, ny), kind_(kind), eps_(epsilon) {
  if (epsilon < 0.0)
    throw std::invalid_argument("tv: negative smoothing epsilon");
}

std::string TotalVariation::name() const {
  return kind_ == TvKind::Isotropic ? "tv" : "tv_aniso";
}

void TotalVariation::setProxIterations(int iterations, double tolerance) {
  prox_iterations_ = iterations;
  prox_tolerance_ = tolerance;
}

double TotalVariation::value(const double* image, double* gradient, double scale, double eps) {
  const std::size_t n = numPixels();
  std::vector<double> dx(n), dy(n);
  forwardDifferences(image, nx_, ny_, dx.data(), dy.data());
  double sum = 0.0;
  // Smoothed absolute value and its derivative; eps = 0 gives |a| and sign(a).
  auto smooth_abs = [eps](double a, double* derivative) {
    const double r = std::sqrt(a * a + eps * eps);
    *derivative = r > 0.0 ? a / r : 0.0;
    return r - eps;
  };
  for (std::size_t p = 0; p < n; ++p) {
    const double m = maskAt(p);
    if (m == 0.0) {
      dx[p] = dy[p] = 0.0;
      continue;
    }
    if (kind_ == TvKind::Isotropic) {
      const double r = std::sqrt(dx[p] * dx[p] + dy[p] * dy[p] + eps * eps);
      sum += m * (r - eps);
      const double s = r > 0.0 ? m / r : 0.0;
      dx[p] *= s;
      dy[p] *= s;
    } else {
      double gx = 0.0, gy = 0.0;
      sum += m * (smooth_abs(dx[p], &gx) + smooth_abs(dy[p], &gy));
      dx[p] = m * gx;
      dy[p] = m * gy;
    }
  }
  if (gradient != nullptr)
    addDifferenceAdjoint(dx.data(), dy.data(), nx_, ny_, scale, gradient);
  return sum;
}

double TotalVariation::evaluate(const double* image, double* gradient, double scale) {
  return value(image, gradient, scale, eps_);
}

double TotalVariation::evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                                  compute::SpaceVector* gradient, double scale) {
  const auto kind = kind_ == TvKind::Isotropic ? compute::DifferencePenalty::TvIsotropic
                                               : compute::DifferencePenalty::TvAnisotropic;
  return space.differencePenalty(kind, residentArgs(space, eps_), image, gradient, scale);
}

double TotalVariation::proxValue(const double* image) {
  return value(image, nullptr, 1.0, 0.0);
}

TvProxSettings TotalVariation::proxSettings() const {
  TvProxSettings s;
  s.isotropic = kind_ == TvKind::Isotropic;
  s.max_iterations = prox_iterations_;
  s.tolerance = prox_tolerance_;
  return s;
}

double TotalVariation::proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) {
  const auto kind = kind_ == TvKind::Isotropic ? compute::DifferencePenalty::TvIsotropic
                                               : compute::DifferencePenalty::TvAnisotropic;
  return space.differencePenalty(kind, residentArgs(space, 0.0), x, nullptr, 1.0);
}

HuberRegularizer::HuberRegularizer(int nx, int ny, double delta)
    : DualProxRegularizer(nx, ny), delta_(delta) {
  if (!(delta > 0.0))
    throw std::invalid_argument("huber: delta must be positive");
}

double HuberRegularizer::evaluate(const double* image, double* gradient, double scale) {
  const std::size_t n = numPixels();
  std::vector<double> dx(n), dy(n);
  forwardDifferences(image, nx_, ny_, dx.data(), dy.data());
  double sum = 0.0;
  for (std::size_t p = 0; p < n; ++p) {
    const double m = maskAt(p);
    const double r = std::hypot(dx[p], dy[p]);
    // h'(r) / r: 1 / delta inside the quadratic zone, 1 / r beyond.
    double s = 0.0;
    if (r <= delta_) {
      sum += m * r * r / (2.0 * delta_);
      s = m / delta_;
    } else {
      sum += m * (r - 0.5 * delta_);
      s = m / r;
    }
    dx[p] *= s;
    dy[p] *= s;
  }
  if (gradient != nullptr)
    addDifferenceAdjoint(dx.data(), dy.data(), nx_, ny_, scale, gradient);
  return sum;
}

double HuberRegularizer::evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                                    compute::SpaceVector* gradient, double scale) {
  return space.differencePenalty(compute::DifferencePenalty::Huber, residentArgs(space, delta_),
                                 image, gradient, scale);
}

TvProxSettings HuberRegularizer::proxSettings() const {
  TvProxSettings s;
  s.huber_delta = delta_;
  return s;
}

double HuberRegularizer::proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) {
  return evaluateIn(space, x, nullptr, 1.0);
}

// sum_p m_p (dx_p^2 + dy_p^2) and, when asked, scale * D^T q with q = 2 m (dx, dy): the
// arithmetic of forwardDifferences and addDifferenceAdjoint fused into one pass (each q is formed
// where it is needed, from the image), in parallel over blocks of pixels (detail/parallel_sum.h:
// the value is bitwise the same whatever the number of threads; every gradient element as the
// separate passes compute it).
double TotalSquaredVariation::evaluate(const double* image, double* gradient, double scale) {
  const std::size_t n = numPixels();
  const std::size_t nx = std::size_t(nx_);
  const std::size_t ny = std::size_t(ny_);
  return detail::blockedSum(n, [&](std::size_t begin, std::size_t end) {
    double sum = 0.0;
    std::size_t x = begin % nx;
    std::size_t y = begin / nx;
    for (std::size_t p = begin; p < end; ++p) {
      const double m = maskAt(p);
      const bool right = x + 1 < nx;
      const bool down = y + 1 < ny;
      const double dx = right ? image[p + 1] - image[p] : 0.0;
      const double dy = down ? image[p + nx] - image[p] : 0.0;
      sum += m * (dx * dx + dy * dy);
      if (gradient != nullptr) {
        double v = 0.0;
        if (right)
          v -= dx * (2.0 * m);
        if (x > 0)
          v += (image[p] - image[p - 1]) * (2.0 * maskAt(p - 1));
        if (down)
          v -= dy * (2.0 * m);
        if (y > 0)
          v += (image[p] - image[p - nx]) * (2.0 * maskAt(p - nx));
        gradient[p] += scale * v;
      }
      if (++x == nx) {
        x = 0;
        ++y;
      }
    }
    return sum;
  });
}

double TotalSquaredVariation::evaluateIn(compute::VectorSpace& space,
                                         const compute::SpaceVector& image,
                                         compute::SpaceVector* gradient, double scale) {
  return space.differencePenalty(compute::DifferencePenalty::Tsv, residentArgs(space, 0.0), image,
                                 gradient, scale);
}

void TotalSquaredVariation::prox(const double* v, double step, double* out) {
  quadraticProx(*this, numPixels(), v, step, out);
}

double TotalSquaredVariation::proxValueIn(compute::VectorSpace& space,
                                          const compute::SpaceVector& x) {
  return evaluateIn(space, x, nullptr, 1.0);
}

void TotalSquaredVariation::proxIn(compute::VectorSpace& space, const compute::SpaceVector& v,
                                   double step, compute::SpaceVector& out) {
  quadraticProxIn(space, compute::DifferencePenalty::Tsv, residentArgs(space, 0.0), v, step, out);
}

double LaplacianRegularizer::evaluate(const double* image, double* gradient, double scale) {
  const std::size_t n = numPixels();
  std::vector<double> lap(n);
  laplacian(image, nx_, ny_, lap.data());
  double sum = 0.0;
  for (std::size_t p = 0; p < n; ++p) {
    sum += maskAt(p) * lap[p] * lap[p];
    lap[p] *= 2.0 * maskAt(p);
  }
  if (gradient != nullptr) {
    std::vector<double> back(n);
    laplacian(lap.data(), nx_, ny_, back.data());  // L is symmetric: L^T (2 m L I) = L (2 m L I)
    for (std::size_t p = 0; p < n; ++p)
      gradient[p] += scale * back[p];
  }
  return sum;
}

double LaplacianRegularizer::evaluateIn(compute::VectorSpace& space,
                                        const compute::SpaceVector& image,
                                        compute::SpaceVector* gradient, double scale) {
  return space.differencePenalty(compute::DifferencePenalty::Laplacian, residentArgs(space, 0.0),
                                 image, gradient, scale);
}

void LaplacianRegularizer::prox(const double* v, double step, double* out) {
  quadraticProx(*this, numPixels(), v, step, out);
}

double LaplacianRegularizer::proxValueIn(compute::VectorSpace& space,
                                         const compute::SpaceVector& x) {
  return evaluateIn(space, x, nullptr, 1.0);
}

void LaplacianRegularizer::proxIn(compute::VectorSpace& space, const compute::SpaceVector& v,
                                  double step, compute::SpaceVector& out) {
  quadraticProxIn(space, compute::DifferencePenalty::Laplacian, residentArgs(space, 0.0), v, step,
                  out);
}

}  // namespace apertura::rml
