#include "core/rml/space_sdmm.h"

#include <algorithm>
#include <cmath>

#include "core/rml/host_vector_space.h"

namespace apertura::rml {

using compute::SpaceVector;
using compute::VectorSpace;

SpaceSdmm::SpaceSdmm(VectorSpace& space, std::vector<Prox> proxes, const SpaceVector& x0)
    : space_(space), proxes_(std::move(proxes)), u_(space.create(x0.size())) {
  for (std::size_t i = 0; i < proxes_.size(); ++i) {
    y_.push_back(space.create(x0.size()));
    space.copy(x0, *y_.back());
    z_.push_back(space.create(x0.size()));
  }
}

double SpaceSdmm::step(SpaceVector& x) {
  double residual = 0.0;
  for (std::size_t i = 0; i < proxes_.size(); ++i) {
    space_.copy(x, *u_);
    space_.axpy(1.0, *z_[i], *u_);
    proxes_[i](*u_, *y_[i]);
    residual += space_.distanceSquared(x, *y_[i]);
    space_.axpy(1.0, x, *z_[i]);
    space_.axpy(-1.0, *y_[i], *z_[i]);
  }
  space_.fill(0.0, x);
  for (std::size_t i = 0; i < proxes_.size(); ++i) {
    space_.axpy(1.0, *y_[i], x);
    space_.axpy(-1.0, *z_[i], x);
  }
  space_.scale(1.0 / double(proxes_.size()), x);
  return std::sqrt(residual);
}

void proxWhere(VectorSpace& space, ProximableFunction& g, const SpaceVector& v, double step,
               SpaceVector& out, bool nonnegative) {
  if (g.residentIn(space)) {
    if (nonnegative)
      g.proxNonNegativeIn(space, v, step, out);
    else
      g.proxIn(space, v, step, out);
    return;
  }
  const double* host_v = HostVectorSpace::of(v).data();
  double* host_out = HostVectorSpace::of(out).data();
  if (nonnegative)
    g.proxNonNegative(host_v, step, host_out);
  else
    g.prox(host_v, step, host_out);
}

std::size_t proxOfSumVectors(std::size_t terms) {
  // The iteration's vectors for the quadratic and every term, the iterate before the step.
  return SpaceSdmm::vectors(terms + 1) + 1;
}

void proxOfSumIn(VectorSpace& space, const std::vector<ProximableFunction*>& terms,
                 const SpaceVector& v, double step, SpaceVector& out, int max_iterations,
                 double tolerance) {
  std::vector<SpaceSdmm::Prox> proxes;
  // With gamma = 1 the prox of 1/2 |x - v|^2 is (u + v) / 2.
  proxes.emplace_back([&space, &v](const SpaceVector& u, SpaceVector& o) {
    space.copy(u, o);
    space.axpby(0.5, v, 0.5, o);
  });
  for (ProximableFunction* g : terms) {
    proxes.emplace_back([&space, g, step](const SpaceVector& u, SpaceVector& o) {
      proxWhere(space, *g, u, step, o);
    });
  }
  space.copy(v, out);
  compute::SpaceVectorPtr previous = space.create(v.size());
  space.copy(out, *previous);
  SpaceSdmm sdmm(space, std::move(proxes), out);
  for (int it = 0; it < max_iterations; ++it) {
    sdmm.step(out);
    const double change = space.distanceSquared(out, *previous);
    space.copy(out, *previous);
    if (it > 0 && std::sqrt(change) <= tolerance * std::max(std::sqrt(space.dot(out, out)), 1e-300))
      break;
  }
}

}  // namespace apertura::rml
