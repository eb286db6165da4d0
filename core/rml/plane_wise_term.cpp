#include "core/rml/plane_wise_term.h"

#include <algorithm>
#include <stdexcept>

#include "core/rml/plane_indices.h"

namespace apertura::rml {

PlaneWiseTerm::PlaneWiseTerm(std::vector<std::shared_ptr<ObjectiveTerm>> terms,
                             std::size_t num_pixels)
    : terms_(std::move(terms)),
      num_pixels_(num_pixels),
      planes_(allPlanes(int(terms_.size()))),
      num_planes_(int(terms_.size())) {
  check();
}

PlaneWiseTerm::PlaneWiseTerm(std::vector<std::shared_ptr<ObjectiveTerm>> terms,
                             std::size_t num_pixels, std::vector<int> planes, int num_planes)
    : terms_(std::move(terms)),
      num_pixels_(num_pixels),
      planes_(std::move(planes)),
      num_planes_(num_planes) {
  check();
}

void PlaneWiseTerm::check() const {
  if (terms_.empty())
    throw std::invalid_argument("PlaneWiseTerm: no planes");
  if (planes_.size() != terms_.size())
    throw std::invalid_argument("PlaneWiseTerm: one plane index per term expected");
  for (const auto& p : terms_) {
    if (!p)
      throw std::invalid_argument("PlaneWiseTerm: null term");
  }
  sortedPlaneIndices(planes_, num_planes_, "PlaneWiseTerm");
}

double PlaneWiseTerm::evaluate(const double* cube, double* gradient, double scale) {
  double sum = 0.0;
  for (std::size_t j = 0; j < terms_.size(); ++j) {
    const std::size_t at = offset(j);
    sum += terms_[j]->evaluate(cube + at, gradient ? gradient + at : nullptr, scale);
  }
  return sum;
}

bool PlaneWiseTerm::isSmooth() const {
  return std::all_of(terms_.begin(), terms_.end(), [](const auto& p) { return p->isSmooth(); });
}

bool PlaneWiseTerm::hasProx() const {
  return std::all_of(terms_.begin(), terms_.end(), [](const auto& p) { return p->hasProx(); });
}

bool PlaneWiseTerm::isSeparable() const {
  // The identity on the planes not listed is separable too.
  return std::all_of(terms_.begin(), terms_.end(), [](const auto& p) { return p->isSeparable(); });
}

double PlaneWiseTerm::proxValue(const double* cube) {
  double sum = 0.0;
  for (std::size_t j = 0; j < terms_.size(); ++j)
    sum += terms_[j]->proxValue(cube + offset(j));
  return sum;
}

void PlaneWiseTerm::prox(const double* v, double step, double* out) {
  // The prox of zero is the identity: planes not listed keep their values.
  if (planes_.size() < std::size_t(num_planes_) && out != v)
    std::copy(v, v + std::size_t(num_planes_) * num_pixels_, out);
  for (std::size_t j = 0; j < terms_.size(); ++j)
    terms_[j]->prox(v + offset(j), step, out + offset(j));
}

bool PlaneWiseTerm::hasNonNegativeProx() const {
  // Separable throughout: the caller clips the prox itself.
  return !isSeparable() && std::all_of(terms_.begin(), terms_.end(), [](const auto& p) {
    return p->hasProx() && (p->isSeparable() || p->hasNonNegativeProx());
  });
}

void PlaneWiseTerm::proxNonNegative(const double* v, double step, double* out) {
  std::vector<bool> listed(std::size_t(num_planes_), false);
  for (int plane : planes_)
    listed[std::size_t(plane)] = true;
  for (std::size_t plane = 0; plane < listed.size(); ++plane) {
    if (listed[plane])
      continue;
    const std::size_t at = plane * num_pixels_;
    for (std::size_t k = at; k < at + num_pixels_; ++k)
      out[k] = std::max(v[k], 0.0);
  }
  for (std::size_t j = 0; j < terms_.size(); ++j) {
    double* plane = out + offset(j);
    if (terms_[j]->isSeparable()) {
      terms_[j]->prox(v + offset(j), step, plane);
      for (std::size_t k = 0; k < num_pixels_; ++k)
        plane[k] = std::max(plane[k], 0.0);
    } else {
      terms_[j]->proxNonNegative(v + offset(j), step, plane);
    }
  }
}

std::vector<StageTime> PlaneWiseTerm::takeStageTimes() {
  std::vector<StageTime> out;
  for (const auto& p : terms_) {
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
