#include "core/rml/tv_prox.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/rml/host_vector_space.h"

namespace apertura::rml {

using compute::SpaceVector;
using compute::SpaceVectorPtr;
using compute::VectorSpace;

double smallestPositiveWeight(const std::vector<double>& mask) {
  if (mask.empty())
    return 1.0;
  double smallest = 0.0;
  for (double m : mask) {
    if (m > 0.0 && (smallest == 0.0 || m < smallest))
      smallest = m;
  }
  return smallest;
}

void proxTotalVariationIn(VectorSpace& space, const TvProxImage& image, const SpaceVector& v,
                          double step, const TvProxSettings& settings,
                          const std::vector<SpaceVector*>& work, SpaceVector& out) {
  if (!(step > 0.0) || image.min_mask == 0.0) {
    // No penalty left: the prox is the identity (or the projection on x >= 0).
    if (&out != &v)
      space.copy(v, out);
    if (settings.nonnegative)
      space.maxWith(0.0, out);
    return;
  }
  const std::size_t n = v.size();
  const double delta = settings.huber_delta;
  // Lipschitz constant of the dual gradient: ||D||^2 <= 8 (the projection on x >= 0 does not
  // raise it), plus the Huber penalty's curvature.
  VectorSpace::DualStepArgs args;
  args.nx = image.nx;
  args.ny = image.ny;
  args.mask = image.mask;
  args.isotropic = settings.isotropic;
  args.step = step;
  args.huber_delta = delta;
  args.lipschitz = 8.0 * step * step + (delta > 0.0 ? step * delta / image.min_mask : 0.0);

  std::vector<SpaceVectorPtr> own;
  std::vector<SpaceVector*> vectors = work;
  if (vectors.empty()) {
    for (std::size_t i = 0; i < kTvProxWorkVectors; ++i)
      vectors.push_back(own.emplace_back(space.create(n)).get());
  } else if (vectors.size() != kTvProxWorkVectors) {
    throw std::logic_error("proxTotalVariationIn: expected " + std::to_string(kTvProxWorkVectors) +
                           " work vectors");
  }
  SpaceVector *qx = vectors[0], *qy = vectors[1], *rx = vectors[2], *ry = vectors[3];
  SpaceVector* x = vectors[4];
  for (SpaceVector* dual : {qx, qy, rx, ry})
    space.fill(0.0, *dual);  // the dual starts at zero (x is written before it is read)
  double tk = 1.0;
  for (int it = 0; it < settings.max_iterations; ++it) {
    space.primalFromDual(image.nx, image.ny, v, *rx, *ry, step, settings.nonnegative, *x);
    const double tk1 = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * tk * tk));
    args.momentum = (tk - 1.0) / tk1;
    const VectorSpace::DualSums sums = space.dualStep(args, *x, *qx, *qy, *rx, *ry);
    tk = tk1;
    if (it > 0 &&
        sums.change <= settings.tolerance * settings.tolerance * std::max(sums.norm, 1e-300))
      break;
  }
  space.primalFromDual(image.nx, image.ny, v, *qx, *qy, step, settings.nonnegative, out);
}

void proxTotalVariation(const double* v, int nx, int ny, const std::vector<double>& mask,
                        double step, const TvProxSettings& settings, double* out) {
  const std::size_t n = std::size_t(nx) * std::size_t(ny);
  HostVectorSpace space;
  const SpaceVectorPtr hv = space.create(n), hout = space.create(n);
  space.upload(v, *hv);
  SpaceVectorPtr hmask;
  if (!mask.empty()) {
    hmask = space.create(mask.size());
    space.upload(mask.data(), *hmask);
  }
  TvProxImage image;
  image.nx = nx;
  image.ny = ny;
  image.mask = hmask.get();
  image.min_mask = smallestPositiveWeight(mask);
  proxTotalVariationIn(space, image, *hv, step, settings, {}, *hout);
  space.download(*hout, out);
}

void proxQuadraticIn(VectorSpace& space,
                     const std::function<void(const SpaceVector&, SpaceVector&)>& apply,
                     const SpaceVector& v, SpaceVector& out, double tolerance) {
  const std::size_t n = v.size();
  if (&out == &v) {  // v is needed after out has changed: solve from a copy
    const SpaceVectorPtr copy = space.create(n);
    space.copy(v, *copy);
    proxQuadraticIn(space, apply, *copy, out, tolerance);
    return;
  }
  const SpaceVectorPtr r = space.create(n), p = space.create(n), ap = space.create(n);
  space.copy(v, out);
  apply(out, *ap);
  space.copy(v, *r);
  space.axpy(-1.0, *ap, *r);  // r = v - A v
  space.copy(*r, *p);
  double rr = space.dot(*r, *r);
  const double vnorm = space.dot(v, v);
  const double target = tolerance * tolerance * std::max(vnorm, 1e-300);
  for (std::size_t it = 0; it < 10 * n + 10 && rr > target; ++it) {
    apply(*p, *ap);
    const double pap = space.dot(*p, *ap);
    if (pap <= 0.0)
      break;
    const double alpha = rr / pap;
    space.axpy(alpha, *p, out);
    space.axpy(-alpha, *ap, *r);
    const double rr_new = space.dot(*r, *r);
    const double beta = rr_new / rr;
    rr = rr_new;
    space.axpby(1.0, *r, beta, *p);  // p = r + beta p
  }
}

void proxQuadratic(const std::function<void(const double*, double*)>& gradient, std::size_t n,
                   const double* v, double step, double* out, double tolerance) {
  HostVectorSpace space;
  const SpaceVectorPtr hv = space.create(n), hout = space.create(n);
  space.upload(v, *hv);
  proxQuadraticIn(
      space,
      [&](const SpaceVector& x, SpaceVector& ax) {
        gradient(HostVectorSpace::of(x).data(), HostVectorSpace::of(ax).data());
        space.axpby(1.0, x, step, ax);  // x + step grad R(x)
      },
      *hv, *hout, tolerance);
  space.download(*hout, out);
}

}  // namespace apertura::rml
