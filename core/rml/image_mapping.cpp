#include "core/rml/image_mapping.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace apertura::rml {

namespace {

double softplus(double x) {
  return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}
double sigmoid(double x) {
  if (x >= 0.0)
    return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

}  // namespace

MappedObjective::MappedObjective(DifferentiableFunction& image_objective, ImageMapping mapping,
                                 std::vector<double> support)
    : f_(image_objective),
      mapping_(mapping),
      support_(std::move(support)),
      image_(image_objective.dimension()),
      image_gradient_(image_objective.dimension()) {
  if (!support_.empty() && support_.size() != f_.dimension())
    throw std::invalid_argument("MappedObjective: support mask size differs from the image size");
}

void MappedObjective::toImage(const double* x, double* image) const {
  for (std::size_t k = 0; k < dimension(); ++k) {
    if (!inside(k)) {
      image[k] = 0.0;
      continue;
    }
    switch (mapping_) {
      case ImageMapping::Identity:
        image[k] = x[k];
        break;
      case ImageMapping::Exp:
        image[k] = std::exp(x[k]);
        break;
      case ImageMapping::Softplus:
        image[k] = softplus(x[k]);
        break;
    }
  }
}

void MappedObjective::fromImage(const double* image, double* x, double floor) const {
  for (std::size_t k = 0; k < dimension(); ++k) {
    const double v = std::max(image[k], floor);
    if (!inside(k)) {
      x[k] = 0.0;
    } else if (mapping_ == ImageMapping::Identity) {
      x[k] = image[k];
    } else if (mapping_ == ImageMapping::Exp) {
      x[k] = std::log(v);
    } else {
      x[k] = v + std::log(-std::expm1(-v));  // ln(e^v - 1), stable for large and small v
    }
  }
}

double MappedObjective::evaluate(const double* x, double* gradient) {
  toImage(x, image_.data());
  const double value = f_.evaluate(image_.data(), gradient ? image_gradient_.data() : nullptr);
  if (gradient == nullptr)
    return value;
  for (std::size_t k = 0; k < dimension(); ++k) {
    double derivative = 0.0;
    if (inside(k)) {
      switch (mapping_) {
        case ImageMapping::Identity:
          derivative = 1.0;
          break;
        case ImageMapping::Exp:
          derivative = image_[k];
          break;
        case ImageMapping::Softplus:
          derivative = sigmoid(x[k]);
          break;
      }
    }
    gradient[k] = derivative * image_gradient_[k];
  }
  return value;
}

compute::VectorSpace* MappedObjective::residentSpace() {
  return mapping_ == ImageMapping::Identity ? f_.residentSpace() : nullptr;
}

double MappedObjective::evaluateIn(const compute::SpaceVector& x, compute::SpaceVector* gradient) {
  if (support_.empty())
    return f_.evaluateIn(x, gradient);
  compute::VectorSpace* space = residentSpace();
  if (space == nullptr)
    throw std::logic_error("MappedObjective: no resident evaluation for this mapping");
  if (space != resident_space_) {
    std::vector<double> indicator(support_.size());
    for (std::size_t k = 0; k < indicator.size(); ++k)
      indicator[k] = inside(k) ? 1.0 : 0.0;
    resident_support_ = space->create(indicator.size());
    space->upload(indicator.data(), *resident_support_);
    resident_image_ = space->create(indicator.size());
    resident_gradient_ = space->create(indicator.size());
    resident_space_ = space;
  }
  // 1 * x and 0 * x: the host path's image and its derivative-times-gradient, bit for bit.
  space->multiply(*resident_support_, x, *resident_image_);
  const double value =
      f_.evaluateIn(*resident_image_, gradient ? resident_gradient_.get() : nullptr);
  if (gradient != nullptr)
    space->multiply(*resident_support_, *resident_gradient_, *gradient);
  return value;
}

}  // namespace apertura::rml
