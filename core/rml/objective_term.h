#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rml/function.h"

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
  // Exact (or inner-solver) value of the term, as the prox sees it (no smoothing).
  virtual double proxValue(const double* image) { return evaluate(image, nullptr, 1.0); }
  // out = argmin_x  step * term(x) + 1/2 ||x - v||^2.
  virtual void prox(const double* /*v*/, double /*step*/, double* /*out*/) {
    throw std::logic_error(name() + " has no proximal operator");
  }
  // Sub-stage timings (degrid/grid for the data term) since the last call.
  virtual std::vector<StageTime> takeStageTimes() { return {}; }
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
  }
  const std::vector<double>& mask() const { return mask_; }
  double maskAt(std::size_t p) const { return mask_.empty() ? 1.0 : mask_[p]; }
  std::size_t numPixels() const { return std::size_t(nx_) * std::size_t(ny_); }
  int nx() const { return nx_; }
  int ny() const { return ny_; }

 protected:
  int nx_;
  int ny_;
  std::vector<double> mask_;
};

}  // namespace apertura::rml
