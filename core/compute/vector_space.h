#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/compute/mapping_math.h"

namespace apertura::compute {

// How a space vector stores its elements: double, or float for L-BFGS's curvature pairs (half
// the memory; the arithmetic on them is still done in double).
enum class Element { Double, Float };

// A vector where a VectorSpace keeps it: host RAM, or an accelerator's memory. Only its own space
// reads or writes the elements; the host sees them through upload/download.
class SpaceVector {
 public:
  virtual ~SpaceVector() = default;
  virtual std::size_t size() const = 0;
  virtual Element element() const { return Element::Double; }
};
using SpaceVectorPtr = std::unique_ptr<SpaceVector>;

// VectorSpace::copyRange's check: std::out_of_range naming `space` unless [from_offset, + n) lies
// in `from` and [to_offset, + n) in `to`, not overlapping when they are one vector.
inline void requireRange(const SpaceVector& from, std::size_t from_offset, const SpaceVector& to,
                         std::size_t to_offset, std::size_t n, const char* space) {
  const bool inside = from_offset <= from.size() && n <= from.size() - from_offset &&
                      to_offset <= to.size() && n <= to.size() - to_offset;
  const bool overlap =
      &from == &to && n > 0 && from_offset < to_offset + n && to_offset < from_offset + n;
  if (!inside || overlap)
    throw std::out_of_range(std::string(space) + ": copy of " + std::to_string(n) +
                            " elements from offset " + std::to_string(from_offset) + " of " +
                            std::to_string(from.size()) + " to offset " +
                            std::to_string(to_offset) + " of " + std::to_string(to.size()) +
                            (overlap ? " (overlapping)" : ""));
}

// The image-domain penalties a space evaluates where the images are. Their mathematics is that of
// rml's regularizers (pixel_regularizers.h, gradient_regularizers.h), written once for host and
// device in core/compute/penalty_math.h.
enum class PixelPenalty {
  L1,      // m |I| smoothed with `parameter` = eps (0: exact value, subgradient)
  L2,      // m (I - P)^2, P = `prior` (null: 0)
  Entropy  // m (I ln(I / M) - I + M), M = `prior` (one value per pixel); +inf for I < 0 in the mask
};
enum class DifferencePenalty {
  Tsv,            // m (dx^2 + dy^2)
  TvIsotropic,    // m (sqrt(dx^2 + dy^2 + eps^2) - eps), eps = `parameter`
  TvAnisotropic,  // m (sqrt(dx^2 + eps^2) - eps + sqrt(dy^2 + eps^2) - eps)
  Huber,          // m h(|grad I|), delta = `parameter`
  Laplacian       // m (L I)^2, 5-point Laplacian
};
struct PenaltyArgs {
  int nx = 0;
  int ny = 0;
  double parameter = 0.0;
  bool non_negative = false;           // L1: the image stays >= 0, so its derivative at 0 is +m
  const SpaceVector* mask = nullptr;   // per-pixel weight; null: 1 everywhere
  const SpaceVector* prior = nullptr;  // L2's prior, entropy's default image
};

// Vector arithmetic where the vectors live: the operations the solvers, the objective and the
// regularizers need, so that an accelerator keeps images and the optimizer's state in its memory
// between iterations and only snapshots travel to the host. Reductions accumulate in double over
// fixed blocks of elements added in a fixed order: every call gives the same bits, whatever the
// hardware's parallelism. Calls are ordered (a space may queue work; downloads and reductions
// wait for what was queued before them).
class VectorSpace {
 public:
  virtual ~VectorSpace() = default;
  virtual std::string describe() const = 0;

  virtual SpaceVectorPtr create(std::size_t n) = 0;  // zero-filled
  // A zero-filled vector of floats, for L-BFGS's curvature pairs. Only dot (either operand), axpy
  // (as x) and differences (as s and y) take one; every other operation wants double vectors and
  // throws std::invalid_argument for a float one.
  virtual SpaceVectorPtr createFloat(std::size_t n) = 0;
  virtual void upload(const double* host, SpaceVector& v) = 0;
  virtual void download(const SpaceVector& v, double* host) = 0;
  virtual void copy(const SpaceVector& from, SpaceVector& to) = 0;
  virtual void fill(double value, SpaceVector& v) = 0;
  // to[to_offset + k] = from[from_offset + k] for k < n (one plane of a cube to or from a plane's
  // vector). The ranges must lie inside the vectors (std::out_of_range) and, for one vector, must
  // not overlap.
  virtual void copyRange(const SpaceVector& from, std::size_t from_offset, SpaceVector& to,
                         std::size_t to_offset, std::size_t n) = 0;

  // Float elements are widened to double before they are multiplied or added.
  virtual double dot(const SpaceVector& a, const SpaceVector& b) = 0;
  virtual void axpy(double a, const SpaceVector& x, SpaceVector& y) = 0;  // y += a x
  virtual void scale(double a, SpaceVector& x) = 0;                       // x *= a
  // out = a .* b (out may be b).
  virtual void multiply(const SpaceVector& a, const SpaceVector& b, SpaceVector& out) = 0;
  // y = a x + b y.
  virtual void axpby(double a, const SpaceVector& x, double b, SpaceVector& y) = 0;

  // The projected solvers' fused passes. A pixel is held at the bound when `positivity` and
  // x <= 0 and g >= 0. projectedGradient: d = sign * P g (P zeroes held pixels; d may be null)
  // and returns |P g|^2. holdAtBound: d = 0 where held. step: out = x + alpha d, clipped at zero
  // when `clip`. dotDifference: g . (a - b).
  virtual double projectedGradient(const SpaceVector& x, const SpaceVector& g, bool positivity,
                                   double sign, SpaceVector* d) = 0;
  virtual void holdAtBound(const SpaceVector& x, const SpaceVector& g, SpaceVector& d) = 0;
  virtual void step(const SpaceVector& x, double alpha, const SpaceVector& d, bool clip,
                    SpaceVector& out) = 0;
  virtual double dotDifference(const SpaceVector& g, const SpaceVector& a,
                               const SpaceVector& b) = 0;
  // s = x_new - x and y = g_new - g, formed in double and stored (in s's and y's element type,
  // which must be the same) where s and y are not null (both or neither); returns s.y, s.s, y.y
  // of the double differences and, in float_sy, s.y with s and y rounded to float element by
  // element, whether stored or not: L-BFGS keeps a float pair only when it is positive and takes
  // rho from it (rml/detail/pair_differences.h), so the pair can be judged before a slot is given
  // up for it.
  struct PairSums {
    double sy = 0.0;
    double ss = 0.0;
    double yy = 0.0;
    double float_sy = 0.0;
  };
  virtual PairSums differences(const SpaceVector& x_new, const SpaceVector& x,
                               const SpaceVector& g_new, const SpaceVector& g, SpaceVector* s,
                               SpaceVector* y) = 0;

  // The products the conjugate-gradient beta rules need, with y = g1 - g0 formed element by
  // element (never stored).
  struct ConjugateProducts {
    double g0g0 = 0.0, g1g1 = 0.0, dy = 0.0, g1y = 0.0, yy = 0.0, dg1 = 0.0, dd = 0.0;
  };
  virtual ConjugateProducts conjugateProducts(const SpaceVector& g0, const SpaceVector& g1,
                                              const SpaceVector& d) = 0;

  // FISTA's fused passes: out = y - g / lipschitz; |a - b|^2; y = p + momentum (p - x);
  // v = max(v, floor).
  virtual void gradientStep(const SpaceVector& y, const SpaceVector& g, double lipschitz,
                            SpaceVector& out) = 0;
  virtual double distanceSquared(const SpaceVector& a, const SpaceVector& b) = 0;
  virtual void extrapolate(const SpaceVector& p, const SpaceVector& x, double momentum,
                           SpaceVector& y) = 0;
  virtual void maxWith(double floor, SpaceVector& v) = 0;

  // The solver's variables to the image and the image's gradient back (rml::MappedObjective):
  // image = phi(x) where `support` (0/1; null: everywhere) is 1, else 0; grad_x = phi'(x)
  // grad_image where it is 1, 0 * grad_image elsewhere.
  virtual void mapToImage(PixelMapping m, const SpaceVector& x, const SpaceVector* support,
                          SpaceVector& image) = 0;
  virtual void mapGradient(PixelMapping m, const SpaceVector& x, const SpaceVector& image,
                           const SpaceVector* support, const SpaceVector& grad_image,
                           SpaceVector& grad_x) = 0;

  // The penalty's value at `image` and, when `gradient` is not null, scale * its gradient added
  // to it.
  virtual double pixelPenalty(PixelPenalty kind, const PenaltyArgs& args, const SpaceVector& image,
                              SpaceVector* gradient, double scale) = 0;
  virtual double differencePenalty(DifferencePenalty kind, const PenaltyArgs& args,
                                   const SpaceVector& image, SpaceVector* gradient,
                                   double scale) = 0;
  // out = argmin_x step * penalty(x) + 1/2 |x - v|^2 (the exact penalty: L1 without smoothing),
  // pixel by pixel (out may be v).
  virtual void pixelProx(PixelPenalty kind, const PenaltyArgs& args, const SpaceVector& v,
                         double step, SpaceVector& out) = 0;

  // The two passes of the total-variation prox's dual iteration (Beck & Teboulle's fast gradient
  // projection, rml/tv_prox.h), with the dual field q = (qx, qy) one pair per pixel.
  // primalFromDual: out = v - step D^T q (D: forward differences, Neumann boundaries), clipped at
  // zero when `nonnegative` (out may not be qx or qy).
  virtual void primalFromDual(int nx, int ny, const SpaceVector& v, const SpaceVector& qx,
                              const SpaceVector& qy, double step, bool nonnegative,
                              SpaceVector& out) = 0;
  // dualStep: from the extrapolated point r = (rx, ry) and x = primalFromDual(r), the projected
  // step q' = P(r + (step D x - h r) / lipschitz) with h = step delta / m (Huber's dual term; 0
  // for TV) and P the ball (isotropic) or box of radius m; then r = q' + momentum (q' - q) and
  // q = q'. Returns |q' - q|^2 and |q'|^2.
  struct DualStepArgs {
    int nx = 0;
    int ny = 0;
    const SpaceVector* mask = nullptr;  // m per pixel; null: 1
    bool isotropic = true;
    double step = 0.0;
    double lipschitz = 1.0;
    double huber_delta = 0.0;  // > 0: Huber's penalty of |grad| instead of TV
    double momentum = 0.0;
  };
  struct DualSums {
    double change = 0.0;
    double norm = 0.0;
  };
  virtual DualSums dualStep(const DualStepArgs& args, const SpaceVector& x, SpaceVector& qx,
                            SpaceVector& qy, SpaceVector& rx, SpaceVector& ry) = 0;

  // Bytes of vectors this space holds now (the engine's device telemetry).
  virtual std::size_t bytesHeld() const = 0;
  // Bytes more vectors may take now (a device's free memory), so that a solver whose state would
  // not fit keeps it on the host instead of failing part way.
  virtual std::size_t bytesAvailable() const = 0;
};

}  // namespace apertura::compute
