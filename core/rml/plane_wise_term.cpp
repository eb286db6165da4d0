#include "core/rml/plane_wise_term.h"

#include <stdexcept>

namespace apertura::rml {

PlaneWiseTerm::PlaneWiseTerm(std::vector<std::shared_ptr<ObjectiveTerm>> planes,
                             std::size_t num_pixels)
    : planes_(std::move(planes)), num_pixels_(num_pixels) {
  if (planes_.empty())
    throw std::invalid_argument("PlaneWiseTerm: no planes");
  for (const auto& p : planes_) {
    if (!p)
      throw std::invalid_argument("PlaneWiseTerm: null term");
  }
}

double PlaneWiseTerm::evaluate(const double* cube, double* gradient, double scale) {
  double sum = 0.0;
  for (std::size_t k = 0; k < planes_.size(); ++k) {
    const std::size_t offset = k * num_pixels_;
    sum += planes_[k]->evaluate(cube + offset, gradient ? gradient + offset : nullptr, scale);
  }
  return sum;
}

bool PlaneWiseTerm::isSmooth() const {
  for (const auto& p : planes_) {
    if (!p->isSmooth())
      return false;
  }
  return true;
}

bool PlaneWiseTerm::hasProx() const {
  for (const auto& p : planes_) {
    if (!p->hasProx())
      return false;
  }
  return true;
}

bool PlaneWiseTerm::isSeparable() const {
  for (const auto& p : planes_) {
    if (!p->isSeparable())
      return false;
  }
  return true;
}

double PlaneWiseTerm::proxValue(const double* cube) {
  double sum = 0.0;
  for (std::size_t k = 0; k < planes_.size(); ++k)
    sum += planes_[k]->proxValue(cube + k * num_pixels_);
  return sum;
}

void PlaneWiseTerm::prox(const double* v, double step, double* out) {
  for (std::size_t k = 0; k < planes_.size(); ++k)
    planes_[k]->prox(v + k * num_pixels_, step, out + k * num_pixels_);
}

std::vector<StageTime> PlaneWiseTerm::takeStageTimes() {
  std::vector<StageTime> out;
  for (const auto& p : planes_) {
    for (auto& t : p->takeStageTimes()) {
      bool merged = false;
      for (auto& o : out) {
        if (o.stage == t.stage) {
          o.seconds += t.seconds;
          merged = true;
          break;
        }
      }
      if (!merged)
        out.push_back(std::move(t));
    }
  }
  return out;
}

}  // namespace apertura::rml
