#include "core/rml/tv_prox.h"

#include <algorithm>
#include <cmath>

#include "core/rml/finite_differences.h"

namespace apertura::rml {

namespace {

double maskOf(const std::vector<double>& mask, std::size_t p) {
  return mask.empty() ? 1.0 : mask[p];
}

// Projects each q_p onto the ball (isotropic) or box (anisotropic) of radius m_p.
void project(std::vector<double>& qx, std::vector<double>& qy, const std::vector<double>& mask,
             bool isotropic) {
  for (std::size_t p = 0; p < qx.size(); ++p) {
    const double r = maskOf(mask, p);
    if (isotropic) {
      const double norm = std::hypot(qx[p], qy[p]);
      if (norm > r) {
        const double s = norm > 0.0 ? r / norm : 0.0;
        qx[p] *= s;
        qy[p] *= s;
      }
    } else {
      qx[p] = std::clamp(qx[p], -r, r);
      qy[p] = std::clamp(qy[p], -r, r);
    }
  }
}

}  // namespace

void proxTotalVariation(const double* v, int nx, int ny, const std::vector<double>& mask,
                        double step, const TvProxSettings& settings, double* out) {
  const std::size_t n = std::size_t(nx) * ny;
  std::copy(v, v + n, out);
  if (step <= 0.0)
    return;
  double min_mask = 0.0;
  for (std::size_t p = 0; p < n; ++p) {
    const double m = maskOf(mask, p);
    if (m > 0.0 && (min_mask == 0.0 || m < min_mask))
      min_mask = m;
  }
  if (min_mask == 0.0)
    return;  // empty mask: the term is zero
  const double delta = settings.huber_delta;
  // Lipschitz constant of the dual gradient: ||D||^2 <= 8, plus the Huber penalty's curvature.
  const double lipschitz = 8.0 * step * step + (delta > 0.0 ? step * delta / min_mask : 0.0);

  std::vector<double> qx(n, 0.0), qy(n, 0.0), rx(n, 0.0), ry(n, 0.0);
  std::vector<double> nqx(n), nqy(n), dx(n), dy(n), x(n);
  double tk = 1.0;
  for (int it = 0; it < settings.max_iterations; ++it) {
    std::copy(v, v + n, x.begin());
    addDifferenceAdjoint(rx.data(), ry.data(), nx, ny, -step, x.data());
    forwardDifferences(x.data(), nx, ny, dx.data(), dy.data());
    for (std::size_t p = 0; p < n; ++p) {
      const double m = maskOf(mask, p);
      const double huber = (delta > 0.0 && m > 0.0) ? step * delta / m : 0.0;
      nqx[p] = rx[p] + (step * dx[p] - huber * rx[p]) / lipschitz;
      nqy[p] = ry[p] + (step * dy[p] - huber * ry[p]) / lipschitz;
    }
    project(nqx, nqy, mask, settings.isotropic);
    const double tk1 = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * tk * tk));
    const double momentum = (tk - 1.0) / tk1;
    double change = 0.0;
    double norm = 0.0;
    for (std::size_t p = 0; p < n; ++p) {
      const double ddx = nqx[p] - qx[p];
      const double ddy = nqy[p] - qy[p];
      change += ddx * ddx + ddy * ddy;
      norm += nqx[p] * nqx[p] + nqy[p] * nqy[p];
      rx[p] = nqx[p] + momentum * ddx;
      ry[p] = nqy[p] + momentum * ddy;
    }
    qx.swap(nqx);
    qy.swap(nqy);
    tk = tk1;
    if (it > 0 && change <= settings.tolerance * settings.tolerance * std::max(norm, 1e-300))
      break;
  }
  std::copy(v, v + n, out);
  addDifferenceAdjoint(qx.data(), qy.data(), nx, ny, -step, out);
}

void proxQuadratic(const std::function<void(const double*, double*)>& gradient, std::size_t n,
                   const double* v, double step, double* out, double tolerance) {
  std::vector<double> r(n), p(n), ap(n);
  auto apply = [&](const double* in, double* result) {
    gradient(in, result);
    for (std::size_t i = 0; i < n; ++i)
      result[i] = in[i] + step * result[i];
  };
  std::copy(v, v + n, out);
  apply(out, ap.data());
  double vnorm = 0.0;
  double rr = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = v[i] - ap[i];
    p[i] = r[i];
    rr += r[i] * r[i];
    vnorm += v[i] * v[i];
  }
  const double target = tolerance * tolerance * std::max(vnorm, 1e-300);
  for (std::size_t it = 0; it < 10 * n + 10 && rr > target; ++it) {
    apply(p.data(), ap.data());
    double pap = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      pap += p[i] * ap[i];
    if (pap <= 0.0)
      break;
    const double alpha = rr / pap;
    double rr_new = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      out[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
      rr_new += r[i] * r[i];
    }
    const double beta = rr_new / rr;
    rr = rr_new;
    for (std::size_t i = 0; i < n; ++i)
      p[i] = r[i] + beta * p[i];
  }
}

}  // namespace apertura::rml
