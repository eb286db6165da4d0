// The host space's operations on L-BFGS's curvature pairs, which may be float vectors: dot, axpy
// and differences. Float elements are widened to double, so the arithmetic is LbfgsHistory's
// (lbfgs_history.cpp) element for element and block for block: the resident L-BFGS on this space
// gives the host solver's bits with float pairs too.
#include <stdexcept>
#include <string>
#include <utility>

#include "core/rml/detail/pair_differences.h"
#include "core/rml/detail/parallel_sum.h"
#include "core/rml/host_vector_space.h"

namespace apertura::rml {

namespace {

using compute::Element;
using compute::SpaceVector;
using detail::blockedSum;
using detail::parallelFor;

void requireSize(std::size_t a, std::size_t b, const char* op) {
  if (a != b)
    throw std::invalid_argument(std::string("host vector space: ") + op +
                                " of vectors of different sizes");
}

// f(elements) with the vector's elements as a pointer to its own type.
template <typename F>
decltype(auto) withElements(const SpaceVector& v, F&& f) {
  if (v.element() == Element::Float)
    return f(HostVectorSpace::floatsOf(v).data());
  return f(HostVectorSpace::of(v).data());
}

template <typename T, bool kStore>
compute::VectorSpace::PairSums differencesInto(const std::vector<double>& xn,
                                               const std::vector<double>& x,
                                               const std::vector<double>& gn,
                                               const std::vector<double>& g, T* s, T* y) {
  const detail::PairDifferenceSums r =
      detail::pairDifferences<T, kStore>(x.size(), xn.data(), x.data(), gn.data(), g.data(), s, y);
  return {r.sy, r.ss, r.yy, r.float_sy};
}

}  // namespace

const std::vector<float>& HostVectorSpace::floatsOf(const SpaceVector& v) {
  const auto* h = dynamic_cast<const FloatVec*>(&v);
  if (h == nullptr)
    throw std::invalid_argument(
        v.element() == Element::Double
            ? "host vector space: a double vector where a float one is needed"
            : "host vector space: a vector of another space");
  return h->data;
}

std::vector<float>& HostVectorSpace::floatsOf(SpaceVector& v) {
  return const_cast<std::vector<float>&>(floatsOf(std::as_const(v)));
}

double HostVectorSpace::dot(const SpaceVector& va, const SpaceVector& vb) {
  requireSize(va.size(), vb.size(), "dot");
  return withElements(va, [&](const auto* a) {
    return withElements(vb, [&](const auto* b) {
      return blockedSum(va.size(), [a, b](std::size_t begin, std::size_t end) {
        double s = 0.0;
        for (std::size_t i = begin; i < end; ++i)
          s += double(a[i]) * double(b[i]);
        return s;
      });
    });
  });
}

void HostVectorSpace::axpy(double a, const SpaceVector& vx, SpaceVector& vy) {
  auto& y = of(vy);
  requireSize(vx.size(), y.size(), "axpy");
  withElements(vx, [&](const auto* x) {
    parallelFor(y.size(), [a, x, &y](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        y[i] += a * double(x[i]);
    });
  });
}

compute::VectorSpace::PairSums HostVectorSpace::differences(const SpaceVector& vxn,
                                                            const SpaceVector& vx,
                                                            const SpaceVector& vgn,
                                                            const SpaceVector& vg, SpaceVector* vs,
                                                            SpaceVector* vy) {
  const auto& xn = of(vxn);
  const auto& x = of(vx);
  const auto& gn = of(vgn);
  const auto& g = of(vg);
  requireSize(xn.size(), x.size(), "differences");
  requireSize(gn.size(), g.size(), "differences");
  requireSize(x.size(), g.size(), "differences");
  if ((vs == nullptr) != (vy == nullptr))
    throw std::invalid_argument("host vector space: differences stores both s and y, or neither");
  if (vs == nullptr)
    return differencesInto<double, false>(xn, x, gn, g, nullptr, nullptr);
  requireSize(vs->size(), x.size(), "differences");
  requireSize(vy->size(), x.size(), "differences");
  if (vs->element() == Element::Float)
    return differencesInto<float, true>(xn, x, gn, g, floatsOf(*vs).data(), floatsOf(*vy).data());
  return differencesInto<double, true>(xn, x, gn, g, of(*vs).data(), of(*vy).data());
}

}  // namespace apertura::rml
