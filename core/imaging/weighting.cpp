#include "core/imaging/weighting.h"

#include <cmath>
#include <sstream>

#include "core/util/input_error.h"

namespace apertura::imaging {

WeightingSettings WeightingSettings::parse(const std::string& text) {
  WeightingSettings w;
  if (text == "natural")
    return w;
  if (text == "uniform") {
    w.scheme = WeightingScheme::Uniform;
    return w;
  }
  if (text == "radial") {
    w.scheme = WeightingScheme::Radial;
    return w;
  }
  if (text.rfind("briggs", 0) == 0) {
    w.scheme = WeightingScheme::Briggs;
    if (text.size() > 6) {
      std::size_t used = 0;
      try {
        if (text[6] != ':')
          throw std::invalid_argument("");
        w.robust = std::stod(text.substr(7), &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || 7 + used != text.size())
        throw InputError("weighting", "'" + text + "': expected briggs:R with a number R");
      if (w.robust < -2.0 || w.robust > 2.0)
        throw InputError("weighting", "'" + text + "': the robust parameter must be in -2 .. 2");
    }
    return w;
  }
  throw InputError("weighting",
                   "'" + text + "': expected natural, uniform, radial, briggs or briggs:R");
}

std::string WeightingSettings::describe() const {
  std::ostringstream o;
  switch (scheme) {
    case WeightingScheme::Natural:
      o << "natural";
      break;
    case WeightingScheme::Uniform:
      o << "uniform";
      break;
    case WeightingScheme::Radial:
      o << "radial";
      break;
    case WeightingScheme::Briggs:
      o << "briggs:" << robust;
      break;
  }
  if (super_uniform != 1.0)
    o << " super_uniform=" << super_uniform;
  if (taper_fwhm_arcsec)
    o << " taper=" << *taper_fwhm_arcsec << "arcsec";
  if (taper_fwhm_lambda)
    o << " taper=" << *taper_fwhm_lambda << "lambda";
  return o.str();
}

namespace {

// The density grid: nu x nv cells of du x dv wavelengths, periodic (as the image's uv plane is).
struct DensityGrid {
  int nu = 0, nv = 0;
  double du = 1, dv = 1;
  std::vector<double> d;
  // A sample and its conjugate (-u, -v) are one measurement, so both fold onto the upper half
  // plane and share a cell. Cells span [k du, (k + 1) du), the convention of WSClean's weighting
  // grid: with the same weighting field of view, uniform and Briggs weights match WSClean's.
  std::size_t cell(double u, double v) const {
    if (v < 0.0 || (v == 0.0 && u < 0.0)) {
      u = -u;
      v = -v;
    }
    long iu = long(std::floor(u / du)) % nu, iv = long(std::floor(v / dv)) % nv;
    if (iu < 0)
      iu += nu;
    if (iv < 0)
      iv += nv;
    return std::size_t(iv) * nu + std::size_t(iu);
  }
};

template <typename F>
void forEachSample(const std::vector<UvwBlock>& blocks, F f) {
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const UvwBlock& blk = blocks[b];
    for (std::size_t r = 0; r < blk.num_rows; ++r)
      for (std::size_t c = 0; c < blk.num_channels; ++c) {
        const double k = blk.frequencies_hz[c] / kSpeedOfLight;
        f(b, r * blk.num_channels + c, blk.uvw_m[3 * r] * k, blk.uvw_m[3 * r + 1] * k);
      }
  }
}

}  // namespace

std::vector<std::vector<float>> imagingWeights(const std::vector<UvwBlock>& blocks,
                                               const std::vector<const float*>& data_weights,
                                               const ImageGeometry& g, const WeightingSettings& s) {
  if (data_weights.size() != blocks.size())
    throw std::invalid_argument("imagingWeights: one weight pointer (or null) per block expected");
  if (!(s.super_uniform > 0.0))
    throw InputError("weighting", "the super-uniform factor must be positive");
  std::vector<std::vector<float>> out(blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b)
    out[b].assign(blocks[b].numSamples(), 1.0f);
  auto dataWeight = [&](std::size_t b, std::size_t k) {
    return data_weights[b] ? double(data_weights[b][k]) : 1.0;
  };

  const bool gridded = s.scheme == WeightingScheme::Uniform || s.scheme == WeightingScheme::Briggs;
  DensityGrid grid;
  double f2 = 0.0;
  if (gridded) {
    grid.nu = std::max(1, int(std::ceil(g.nx / s.super_uniform)));
    grid.nv = std::max(1, int(std::ceil(g.ny / s.super_uniform)));
    grid.du = s.super_uniform / (g.nx * std::abs(g.cell_l));
    grid.dv = s.super_uniform / (g.ny * std::abs(g.cell_m));
    grid.d.assign(std::size_t(grid.nu) * grid.nv, 0.0);
    forEachSample(blocks, [&](std::size_t b, std::size_t k, double u, double v) {
      const double w = dataWeight(b, k);
      grid.d[grid.cell(u, v)] += w;
    });
    if (s.scheme == WeightingScheme::Briggs) {
      double sum_d2 = 0.0, sum_d = 0.0;
      for (double d : grid.d) {
        sum_d2 += d * d;
        sum_d += d;
      }
      const double r = 5.0 * std::pow(10.0, -s.robust);
      f2 = sum_d2 > 0.0 ? r * r / (sum_d2 / sum_d) : 0.0;
    }
  }
  double taper_k = 0.0;  // weight *= exp(-taper_k * (u^2 + v^2))
  if (s.taper_fwhm_arcsec) {
    const double theta = *s.taper_fwhm_arcsec * M_PI / 180.0 / 3600.0;
    taper_k = M_PI * M_PI * theta * theta / (4.0 * std::log(2.0));
  } else if (s.taper_fwhm_lambda) {
    taper_k = 4.0 * std::log(2.0) / (*s.taper_fwhm_lambda * *s.taper_fwhm_lambda);
  }
  forEachSample(blocks, [&](std::size_t b, std::size_t k, double u, double v) {
    const double w = dataWeight(b, k);
    double iw = w;
    switch (s.scheme) {
      case WeightingScheme::Natural:
        break;
      case WeightingScheme::Radial:
        iw = w * std::sqrt(u * u + v * v);
        break;
      case WeightingScheme::Uniform: {
        const double d = grid.d[grid.cell(u, v)];
        iw = d > 0.0 ? w / d : 0.0;
        break;
      }
      case WeightingScheme::Briggs:
        iw = w / (1.0 + grid.d[grid.cell(u, v)] * f2);
        break;
    }
    if (taper_k > 0.0)
      iw *= std::exp(-taper_k * (u * u + v * v));
    out[b][k] = float(iw);
  });
  return out;
}

}  // namespace apertura::imaging
