#include "core/rml/pixel_regularizers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/rml/detail/parallel_sum.h"

namespace apertura::rml {

// L1 and L2 run in parallel over blocks of pixels (detail/parallel_sum.h): values bitwise the same
// whatever the number of threads, gradients and proxes element by element.

double L1Regularizer::evaluate(const double* image, double* gradient, double scale) {
  return detail::blockedSum(numPixels(), [&](std::size_t begin, std::size_t end) {
    double sum = 0.0;
    for (std::size_t p = begin; p < end; ++p) {
      const double w = maskAt(p);
      if (w == 0.0)
        continue;
      const double x = image[p];
      if (eps_ > 0.0) {
        const double r = std::sqrt(x * x + eps_ * eps_);
        sum += w * (r - eps_);
        if (gradient != nullptr)
          gradient[p] += scale * w * x / r;
      } else {
        sum += w * std::abs(x);
        if (gradient != nullptr)
          gradient[p] += scale * w * double((x > 0.0 || (non_negative_ && x == 0.0)) - (x < 0.0));
      }
    }
    return sum;
  });
}

double L1Regularizer::evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                                 compute::SpaceVector* gradient, double scale) {
  compute::PenaltyArgs args = residentArgs(space, eps_);
  args.non_negative = non_negative_;
  return space.pixelPenalty(compute::PixelPenalty::L1, args, image, gradient, scale);
}

double L1Regularizer::proxValue(const double* image) {
  return detail::blockedSum(numPixels(), [&](std::size_t begin, std::size_t end) {
    double sum = 0.0;
    for (std::size_t p = begin; p < end; ++p)
      sum += maskAt(p) * std::abs(image[p]);
    return sum;
  });
}

void L1Regularizer::prox(const double* v, double step, double* out) {
  detail::parallelFor(numPixels(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) {
      const double threshold = step * maskAt(p);
      const double a = std::abs(v[p]) - threshold;
      out[p] = a > 0.0 ? std::copysign(a, v[p]) : 0.0;
    }
  });
}

// The exact value (no smoothing), as proxValue() sums it.
double L1Regularizer::proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) {
  return space.pixelPenalty(compute::PixelPenalty::L1, residentArgs(space, 0.0), x, nullptr, 1.0);
}

void L1Regularizer::proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
                           compute::SpaceVector& out) {
  space.pixelProx(compute::PixelPenalty::L1, residentArgs(space, 0.0), v, step, out);
}

L2Regularizer::L2Regularizer(int nx, int ny, std::vector<double> prior)
    : Regularizer(nx, ny), prior_(std::move(prior)) {
  if (!prior_.empty() && prior_.size() != numPixels())
    throw std::invalid_argument("l2: prior image size differs from the image size");
}

double L2Regularizer::evaluate(const double* image, double* gradient, double scale) {
  return detail::blockedSum(numPixels(), [&](std::size_t begin, std::size_t end) {
    double sum = 0.0;
    for (std::size_t p = begin; p < end; ++p) {
      const double d = image[p] - priorAt(p);
      sum += maskAt(p) * d * d;
      if (gradient != nullptr)
        gradient[p] += scale * 2.0 * maskAt(p) * d;
    }
    return sum;
  });
}

double L2Regularizer::evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                                 compute::SpaceVector* gradient, double scale) {
  return space.pixelPenalty(compute::PixelPenalty::L2, residentArgs(space, 0.0, prior_), image,
                            gradient, scale);
}

// x + 2 t m (x - P) = v.
void L2Regularizer::prox(const double* v, double step, double* out) {
  detail::parallelFor(numPixels(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) {
      const double a = 2.0 * step * maskAt(p);
      out[p] = (v[p] + a * priorAt(p)) / (1.0 + a);
    }
  });
}

double L2Regularizer::proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) {
  return space.pixelPenalty(compute::PixelPenalty::L2, residentArgs(space, 0.0, prior_), x, nullptr,
                            1.0);
}

void L2Regularizer::proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
                           compute::SpaceVector& out) {
  space.pixelProx(compute::PixelPenalty::L2, residentArgs(space, 0.0, prior_), v, step, out);
}

EntropyRegularizer::EntropyRegularizer(int nx, int ny, std::vector<double> default_image)
    : Regularizer(nx, ny), prior_(std::move(default_image)) {
  if (prior_.size() != 1 && prior_.size() != numPixels())
    throw std::invalid_argument("entropy: default image must have one value or one per pixel");
  for (double m : prior_) {
    if (!(m > 0.0))
      throw std::invalid_argument("entropy: default image must be positive");
  }
}

double EntropyRegularizer::evaluate(const double* image, double* gradient, double scale) {
  // ln of the smallest positive double: the gradient at an exactly zero pixel stays finite.
  constexpr double kTiny = std::numeric_limits<double>::min();
  double sum = 0.0;
  for (std::size_t p = 0; p < numPixels(); ++p) {
    const double w = maskAt(p);
    if (w == 0.0)
      continue;
    const double x = image[p];
    const double m = defaultAt(p);
    if (x < 0.0)
      return std::numeric_limits<double>::infinity();
    const double log_ratio = std::log(std::max(x, kTiny) / m);
    sum += w * ((x > 0.0 ? x * log_ratio : 0.0) - x + m);
    if (gradient != nullptr)
      gradient[p] += scale * w * log_ratio;
  }
  return sum;
}

double EntropyRegularizer::evaluateIn(compute::VectorSpace& space,
                                      const compute::SpaceVector& image,
                                      compute::SpaceVector* gradient, double scale) {
  return space.pixelPenalty(compute::PixelPenalty::Entropy, residentArgs(space, 0.0, prior_), image,
                            gradient, scale);
}

// Solve e^y + a y = c with a = t m, c = v + a ln M, for x = e^y. f(y) = e^y + a y - c is
// increasing and convex, so Newton's method started where f >= 0 decreases monotonically.
void EntropyRegularizer::prox(const double* v, double step, double* out) {
  for (std::size_t p = 0; p < numPixels(); ++p) {
    const double a = step * maskAt(p);
    if (a <= 0.0) {
      out[p] = v[p];
      continue;
    }
    const double c = v[p] + a * std::log(defaultAt(p));
    // Two starting points with f >= 0: c / a (f = exp(c / a)) and, for c > 0,
    // ln(c + a L) with L = max(0, -ln c) (f = a (L + ln(c + a L)) >= a (L + ln c) >= 0).
    double y = c / a;
    if (c > 0.0)
      y = std::min(y, std::log(c + a * std::max(0.0, -std::log(c))));
    for (int it = 0; it < 200; ++it) {
      const double e = std::exp(y);
      const double delta = (e + a * y - c) / (e + a);
      y -= delta;
      if (std::abs(delta) <= 1e-15 * std::max(1.0, std::abs(y)))
        break;
    }
    out[p] = std::exp(y);
  }
}

double EntropyRegularizer::proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& x) {
  return space.pixelPenalty(compute::PixelPenalty::Entropy, residentArgs(space, 0.0, prior_), x,
                            nullptr, 1.0);
}

void EntropyRegularizer::proxIn(compute::VectorSpace& space, const compute::SpaceVector& v,
                                double step, compute::SpaceVector& out) {
  space.pixelProx(compute::PixelPenalty::Entropy, residentArgs(space, 0.0, prior_), v, step, out);
}

}  // namespace apertura::rml
