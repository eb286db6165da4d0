#include "core/imaging/beam_fit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace apertura::imaging {

namespace {
const double kFwhmPerSigma = 2.0 * std::sqrt(2.0 * std::log(2.0));

// Solves the 3 x 3 system m x = r by Gaussian elimination with partial pivoting.
bool solve3(double m[3][3], double r[3], double x[3]) {
  for (int c = 0; c < 3; ++c) {
    int p = c;
    for (int i = c + 1; i < 3; ++i)
      if (std::abs(m[i][c]) > std::abs(m[p][c]))
        p = i;
    if (std::abs(m[p][c]) < 1e-300)
      return false;
    std::swap(m[c], m[p]);
    std::swap(r[c], r[p]);
    for (int i = c + 1; i < 3; ++i) {
      const double f = m[i][c] / m[c][c];
      for (int j = c; j < 3; ++j)
        m[i][j] -= f * m[c][j];
      r[i] -= f * r[c];
    }
  }
  for (int c = 2; c >= 0; --c) {
    double s = r[c];
    for (int j = c + 1; j < 3; ++j)
      s -= m[c][j] * x[j];
    x[c] = s / m[c][c];
  }
  return true;
}
}  // namespace

CleanBeam fitCleanBeam(const std::vector<float>& psf, const ImageGeometry& g) {
  if (psf.size() != g.numPixels())
    throw std::invalid_argument("fitCleanBeam: size mismatch");
  const std::size_t peak_index =
      std::size_t(std::max_element(psf.begin(), psf.end()) - psf.begin());
  const int px = int(peak_index % g.nx), py = int(peak_index / g.nx);
  const double peak = psf[peak_index];
  if (!(peak > 0.0))
    throw std::runtime_error("PSF has no positive peak to fit a beam to");

  // Main lobe: flood fill from the peak over pixels above half maximum.
  std::vector<char> in(psf.size(), 0);
  std::vector<std::size_t> stack{peak_index}, lobe;
  in[peak_index] = 1;
  while (!stack.empty()) {
    const std::size_t p = stack.back();
    stack.pop_back();
    lobe.push_back(p);
    const int x = int(p % g.nx), y = int(p / g.nx);
    const int nbr[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
    for (const auto& n : nbr) {
      if (n[0] < 0 || n[1] < 0 || n[0] >= g.nx || n[1] >= g.ny)
        continue;
      const std::size_t q = std::size_t(n[1]) * g.nx + n[0];
      if (!in[q] && psf[q] > 0.5 * peak) {
        in[q] = 1;
        stack.push_back(q);
      }
    }
  }
  // An undersampled beam leaves too few pixels: add the positive 3 x 3 neighbourhood.
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int x = px + dx, y = py + dy;
      if (x < 0 || y < 0 || x >= g.nx || y >= g.ny)
        continue;
      const std::size_t q = std::size_t(y) * g.nx + x;
      if (!in[q] && psf[q] > 0.0) {
        in[q] = 1;
        lobe.push_back(q);
      }
    }

  double m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, r[3] = {0, 0, 0}, sol[3] = {0, 0, 0};
  for (std::size_t p : lobe) {
    if (p == peak_index)
      continue;
    const double l = (int(p % g.nx) - px) * g.cell_l, mm = (int(p / g.nx) - py) * g.cell_m;
    const double v = psf[p] / peak;
    const double y = -2.0 * std::log(v), w = v * v;
    const double basis[3] = {l * l, 2.0 * l * mm, mm * mm};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j)
        m[i][j] += w * basis[i] * basis[j];
      r[i] += w * basis[i] * y;
    }
  }
  if (!solve3(m, r, sol))
    throw std::runtime_error("PSF main lobe too small to fit a beam");
  const double a = sol[0], b = sol[1], c = sol[2];
  const double mean = 0.5 * (a + c), diff = std::sqrt(0.25 * (a - c) * (a - c) + b * b);
  const double lmin = mean - diff, lmax = mean + diff;  // eigenvalues of the inverse covariance
  if (!(lmin > 0.0))
    throw std::runtime_error("PSF main lobe is not a peak (beam fit failed)");
  CleanBeam beam;
  beam.bmaj = kFwhmPerSigma / std::sqrt(lmin);
  beam.bmin = kFwhmPerSigma / std::sqrt(lmax);
  // Eigenvector of lmin (the major axis) in (l, m); PA east of north = atan2(l, m).
  // Two algebraically equivalent forms; the longer one is the numerically stable choice.
  double el = b, em = lmin - a;
  if (std::hypot(lmin - c, b) > std::hypot(el, em)) {
    el = lmin - c;
    em = b;
  }
  if (el == 0.0 && em == 0.0)
    em = 1.0;  // round beam: any PA
  double pa = std::atan2(el, em);
  while (pa > M_PI / 2)
    pa -= M_PI;
  while (pa <= -M_PI / 2)
    pa += M_PI;
  beam.bpa = pa;
  return beam;
}

std::vector<float> gaussianBeamImage(const CleanBeam& beam, const ImageGeometry& g) {
  std::vector<float> img(g.numPixels());
  const double s = std::sin(beam.bpa), c = std::cos(beam.bpa), k = 4.0 * std::log(2.0);
  for (int iy = 0; iy < g.ny; ++iy)
    for (int ix = 0; ix < g.nx; ++ix) {
      const double l = g.l(ix), m = g.m(iy);
      const double along = l * s + m * c, across = l * c - m * s;
      img[std::size_t(iy) * g.nx + ix] =
          float(std::exp(-k * (along * along / (beam.bmaj * beam.bmaj) +
                               across * across / (beam.bmin * beam.bmin))));
    }
  return img;
}

}  // namespace apertura::imaging
