#include "core/imaging/kernel_poly.h"

#include <cmath>

namespace apertura::imaging {

namespace {

// Monomial coefficients (lowest power first) of the degree-D Chebyshev interpolant of f on
// [-1, 1], accumulated in long double because the Chebyshev-to-monomial change of basis cancels.
template <typename F>
std::vector<long double> chebyshevMonomials(F f, int degree) {
  const int n = degree + 1;
  std::vector<long double> values(n), cheb(n, 0.0L);
  for (int k = 0; k < n; ++k)
    values[k] = f(std::cos(M_PI * (k + 0.5) / n));
  for (int j = 0; j < n; ++j) {
    long double s = 0;
    for (int k = 0; k < n; ++k)
      s += values[k] * std::cos(M_PI * j * (k + 0.5L) / n);
    cheb[j] = s * (j == 0 ? 1.0L : 2.0L) / n;
  }
  // T_0 = 1, T_1 = y, T_{k+1} = 2 y T_k - T_{k-1}, each as monomial coefficients.
  std::vector<long double> mono(n, 0.0L), tprev(n, 0.0L), tcur(n, 0.0L), tnext(n);
  tprev[0] = 1.0L;
  if (n > 1)
    tcur[1] = 1.0L;
  for (int i = 0; i < n; ++i)
    mono[i] += cheb[0] * tprev[i];
  if (n > 1)
    for (int i = 0; i < n; ++i)
      mono[i] += cheb[1] * tcur[i];
  for (int k = 2; k < n; ++k) {
    for (int i = 0; i < n; ++i)
      tnext[i] = (i > 0 ? 2.0L * tcur[i - 1] : 0.0L) - tprev[i];
    for (int i = 0; i < n; ++i)
      mono[i] += cheb[k] * tnext[i];
    tprev = tcur;
    tcur = tnext;
  }
  return mono;
}

}  // namespace

template <typename T>
KernelPolynomial<T> fitKernelPolynomial(const KernelShape& kernel, double tolerance) {
  const int W = kernel.support;
  KernelPolynomial<T> best;
  for (int degree = 0; degree <= W + 8; ++degree) {
    KernelPolynomial<T> p;
    p.support = W;
    p.degree = degree;
    p.coeff.assign(std::size_t(degree + 1) * W, T(0));
    for (int j = 0; j < W; ++j) {
      auto piece = [&](double y) { return kernel((2.0 * j - W + 1 + y) / W); };
      const auto mono = chebyshevMonomials(piece, degree);
      for (int d = 0; d <= degree; ++d)
        p.coeff[std::size_t(d) * W + j] = T(mono[degree - d]);
    }
    double err = 0.0;
    std::vector<T> taps(W);
    for (int s = 0; s <= 400; ++s) {
      const double y = -1.0 + 2.0 * s / 400.0;
      p.evaluate(T(y), taps.data());
      for (int j = 0; j < W; ++j)
        err = std::max(err, std::abs(double(taps[j]) - kernel((2.0 * j - W + 1 + y) / W)));
    }
    best = std::move(p);
    if (err <= tolerance)
      break;
  }
  const int wp = KernelPolynomial<T>::paddedSupport(W);
  best.padded.assign(std::size_t(best.degree + 1) * wp, T(0));
  for (int d = 0; d <= best.degree; ++d)
    for (int j = 0; j < W; ++j)
      best.padded[std::size_t(d) * wp + j] = best.coeff[std::size_t(d) * W + j];
  return best;
}

template KernelPolynomial<float> fitKernelPolynomial<float>(const KernelShape&, double);
template KernelPolynomial<double> fitKernelPolynomial<double>(const KernelShape&, double);

}  // namespace apertura::imaging
