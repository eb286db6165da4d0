#include "core/sim/predict.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "core/sim/disk_model.h"
#include "core/sim/image_predictor.h"

namespace apertura::sim {
namespace {

constexpr double kSpeedOfLight = 299792458.0;

// n - 1 without the cancellation of sqrt(1 - r^2) - 1 for small offsets.
double nMinusOne(double l, double m) {
  const double r2 = l * l + m * m;
  return -r2 / (1.0 + std::sqrt(std::max(0.0, 1.0 - r2)));
}

// Per component and channel: flux at that channel, and the position (l, m, n - 1).
struct Component {
  double l = 0.0, m = 0.0, n1 = 0.0;
};

std::vector<double> channelFluxes(double flux, double alpha, double f0,
                                  const std::vector<double>& freqs) {
  std::vector<double> out(freqs.size(), flux);
  if (alpha != 0.0) {
    for (std::size_t c = 0; c < freqs.size(); ++c)
      out[c] = flux * std::pow(freqs[c] / f0, alpha);
  }
  return out;
}

struct Prepared {
  std::vector<Component> components;  // points, then gaussians, then disks
  std::vector<double> flux;           // components x channels
  std::size_t n_points = 0, n_gaussians = 0;
  std::vector<double> gauss_a, gauss_b;  // exponent coefficients along major/minor axes
  std::vector<double> gauss_sin, gauss_cos;
  std::vector<DiskProfile> disks;
};

template <typename Src>
void addComponent(Prepared& p, const Src& s, double f0, const std::vector<double>& freqs) {
  p.components.push_back({s.l, s.m, nMinusOne(s.l, s.m)});
  const auto f = channelFluxes(s.flux_jy, s.spectral_index, f0, freqs);
  p.flux.insert(p.flux.end(), f.begin(), f.end());
}

Prepared prepare(const SkyModel& sky, const std::vector<double>& freqs) {
  Prepared p;
  const double f0 = sky.reference_frequency_hz;
  for (const auto& s : sky.points)
    addComponent(p, s, f0, freqs);
  for (const auto& g : sky.gaussians) {
    addComponent(p, g, f0, freqs);
    // FT of a Gaussian with FWHM theta along an axis: exp(-pi^2 theta^2 q^2 / (4 ln 2)).
    const double k = M_PI * M_PI / (4.0 * std::log(2.0));
    p.gauss_a.push_back(k * g.major_fwhm * g.major_fwhm);
    p.gauss_b.push_back(k * g.minor_fwhm * g.minor_fwhm);
    p.gauss_sin.push_back(std::sin(g.position_angle));
    p.gauss_cos.push_back(std::cos(g.position_angle));
  }
  for (const auto& d : sky.disks) {
    addComponent(p, d, f0, freqs);
    // Unit flux: the channel flux (with its spectral index) multiplies the shape.
    RingDiskSource unit = d;
    unit.flux_jy = 1.0;
    p.disks.push_back(makeDiskProfile(unit));
  }
  p.n_points = sky.points.size();
  p.n_gaussians = sky.gaussians.size();
  return p;
}

// Shape factor (visibility of the component centred on the phase centre) at (u, v) wavelengths.
double shape(const Prepared& p, std::size_t k, double u, double v) {
  if (k < p.n_points)
    return 1.0;
  if (k < p.n_points + p.n_gaussians) {
    const std::size_t g = k - p.n_points;
    // Major axis along (sin PA, cos PA) in (l, m); project (u, v) onto the two axes.
    const double u_major = u * p.gauss_sin[g] + v * p.gauss_cos[g];
    const double u_minor = u * p.gauss_cos[g] - v * p.gauss_sin[g];
    return std::exp(-(p.gauss_a[g] * u_major * u_major + p.gauss_b[g] * u_minor * u_minor));
  }
  return diskVisibility(p.disks[k - p.n_points - p.n_gaussians], u, v);
}

}  // namespace

void predictVisibilities(const SkyModel& sky, const double* uvw_m, std::size_t rows,
                         const std::vector<double>& freqs, std::complex<double>* out) {
  const Prepared p = prepare(sky, freqs);
  const std::size_t nchan = freqs.size();
  const std::size_t ncomp = p.components.size();
  std::vector<double> inv_lambda(nchan);
  for (std::size_t c = 0; c < nchan; ++c)
    inv_lambda[c] = freqs[c] / kSpeedOfLight;

  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 64), [&](const auto& range) {
    for (std::size_t r = range.begin(); r != range.end(); ++r) {
      const double u_m = uvw_m[3 * r], v_m = uvw_m[3 * r + 1], w_m = uvw_m[3 * r + 2];
      std::complex<double>* row = out + r * nchan;
      for (std::size_t c = 0; c < nchan; ++c)
        row[c] = 0.0;
      for (std::size_t k = 0; k < ncomp; ++k) {
        const Component& comp = p.components[k];
        // Geometric delay in metres; the phase per channel is -2 pi delay / lambda.
        const double delay_m = u_m * comp.l + v_m * comp.m + w_m * comp.n1;
        const double* flux = &p.flux[k * nchan];
        for (std::size_t c = 0; c < nchan; ++c) {
          const double phase = -2.0 * M_PI * delay_m * inv_lambda[c];
          double amp = flux[c];
          if (k >= p.n_points)
            amp *= shape(p, k, u_m * inv_lambda[c], v_m * inv_lambda[c]);
          row[c] += std::complex<double>(amp * std::cos(phase), amp * std::sin(phase));
        }
      }
    }
  });
  if (sky.fast_image)
    sky.fast_image->addVisibilities(uvw_m, rows, freqs, out);
}

}  // namespace apertura::sim
