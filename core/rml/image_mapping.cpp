#include "core/rml/image_mapping.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/compute/mapping_math.h"

namespace apertura::rml {

namespace {

using compute::mapping::sigmoid;
using compute::mapping::softplus;

compute::PixelMapping pixelMapping(ImageMapping m) {
  return m == ImageMapping::Exp ? compute::PixelMapping::Exp : compute::PixelMapping::Softplus;
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
  return f_.residentSpace();
}

double MappedObjective::evaluateIn(const compute::SpaceVector& x, compute::SpaceVector* gradient) {
  if (mapping_ == ImageMapping::Identity && support_.empty())
    return f_.evaluateIn(x, gradient);
  compute::VectorSpace* space = residentSpace();
  if (space == nullptr)
    throw std::logic_error("MappedObjective: the objective has no resident evaluation");
  if (space != resident_space_) {
    if (!support_.empty()) {
      std::vector<double> indicator(support_.size());
      for (std::size_t k = 0; k < indicator.size(); ++k)
        indicator[k] = inside(k) ? 1.0 : 0.0;
      resident_support_ = space->create(indicator.size());
      space->upload(indicator.data(), *resident_support_);
    }
    resident_image_ = space->create(dimension());
    resident_gradient_ = space->create(dimension());
    resident_space_ = space;
  }
  const compute::SpaceVector* support = resident_support_.get();
  if (mapping_ == ImageMapping::Identity) {
    // 1 * x and 0 * x: the host path's image and its derivative-times-gradient, bit for bit.
    space->multiply(*support, x, *resident_image_);
  } else {
    space->mapToImage(pixelMapping(mapping_), x, support, *resident_image_);
  }
  const double value =
      f_.evaluateIn(*resident_image_, gradient ? resident_gradient_.get() : nullptr);
  if (gradient == nullptr)
    return value;
  if (mapping_ == ImageMapping::Identity)
    space->multiply(*support, *resident_gradient_, *gradient);
  else
    space->mapGradient(pixelMapping(mapping_), x, *resident_image_, support, *resident_gradient_,
                       *gradient);
  return value;
}

}  // namespace apertura::rml
