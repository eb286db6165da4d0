#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/compute/vector_space.h"
#include "core/rml/function.h"
#include "core/rml/tv_prox.h"

namespace apertura::rml {

// One term of the RML objective acting on one real image of num_pixels values. Its lambda, its
// parameter index and whether a proximal solver treats it through its prox are the objective's
// business (ObjectiveFunction::add); a term only knows its own mathematics.
class ObjectiveTerm {
 public:
  virtual ~ObjectiveTerm() = default;
  virtual std::string name() const = 0;

  // Returns the term's value at `image`; when `gradient` is not null, ADDS scale * grad to it.
  // Non-smooth terms evaluate their smoothed form here (see each term).
  virtual double evaluate(const double* image, double* gradient, double scale) = 0;

  // True when evaluate() is the term itself and is differentiable everywhere it is finite.
  virtual bool isSmooth() const { return true; }
  virtual bool hasProx() const { return false; }
  // Pixel-by-pixel term (see ProximableFunction::isSeparable).
  virtual bool isSeparable() const { return false; }
  // The solver keeps the image non-negative (positivity by projection or a positive mapping): a
  // term with a kink at zero may then take its right derivative there, the only one the solver
  // can follow (L1: +m, where the two-sided subgradient's 0 would free every pixel at once).
  virtual void restrictToNonNegative() {}
  // Exact (or inner-solver) value of the term, as the prox sees it (no smoothing).
  virtual double proxValue(const double* image) { return evaluate(image, nullptr, 1.0); }
  // out = argmin_x  step * term(x) + 1/2 ||x - v||^2.
  virtual void prox(const double* /*v*/, double /*step*/, double* /*out*/) {
    throw std::logic_error(name() + " has no proximal operator");
  }
  // A non-separable term's own prox over x >= 0 (argmin_{x >= 0} step * term(x) +
  // 1/2 ||x - v||^2), when hasNonNegativeProx(): FISTA with positivity then needs no inner solver
  // for it. (A separable term's is its prox clipped at zero: callers form that themselves.) A term
  // with residentProx(space) and hasNonNegativeProx() has proxNonNegativeIn(space) too.
  virtual bool hasNonNegativeProx() const { return false; }
  virtual void proxNonNegative(const double* /*v*/, double /*step*/, double* /*out*/) {
    throw std::logic_error(name() + " has no proximal operator over non-negative images");
  }
  virtual void proxNonNegativeIn(compute::VectorSpace& /*space*/, const compute::SpaceVector& /*v*/,
                                 double /*step*/, compute::SpaceVector& /*out*/) {
    throw std::logic_error(name() + " has no resident proximal operator over non-negative images");
  }
  // Sub-stage timings (degrid/grid for the data term) since the last call.
  virtual std::vector<StageTime> takeStageTimes() { return {}; }

  // The space where the term keeps its own data (a data term on an accelerator), or null.
  virtual compute::VectorSpace* dataSpace() { return nullptr; }
  // Evaluation where the image lives in `space` (an accelerator's memory): as evaluate(), for a
  // term whose residentIn(space) is true.
  virtual bool residentIn(compute::VectorSpace& /*space*/) const { return false; }
  virtual double evaluateIn(compute::VectorSpace& /*space*/, const compute::SpaceVector& /*image*/,
                            compute::SpaceVector* /*gradient*/, double /*scale*/) {
    throw std::logic_error(name() + " cannot be evaluated where the images are resident");
  }
  // The prox and its value (proxValue) where the image lives, for a term whose
  // residentProx(space) is true.
  virtual bool residentProx(compute::VectorSpace& /*space*/) const { return false; }
  virtual double proxValueIn(compute::VectorSpace& /*space*/, const compute::SpaceVector& /*x*/) {
    throw std::logic_error(name() + " has no resident proximal operator");
  }
  virtual void proxIn(compute::VectorSpace& /*space*/, const compute::SpaceVector& /*v*/,
                      double /*step*/, compute::SpaceVector& /*out*/) {
    throw std::logic_error(name() + " has no resident proximal operator");
  }
};

// Base of the image-domain regularizers: image shape and an optional mask. The mask is a
// per-pixel weight (usually 0 outside and 1 inside the region); a pixel's contribution to the
// term (its value, or its finite differences for gradient-based terms) is multiplied by it.
class Regularizer : public ObjectiveTerm {
 public:
  Regularizer(int nx, int ny) : nx_(nx), ny_(ny) {}
  void setMask(std::vector<double> mask) {
    if (!mask.empty() && mask.size() != numPixels())
      throw std::invalid_argument(name() + ": mask size differs from the image size");
    mask_ = std::move(mask);
    resident_.mask.reset();  // uploaded again at the next resident evaluation
    smallest_weight_ = -1.0;
  }
  // The smallest positive weight (1 without a mask, 0 when none is positive): the dual proxes'
  // step bound. Found once per mask.
  double smallestWeight() const {
    if (smallest_weight_ < 0.0)
      smallest_weight_ = smallestPositiveWeight(mask_);
    return smallest_weight_;
  }
  const std::vector<double>& mask() const { return mask_; }
  double maskAt(std::size_t p) const { return mask_.empty() ? 1.0 : mask_[p]; }
  std::size_t numPixels() const { return std::size_t(nx_) * std::size_t(ny_); }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  // Frees the copies residentArgs() and residentWork() keep in a space; call it before that
  // space goes away if the term outlives it (the cache is keyed by the space's address).
  void releaseResident() { resident_ = {}; }

 protected:
  // The penalty arguments for an evaluation in `space`: the mask and `prior` (empty: none; one
  // value: a flat image, expanded to one per pixel) are uploaded there on first use and kept
  // until another space is asked for or setMask() replaces the mask. `prior` is the term's own,
  // fixed once it has been evaluated in a space.
  compute::PenaltyArgs residentArgs(compute::VectorSpace& space, double parameter,
                                    const std::vector<double>& prior = {}) {
    useSpace(space);
    auto upload = [&space, this](const std::vector<double>& host) {
      auto v = space.create(numPixels());
      if (host.size() == 1)
        space.fill(host[0], *v);
      else
        space.upload(host.data(), *v);
      return v;
    };
    if (!mask_.empty() && !resident_.mask)
      resident_.mask = upload(mask_);
    if (!prior.empty() && !resident_.prior)
      resident_.prior = upload(prior);
    compute::PenaltyArgs args;
    args.nx = nx_;
    args.ny = ny_;
    args.parameter = parameter;
    args.mask = resident_.mask.get();
    args.prior = resident_.prior.get();
    return args;
  }

  // The image as the dual proxes see it in `space` (the mask uploaded as residentArgs() does).
  TvProxImage residentImage(compute::VectorSpace& space) {
    TvProxImage image;
    image.nx = nx_;
    image.ny = ny_;
    image.mask = residentArgs(space, 0.0).mask;
    image.min_mask = smallestWeight();
    return image;
  }

  // `count` image-sized work vectors in `space`, kept like residentArgs()'s copies (their
  // contents are the last user's).
  std::vector<compute::SpaceVector*> residentWork(compute::VectorSpace& space, std::size_t count) {
    useSpace(space);
    while (resident_.work.size() < count)
      resident_.work.push_back(space.create(numPixels()));
    std::vector<compute::SpaceVector*> work;
    for (std::size_t i = 0; i < count; ++i)
      work.push_back(resident_.work[i].get());
    return work;
  }

  int nx_;
  int ny_;
  std::vector<double> mask_;

 private:
  struct Resident {
    compute::VectorSpace* space = nullptr;
    compute::SpaceVectorPtr mask;
    compute::SpaceVectorPtr prior;
    std::vector<compute::SpaceVectorPtr> work;
  };
  // Drops the copies kept in another space.
  void useSpace(compute::VectorSpace& space) {
    if (resident_.space != &space) {
      resident_ = {};
      resident_.space = &space;
    }
  }
  Resident resident_;
  mutable double smallest_weight_ = -1.0;
};

}  // namespace apertura::rml
