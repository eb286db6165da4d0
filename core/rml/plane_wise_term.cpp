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

void PlaneWiseTerm::check() {
  if (terms_.empty())
    throw std::invalid_argument("PlaneWiseTerm: no planes");
  if (planes_.size() != terms_.size())
    throw std::invalid_argument("PlaneWiseTerm: one plane index per term expected");
  for (const auto& p : terms_) {
    if (!p)
      throw std::invalid_argument("PlaneWiseTerm: null term");
  }
  sortedPlaneIndices(planes_, num_planes_, "PlaneWiseTerm");
  for (int plane = 0; plane < num_planes_; ++plane) {
    if (std::find(planes_.begin(), planes_.end(), plane) == planes_.end())
      unlisted_.push_back(plane);
  }
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

void PlaneWiseTerm::restrictToNonNegative() {
  for (const auto& term : terms_)
    term->restrictToNonNegative();
}

double PlaneWiseTerm::proxValue(const double* cube) {
  double sum = 0.0;
  for (std::size_t j = 0; j < terms_.size(); ++j)
    sum += terms_[j]->proxValue(cube + offset(j));
  return sum;
}

void PlaneWiseTerm::prox(const double* v, double step, double* out) {
  // The prox of zero is the identity: planes not listed keep their values.
  if (!unlisted_.empty() && out != v)
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
  for (int plane : unlisted_) {
    const std::size_t at = std::size_t(plane) * num_pixels_;
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

compute::VectorSpace* PlaneWiseTerm::dataSpace() {
  compute::VectorSpace* space = terms_.front()->dataSpace();
  for (const auto& t : terms_) {
    if (t->dataSpace() != space)
      return nullptr;
  }
  return space;
}

bool PlaneWiseTerm::residentIn(compute::VectorSpace& space) const {
  return std::all_of(terms_.begin(), terms_.end(),
                     [&](const auto& t) { return t->residentIn(space); });
}

bool PlaneWiseTerm::residentProx(compute::VectorSpace& space) const {
  return std::all_of(terms_.begin(), terms_.end(),
                     [&](const auto& t) { return t->residentProx(space); });
}

PlaneWiseTerm::PlaneVectors& PlaneWiseTerm::planeVectors(compute::VectorSpace& space) {
  if (resident_.space != &space) {
    resident_ = {};
    resident_.in = space.create(num_pixels_);
    resident_.out = space.create(num_pixels_);
    resident_.space = &space;
  }
  return resident_;
}

// Planes in the order of the terms, as evaluate() adds them.
double PlaneWiseTerm::evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& cube,
                                 compute::SpaceVector* gradient, double scale) {
  PlaneVectors& p = planeVectors(space);
  double sum = 0.0;
  for (std::size_t j = 0; j < terms_.size(); ++j) {
    const std::size_t at = offset(j);
    space.copyRange(cube, at, *p.in, 0, num_pixels_);
    if (gradient != nullptr)
      space.copyRange(*gradient, at, *p.out, 0, num_pixels_);
    sum += terms_[j]->evaluateIn(space, *p.in, gradient != nullptr ? p.out.get() : nullptr, scale);
    if (gradient != nullptr)
      space.copyRange(*p.out, 0, *gradient, at, num_pixels_);
  }
  return sum;
}

double PlaneWiseTerm::proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& cube) {
  PlaneVectors& p = planeVectors(space);
  double sum = 0.0;
  for (std::size_t j = 0; j < terms_.size(); ++j) {
    space.copyRange(cube, offset(j), *p.in, 0, num_pixels_);
    sum += terms_[j]->proxValueIn(space, *p.in);
  }
  return sum;
}

void PlaneWiseTerm::passUnlisted(compute::VectorSpace& space, const compute::SpaceVector& v,
                                 compute::SpaceVector& out, bool project) {
  if (&v == &out && !project)
    return;
  PlaneVectors& p = planeVectors(space);
  for (int plane : unlisted_) {
    const std::size_t at = std::size_t(plane) * num_pixels_;
    space.copyRange(v, at, *p.in, 0, num_pixels_);
    if (project)
      space.maxWith(0.0, *p.in);
    space.copyRange(*p.in, 0, out, at, num_pixels_);
  }
}

void PlaneWiseTerm::proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
                           compute::SpaceVector& out) {
  passUnlisted(space, v, out, false);  // the prox of zero is the identity
  PlaneVectors& p = planeVectors(space);
  for (std::size_t j = 0; j < terms_.size(); ++j) {
    space.copyRange(v, offset(j), *p.in, 0, num_pixels_);
    terms_[j]->proxIn(space, *p.in, step, *p.out);
    space.copyRange(*p.out, 0, out, offset(j), num_pixels_);
  }
}

void PlaneWiseTerm::proxNonNegativeIn(compute::VectorSpace& space, const compute::SpaceVector& v,
                                      double step, compute::SpaceVector& out) {
  passUnlisted(space, v, out, true);
  PlaneVectors& p = planeVectors(space);
  for (std::size_t j = 0; j < terms_.size(); ++j) {
    space.copyRange(v, offset(j), *p.in, 0, num_pixels_);
    if (terms_[j]->isSeparable()) {
      terms_[j]->proxIn(space, *p.in, step, *p.out);
      space.maxWith(0.0, *p.out);
    } else {
      terms_[j]->proxNonNegativeIn(space, *p.in, step, *p.out);
    }
    space.copyRange(*p.out, 0, out, offset(j), num_pixels_);
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
