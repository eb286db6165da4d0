// HostVectorSpace's penalties and pixel proxes: penalty_math.h's per-pixel functions in parallel
// over the fixed blocks of detail/parallel_sum.h, so values are bitwise the same for any number of
// threads and gradient and prox elements are those of the regularizer classes.
#include <stdexcept>
#include <string>

#include "core/compute/penalty_math.h"
#include "core/rml/detail/parallel_sum.h"
#include "core/rml/host_vector_space.h"

namespace apertura::rml {

namespace {

using compute::PenaltyArgs;
using compute::SpaceVector;

// The host arrays of one call, checked against the image shape.
struct Operands {
  std::size_t n = 0;
  const double* image = nullptr;
  const double* mask = nullptr;
  const double* prior = nullptr;
  double* gradient = nullptr;
};

Operands operands(const PenaltyArgs& args, const SpaceVector& image, SpaceVector* gradient,
                  const char* what) {
  auto fail = [what](const std::string& why) {
    throw std::invalid_argument(std::string("host vector space: ") + what + ": " + why);
  };
  if (args.nx <= 0 || args.ny <= 0)
    fail("empty image shape");
  Operands o;
  o.n = std::size_t(args.nx) * std::size_t(args.ny);
  auto sized = [&](const SpaceVector& v, const char* name) {
    const auto& d = HostVectorSpace::of(v);
    if (d.size() != o.n)
      fail(std::string(name) + " size differs from nx * ny");
    return d.data();
  };
  o.image = sized(image, "image");
  if (args.mask != nullptr)
    o.mask = sized(*args.mask, "mask");
  if (args.prior != nullptr)
    o.prior = sized(*args.prior, "prior");
  if (gradient != nullptr) {
    if (gradient == &image)
      fail("gradient and image are the same vector");
    sized(*gradient, "gradient");
    o.gradient = HostVectorSpace::of(*gradient).data();
  }
  return o;
}

}  // namespace

double HostVectorSpace::pixelPenalty(compute::PixelPenalty kind, const PenaltyArgs& args,
                                     const SpaceVector& image, SpaceVector* gradient,
                                     double scale) {
  const Operands o = operands(args, image, gradient, "pixel penalty");
  if (kind == compute::PixelPenalty::Entropy && o.prior == nullptr)
    throw std::invalid_argument("host vector space: entropy needs a default image");
  return detail::blockedSum(o.n, [&](std::size_t begin, std::size_t end) {
    double sum = 0.0;
    for (std::size_t p = begin; p < end; ++p) {
      double g = 0.0;
      sum += compute::penalty::pixelPenaltyAt(
          kind, args.parameter, o.image[p], compute::penalty::weightAt(o.mask, p),
          o.prior != nullptr ? o.prior[p] : 0.0, scale, o.gradient != nullptr ? &g : nullptr,
          args.non_negative);
      if (o.gradient != nullptr)
        o.gradient[p] += g;
    }
    return sum;
  });
}

double HostVectorSpace::differencePenalty(compute::DifferencePenalty kind, const PenaltyArgs& args,
                                          const SpaceVector& image, SpaceVector* gradient,
                                          double scale) {
  const Operands o = operands(args, image, gradient, "difference penalty");
  const int nx = args.nx;
  const int ny = args.ny;
  return detail::blockedSum(o.n, [&](std::size_t begin, std::size_t end) {
    double sum = 0.0;
    int x = int(begin % std::size_t(nx));
    int y = int(begin / std::size_t(nx));
    for (std::size_t p = begin; p < end; ++p) {
      sum += compute::penalty::differencePenaltyValueAt(kind, args.parameter, o.image, o.mask, nx,
                                                        ny, x, y);
      if (o.gradient != nullptr)
        o.gradient[p] += scale * compute::penalty::differencePenaltyGradientAt(
                                     kind, args.parameter, o.image, o.mask, nx, ny, x, y);
      if (++x == nx) {
        x = 0;
        ++y;
      }
    }
    return sum;
  });
}

void HostVectorSpace::pixelProx(compute::PixelPenalty kind, const PenaltyArgs& args,
                                const SpaceVector& v, double step, SpaceVector& out) {
  const Operands o = operands(args, v, nullptr, "pixel prox");
  if (kind == compute::PixelPenalty::Entropy && o.prior == nullptr)
    throw std::invalid_argument("host vector space: entropy needs a default image");
  auto& result = of(out);
  if (result.size() != o.n)
    throw std::invalid_argument("host vector space: pixel prox: out size differs from nx * ny");
  double* r = result.data();  // may be o.image: each element is read before it is written
  detail::parallelFor(o.n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p)
      r[p] = compute::penalty::pixelProxAt(kind, o.image[p], step,
                                           compute::penalty::weightAt(o.mask, p),
                                           o.prior != nullptr ? o.prior[p] : 0.0);
  });
}

}  // namespace apertura::rml
