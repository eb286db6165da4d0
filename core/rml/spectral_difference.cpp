#include "core/rml/spectral_difference.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rml/plane_indices.h"

namespace apertura::rml {

SpectralDifference::SpectralDifference(int nx, int ny, int num_planes, SpectralKind kind,
                                       double epsilon)
    : Regularizer(nx, ny), planes_(num_planes), kind_(kind), eps_(epsilon) {
  if (num_planes < 1)
    throw std::invalid_argument("spectral difference: fewer than one plane");
  if (!(epsilon >= 0.0))
    throw std::invalid_argument("tv-spectral: negative smoothing epsilon");
  setPlanes({});
}

void SpectralDifference::setPlanes(std::vector<int> planes) {
  listed_ =
      sortedPlaneIndices(planes.empty() ? allPlanes(planes_) : std::move(planes), planes_, name());
}

std::string SpectralDifference::name() const {
  return kind_ == SpectralKind::TotalVariation ? "tv_spectral" : "tsv_spectral";
}

double SpectralDifference::evaluate(const double* cube, double* gradient, double scale) {
  const std::size_t n = numPixels();
  double sum = 0.0;
  for (std::size_t j = 0; j + 1 < listed_.size(); ++j) {
    const std::size_t lo = std::size_t(listed_[j]) * n, hi = std::size_t(listed_[j + 1]) * n;
    const double* a = cube + lo;
    const double* b = cube + hi;
    double* ga = gradient ? gradient + lo : nullptr;
    double* gb = gradient ? gradient + hi : nullptr;
    for (std::size_t p = 0; p < n; ++p) {
      const double m = maskAt(p);
      if (m == 0.0)
        continue;
      const double d = b[p] - a[p];
      double derivative = 0.0;  // of the pixel's term with respect to d
      if (kind_ == SpectralKind::TotalVariation) {
        // Smoothed |d| as in the spatial TV: eps = 0 gives |d| and sign(d).
        const double r = std::sqrt(d * d + eps_ * eps_);
        sum += m * (r - eps_);
        derivative = r > 0.0 ? m * d / r : 0.0;
      } else {
        sum += m * d * d;
        derivative = 2.0 * m * d;
      }
      if (ga != nullptr) {
        ga[p] -= scale * derivative;
        gb[p] += scale * derivative;
      }
    }
  }
  return sum;
}

double SpectralDifference::evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& cube,
                                      compute::SpaceVector* gradient, double scale) {
  const std::size_t n = numPixels();
  if (cube.size() != n * std::size_t(planes_))
    throw std::invalid_argument(name() + ": resident cube of another size");
  const bool tv = kind_ == SpectralKind::TotalVariation;
  compute::PenaltyArgs args = residentArgs(space, tv ? eps_ : 0.0);
  const std::vector<compute::SpaceVector*> work = residentWork(space, 4);
  compute::SpaceVector& lower = *work[0];
  compute::SpaceVector& upper = *work[1];
  compute::SpaceVector& derivative = *work[2];  // scale * d(term)/d(upper), d = upper - lower
  compute::SpaceVector& slice = *work[3];
  double sum = 0.0;
  for (std::size_t j = 0; j + 1 < listed_.size(); ++j) {
    const std::size_t lo = std::size_t(listed_[j]) * n, hi = std::size_t(listed_[j + 1]) * n;
    space.copyRange(cube, lo, lower, 0, n);
    space.copyRange(cube, hi, upper, 0, n);
    compute::SpaceVector* out = gradient != nullptr ? &derivative : nullptr;
    if (out != nullptr)
      space.fill(0.0, derivative);
    if (tv) {
      space.axpy(-1.0, lower, upper);  // upper - lower, as evaluate() forms it
      sum += space.pixelPenalty(compute::PixelPenalty::L1, args, upper, out, scale);
    } else {
      args.prior = &lower;
      sum += space.pixelPenalty(compute::PixelPenalty::L2, args, upper, out, scale);
    }
    if (gradient != nullptr) {
      space.copyRange(*gradient, hi, slice, 0, n);
      space.axpy(1.0, derivative, slice);
      space.copyRange(slice, 0, *gradient, hi, n);
      space.copyRange(*gradient, lo, slice, 0, n);
      space.axpy(-1.0, derivative, slice);
      space.copyRange(slice, 0, *gradient, lo, n);
    }
  }
  return sum;
}

}  // namespace apertura::rml
