#include "core/sim/image_sky.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/sim/disk_model.h"
#include "core/util/input_error.h"

namespace apertura::sim {
namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

double gaussianBrightness(const GaussianSource& g, double dl, double dm) {
  const double k = 1.0 / (2.0 * std::sqrt(2.0 * std::log(2.0)));
  const double sa = g.major_fwhm * k, sb = g.minor_fwhm * k;
  const double s = std::sin(g.position_angle), c = std::cos(g.position_angle);
  const double x = dl * s + dm * c, y = dl * c - dm * s;
  return g.flux_jy / (2.0 * M_PI * sa * sb) *
         std::exp(-0.5 * (x * x / (sa * sa) + y * y / (sb * sb)));
}

}  // namespace

void directionCosines(double ra, double dec, double ra0, double dec0, double& l, double& m) {
  const double dra = ra - ra0;
  l = std::cos(dec) * std::sin(dra);
  m = std::sin(dec) * std::cos(dec0) - std::cos(dec) * std::sin(dec0) * std::cos(dra);
}

void requireJyPerPixel(const FitsImage& img) {
  const std::string unit = upper(img.bunit);
  if (unit != "JY/PIXEL" && unit != "JY/PIX") {
    throw InputError("sky image",
                     "BUNIT is '" + img.bunit + "'; a sky model image must be in JY/PIXEL");
  }
}

std::vector<PointSource> imageToPointSources(const FitsImage& img, double ra0, double dec0) {
  requireJyPerPixel(img);
  std::vector<double> xy;
  std::vector<double> flux;
  for (int y = 0; y < img.ny; ++y) {
    for (int x = 0; x < img.nx; ++x) {
      const double v = img.at(x, y);
      if (v == 0.0 || std::isnan(v))
        continue;
      xy.push_back(x);
      xy.push_back(y);
      flux.push_back(v);
    }
  }
  const std::vector<double> world = fitsPixelsToWorld(img, xy);
  std::vector<PointSource> out(flux.size());
  for (std::size_t i = 0; i < flux.size(); ++i) {
    out[i].flux_jy = flux[i];
    directionCosines(world[2 * i], world[2 * i + 1], ra0, dec0, out[i].l, out[i].m);
  }
  return out;
}

FitsImage renderSkyImage(const SkyModel& sky, int n, double cell, double ra, double dec,
                         double frequency_hz, int supersample) {
  FitsImage img;
  img.nx = img.ny = n;
  img.pixels.assign(static_cast<std::size_t>(n) * n, 0.0);
  img.cell_x_rad = -cell;
  img.cell_y_rad = cell;
  img.ref_pixel_x = img.ref_pixel_y = n / 2;
  img.ref_ra_rad = ra;
  img.ref_dec_rad = dec;
  img.frequency_hz = frequency_hz;
  img.bunit = "JY/PIXEL";
  const double f0 = sky.reference_frequency_hz;
  auto scale = [&](double alpha) {
    return alpha == 0.0 || frequency_hz <= 0.0 ? 1.0 : std::pow(frequency_hz / f0, alpha);
  };
  // l = -cell (x - ref) is east-positive because RA grows to the left.
  for (const auto& p : sky.points) {
    const int x = static_cast<int>(std::lround(img.ref_pixel_x + p.l / img.cell_x_rad));
    const int y = static_cast<int>(std::lround(img.ref_pixel_y + p.m / img.cell_y_rad));
    if (x >= 0 && x < n && y >= 0 && y < n)
      img.pixels[static_cast<std::size_t>(y) * n + x] += p.flux_jy * scale(p.spectral_index);
  }
  std::vector<DiskProfile> disks;
  for (const auto& d : sky.disks)
    disks.push_back(makeDiskProfile(d));
  const double sub = 1.0 / supersample;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      double sum = 0.0;
      for (int sy = 0; sy < supersample; ++sy) {
        for (int sx = 0; sx < supersample; ++sx) {
          const double l = img.cell_x_rad * (x - img.ref_pixel_x - 0.5 + (sx + 0.5) * sub);
          const double m = img.cell_y_rad * (y - img.ref_pixel_y - 0.5 + (sy + 0.5) * sub);
          for (const auto& g : sky.gaussians) {
            sum += gaussianBrightness(g, l - g.l, m - g.m) * scale(g.spectral_index);
          }
          for (std::size_t k = 0; k < disks.size(); ++k) {
            const auto& d = sky.disks[k];
            sum += diskBrightness(disks[k], l - d.l, m - d.m) * scale(d.spectral_index);
          }
        }
      }
      img.pixels[static_cast<std::size_t>(y) * n + x] += sum * sub * sub * cell * cell;
    }
  }
  return img;
}

}  // namespace apertura::sim
