#include "core/rml/host_vector_space.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/rml/detail/parallel_sum.h"

namespace apertura::rml {

namespace {

using compute::SpaceVector;
using detail::blockedSum;
using detail::parallelFor;

void requireSameLength(const std::vector<double>& a, const std::vector<double>& b, const char* op) {
  HostVectorSpace::requireSameSize(a.size(), b.size(), op);
}

bool held(bool positivity, double x, double g) {
  return positivity && x <= 0.0 && g >= 0.0;
}

}  // namespace

void HostVectorSpace::requireSameSize(std::size_t a, std::size_t b, const char* op) {
  if (a != b)
    throw std::invalid_argument(std::string("host vector space: ") + op +
                                " of vectors of different sizes");
}

const std::vector<double>& HostVectorSpace::of(const SpaceVector& v) {
  const auto* h = dynamic_cast<const Vec*>(&v);
  if (h == nullptr)
    throw std::invalid_argument(
        v.element() == compute::Element::Float
            ? "host vector space: a float vector where a double one is needed"
            : "host vector space: a vector of another space");
  return h->data;
}

std::vector<double>& HostVectorSpace::of(SpaceVector& v) {
  return const_cast<std::vector<double>&>(of(std::as_const(v)));
}

compute::SpaceVectorPtr HostVectorSpace::create(std::size_t n) {
  return std::make_unique<Vec>(n, bytes_);
}

compute::SpaceVectorPtr HostVectorSpace::createFloat(std::size_t n) {
  return std::make_unique<FloatVec>(n, bytes_);
}

void HostVectorSpace::upload(const double* host, SpaceVector& v) {
  auto& d = of(v);
  std::copy(host, host + d.size(), d.begin());
}

void HostVectorSpace::download(const SpaceVector& v, double* host) {
  const auto& d = of(v);
  std::copy(d.begin(), d.end(), host);
}

void HostVectorSpace::copy(const SpaceVector& from, SpaceVector& to) {
  requireSameLength(of(from), of(to), "copy");
  of(to) = of(from);
}

void HostVectorSpace::copyRange(const SpaceVector& from, std::size_t from_offset, SpaceVector& to,
                                std::size_t to_offset, std::size_t n) {
  compute::requireRange(from, from_offset, to, to_offset, n, "host vector space");
  const auto& a = of(from);
  auto& b = of(to);
  std::copy_n(a.begin() + std::ptrdiff_t(from_offset), n, b.begin() + std::ptrdiff_t(to_offset));
}

void HostVectorSpace::fill(double value, SpaceVector& v) {
  auto& d = of(v);
  std::fill(d.begin(), d.end(), value);
}

void HostVectorSpace::scale(double a, SpaceVector& vx) {
  auto& x = of(vx);
  parallelFor(x.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      x[i] *= a;
  });
}

void HostVectorSpace::multiply(const SpaceVector& va, const SpaceVector& vb, SpaceVector& vout) {
  const auto& a = of(va);
  const auto& b = of(vb);
  auto& out = of(vout);
  requireSameLength(a, b, "multiply");
  requireSameLength(a, out, "multiply");
  parallelFor(out.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      out[i] = a[i] * b[i];
  });
}

void HostVectorSpace::axpby(double a, const SpaceVector& vx, double b, SpaceVector& vy) {
  const auto& x = of(vx);
  auto& y = of(vy);
  requireSameLength(x, y, "axpby");
  parallelFor(y.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      y[i] = a * x[i] + b * y[i];
  });
}

double HostVectorSpace::projectedGradient(const SpaceVector& vx, const SpaceVector& vg,
                                          bool positivity, double sign, SpaceVector* vd) {
  const auto& x = of(vx);
  const auto& g = of(vg);
  std::vector<double>* d = vd ? &of(*vd) : nullptr;
  requireSameLength(x, g, "projectedGradient");
  if (d != nullptr)
    requireSameLength(x, *d, "projectedGradient");
  return blockedSum(x.size(), [&](std::size_t begin, std::size_t end) {
    double norm2 = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
      const double pg = held(positivity, x[i], g[i]) ? 0.0 : g[i];
      norm2 += pg * pg;
      if (d != nullptr)
        (*d)[i] = sign * pg;
    }
    return norm2;
  });
}

void HostVectorSpace::holdAtBound(const SpaceVector& vx, const SpaceVector& vg, SpaceVector& vd) {
  const auto& x = of(vx);
  const auto& g = of(vg);
  auto& d = of(vd);
  requireSameLength(x, d, "holdAtBound");
  parallelFor(d.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (held(true, x[i], g[i]))
        d[i] = 0.0;
    }
  });
}

void HostVectorSpace::step(const SpaceVector& vx, double alpha, const SpaceVector& vd, bool clip,
                           SpaceVector& vout) {
  const auto& x = of(vx);
  const auto& d = of(vd);
  auto& out = of(vout);
  requireSameLength(x, d, "step");
  requireSameLength(x, out, "step");
  parallelFor(out.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const double v = x[i] + alpha * d[i];
      out[i] = clip ? std::max(0.0, v) : v;
    }
  });
}

double HostVectorSpace::dotDifference(const SpaceVector& vg, const SpaceVector& va,
                                      const SpaceVector& vb) {
  const auto& g = of(vg);
  const auto& a = of(va);
  const auto& b = of(vb);
  requireSameLength(g, a, "dotDifference");
  requireSameLength(g, b, "dotDifference");
  return blockedSum(g.size(), [&](std::size_t begin, std::size_t end) {
    double s = 0.0;
    for (std::size_t i = begin; i < end; ++i)
      s += g[i] * (a[i] - b[i]);
    return s;
  });
}

compute::VectorSpace::ConjugateProducts HostVectorSpace::conjugateProducts(const SpaceVector& vg0,
                                                                           const SpaceVector& vg1,
                                                                           const SpaceVector& vd) {
  const auto& g0 = of(vg0);
  const auto& g1 = of(vg1);
  const auto& d = of(vd);
  requireSameLength(g0, g1, "conjugateProducts");
  requireSameLength(g0, d, "conjugateProducts");
  const auto s = detail::blockedSums<7>(
      g0.size(), [&](std::size_t begin, std::size_t end, std::array<double, 7>& acc) {
        ConjugateProducts p;
        for (std::size_t i = begin; i < end; ++i) {
          const double y = g1[i] - g0[i];
          p.g0g0 += g0[i] * g0[i];
          p.g1g1 += g1[i] * g1[i];
          p.dy += d[i] * y;
          p.g1y += g1[i] * y;
          p.yy += y * y;
          p.dg1 += d[i] * g1[i];
          p.dd += d[i] * d[i];
        }
        acc = {p.g0g0, p.g1g1, p.dy, p.g1y, p.yy, p.dg1, p.dd};
      });
  return {s[0], s[1], s[2], s[3], s[4], s[5], s[6]};
}

void HostVectorSpace::gradientStep(const SpaceVector& vy, const SpaceVector& vg, double lipschitz,
                                   SpaceVector& vout) {
  const auto& y = of(vy);
  const auto& g = of(vg);
  auto& out = of(vout);
  requireSameLength(y, g, "gradientStep");
  requireSameLength(y, out, "gradientStep");
  parallelFor(out.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k)
      out[k] = y[k] - g[k] / lipschitz;
  });
}

double HostVectorSpace::distanceSquared(const SpaceVector& va, const SpaceVector& vb) {
  const auto& a = of(va);
  const auto& b = of(vb);
  requireSameLength(a, b, "distanceSquared");
  return blockedSum(a.size(), [&](std::size_t begin, std::size_t end) {
    double sum = 0.0;
    for (std::size_t k = begin; k < end; ++k)
      sum += (a[k] - b[k]) * (a[k] - b[k]);
    return sum;
  });
}

void HostVectorSpace::extrapolate(const SpaceVector& vp, const SpaceVector& vx, double momentum,
                                  SpaceVector& vy) {
  const auto& p = of(vp);
  const auto& x = of(vx);
  auto& y = of(vy);
  requireSameLength(p, x, "extrapolate");
  requireSameLength(p, y, "extrapolate");
  parallelFor(y.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k)
      y[k] = p[k] + momentum * (p[k] - x[k]);
  });
}

void HostVectorSpace::maxWith(double floor, SpaceVector& vv) {
  auto& v = of(vv);
  parallelFor(v.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k)
      v[k] = std::max(v[k], floor);
  });
}

void HostVectorSpace::mapToImage(compute::PixelMapping m, const SpaceVector& vx,
                                 const SpaceVector* vsupport, SpaceVector& vimage) {
  const auto& x = of(vx);
  const double* support = vsupport ? of(*vsupport).data() : nullptr;
  auto& image = of(vimage);
  requireSameLength(x, image, "mapToImage");
  if (vsupport != nullptr)
    requireSameLength(x, of(*vsupport), "mapToImage");
  parallelFor(x.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k)
      image[k] = support && support[k] == 0.0 ? 0.0 : compute::mapping::toImage(m, x[k]);
  });
}

void HostVectorSpace::mapGradient(compute::PixelMapping m, const SpaceVector& vx,
                                  const SpaceVector& vimage, const SpaceVector* vsupport,
                                  const SpaceVector& vgrad_image, SpaceVector& vgrad_x) {
  const auto& x = of(vx);
  const auto& image = of(vimage);
  const double* support = vsupport ? of(*vsupport).data() : nullptr;
  const auto& grad_image = of(vgrad_image);
  auto& grad_x = of(vgrad_x);
  requireSameLength(x, image, "mapGradient");
  requireSameLength(x, grad_image, "mapGradient");
  requireSameLength(x, grad_x, "mapGradient");
  parallelFor(x.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      const double derivative =
          support && support[k] == 0.0 ? 0.0 : compute::mapping::derivative(m, x[k], image[k]);
      grad_x[k] = derivative * grad_image[k];
    }
  });
}

std::size_t HostVectorSpace::bytesHeld() const {
  return *bytes_;
}

}  // namespace apertura::rml
