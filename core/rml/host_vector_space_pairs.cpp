// The host space's operations on L-BFGS's curvature pairs, which may be float vectors: dot, axpy
// and differences. Float elements are widened to double, so the arithmetic is LbfgsHistory's
// (lbfgs_history.cpp) element for element and block for block: the resident L-BFGS on this space
// gives the host solver's bits with float pairs too.
#include <stdexcept>
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

// f(elements) with the vector's elements as a pointer to its own type.
template <typename F>
decltype(auto) withElements(const SpaceVector& v, F&& f) {
  if (v.element() == Element::Float)
    return f(HostVectorSpace::floatsOf(v).data());
  return f(HostVectorSpace::of(v).data());
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
  requireSameSize(va.size(), vb.size(), "dot");
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
  requireSameSize(vx.size(), y.size(), "axpy");
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
  requireSameSize(xn.size(), x.size(), "differences");
  requireSameSize(gn.size(), g.size(), "differences");
  requireSameSize(x.size(), g.size(), "differences");
  if ((vs == nullptr) != (vy == nullptr))
    throw std::invalid_argument("host vector space: differences stores both s and y, or neither");
  const std::size_t n = x.size();
  if (vs == nullptr)
    return detail::pairDifferences<double, false>(n, xn.data(), x.data(), gn.data(), g.data(),
                                                  nullptr, nullptr);
  requireSameSize(vs->size(), x.size(), "differences");
  requireSameSize(vy->size(), x.size(), "differences");
  if (vs->element() == Element::Float)
    return detail::pairDifferences<float, true>(n, xn.data(), x.data(), gn.data(), g.data(),
                                                floatsOf(*vs).data(), floatsOf(*vy).data());
  return detail::pairDifferences<double, true>(n, xn.data(), x.data(), gn.data(), g.data(),
                                               of(*vs).data(), of(*vy).data());
}

}  // namespace apertura::rml
