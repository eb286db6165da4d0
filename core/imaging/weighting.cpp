#include "core/imaging/weighting.h"

#include <cmath>
#include <sstream>

#include "core/util/input_error.h"

namespace apertura::imaging {

WeightingSettings WeightingSettings::parse(const std::string& text) {
  WeightingSettings w;
  if (const auto scheme = parseChoice<WeightingScheme>(text)) {
    w.scheme = *scheme;
    return w;
  }
  if (text.rfind("briggs:", 0) == 0) {
    w.scheme = WeightingScheme::Briggs;
    std::size_t used = 0;
    try {
      w.robust = std::stod(text.substr(7), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || 7 + used != text.size())
      throw InputError("weighting", "'" + text + "': expected briggs:R with a number R");
    if (w.robust < -2.0 || w.robust > 2.0)
      throw InputError("weighting", "'" + text + "': the robust parameter must be in -2 .. 2");
    return w;
  }
  throw InputError("weighting",
                   "'" + text + "': expected " + choiceList<WeightingScheme>() + " or briggs:R");
}

std::string WeightingSettings::describe() const {
  std::ostringstream o;
  o << choiceName(scheme);
  if (scheme == WeightingScheme::Briggs)
    o << ":" << robust;
  if (super_uniform != 1.0)
    o << " super_uniform=" << super_uniform;
  if (taper_fwhm_arcsec)
    o << " taper=" << *taper_fwhm_arcsec << "arcsec";
  if (taper_fwhm_lambda)
    o << " taper=" << *taper_fwhm_lambda << "lambda";
  return o.str();
}

namespace {

template <typename F>
void forEachSample(const UvwBlock& blk, F f) {
  for (std::size_t r = 0; r < blk.num_rows; ++r)
    for (std::size_t c = 0; c < blk.num_channels; ++c) {
      const double k = blk.frequencies_hz[c] / kSpeedOfLight;
      f(r * blk.num_channels + c, blk.uvw_m[3 * r] * k, blk.uvw_m[3 * r + 1] * k);
    }
}

}  // namespace

// The density grid: nu x nv cells of du x dv wavelengths, periodic (as the image's uv plane is).
ImagingWeighter::ImagingWeighter(const ImageGeometry& g, const WeightingSettings& s)
    : settings_(s) {
  if (!(s.super_uniform > 0.0))
    throw InputError("weighting", "the super-uniform factor must be positive");
  gridded_ = s.scheme == WeightingScheme::Uniform || s.scheme == WeightingScheme::Briggs;
  if (gridded_) {
    nu_ = std::max(1, int(std::ceil(g.nx / s.super_uniform)));
    nv_ = std::max(1, int(std::ceil(g.ny / s.super_uniform)));
    du_ = s.super_uniform / (g.nx * std::abs(g.cell_l));
    dv_ = s.super_uniform / (g.ny * std::abs(g.cell_m));
    density_.assign(std::size_t(nu_) * nv_, 0.0);
  }
  if (s.taper_fwhm_arcsec) {
    const double theta = *s.taper_fwhm_arcsec * M_PI / 180.0 / 3600.0;
    taper_k_ = M_PI * M_PI * theta * theta / (4.0 * std::log(2.0));
  } else if (s.taper_fwhm_lambda) {
    taper_k_ = 4.0 * std::log(2.0) / (*s.taper_fwhm_lambda * *s.taper_fwhm_lambda);
  }
}

// A sample and its conjugate (-u, -v) are one measurement, so both fold onto the upper half
// plane and share a cell. Cells span [k du, (k + 1) du), the convention of WSClean's weighting
// grid: with the same weighting field of view, uniform weights match WSClean's sample by sample
// (test_wsclean_agreement) once its rank filter is off (`-weighting-rank-filter 0`; by default
// WSClean also clips weights above 3 times their local mean, which plain uniform weighting does
// not do).
std::size_t ImagingWeighter::cell(double u, double v) const {
  if (v < 0.0 || (v == 0.0 && u < 0.0)) {
    u = -u;
    v = -v;
  }
  long iu = long(std::floor(u / du_)) % nu_, iv = long(std::floor(v / dv_)) % nv_;
  if (iu < 0)
    iu += nu_;
  if (iv < 0)
    iv += nv_;
  return std::size_t(iv) * nu_ + std::size_t(iu);
}

void ImagingWeighter::addDensity(const UvwBlock& block, const float* data_weights) {
  if (!gridded_)
    return;
  forEachSample(block, [&](std::size_t k, double u, double v) {
    density_[cell(u, v)] += data_weights ? double(data_weights[k]) : 1.0;
  });
}

void ImagingWeighter::finishDensity() {
  if (settings_.scheme != WeightingScheme::Briggs)
    return;
  double sum_d2 = 0.0, sum_d = 0.0;
  for (double d : density_) {
    sum_d2 += d * d;
    sum_d += d;
  }
  const double r = 5.0 * std::pow(10.0, -settings_.robust);
  f2_ = sum_d2 > 0.0 ? r * r / (sum_d2 / sum_d) : 0.0;
}

void ImagingWeighter::weights(const UvwBlock& block, const float* data_weights, float* out) const {
  forEachSample(block, [&](std::size_t k, double u, double v) {
    const double w = data_weights ? double(data_weights[k]) : 1.0;
    double iw = w;
    switch (settings_.scheme) {
      case WeightingScheme::Natural:
        break;
      case WeightingScheme::Radial:
        iw = w * std::sqrt(u * u + v * v);
        break;
      case WeightingScheme::Uniform: {
        const double d = density_[cell(u, v)];
        iw = d > 0.0 ? w / d : 0.0;
        break;
      }
      case WeightingScheme::Briggs:
        iw = w / (1.0 + density_[cell(u, v)] * f2_);
        break;
    }
    if (taper_k_ > 0.0)
      iw *= std::exp(-taper_k_ * (u * u + v * v));
    out[k] = float(iw);
  });
}

std::vector<std::vector<float>> imagingWeights(const std::vector<UvwBlock>& blocks,
                                               const std::vector<const float*>& data_weights,
                                               const ImageGeometry& g, const WeightingSettings& s) {
  if (data_weights.size() != blocks.size())
    throw std::invalid_argument("imagingWeights: one weight pointer (or null) per block expected");
  ImagingWeighter weighter(g, s);
  for (std::size_t b = 0; b < blocks.size(); ++b)
    weighter.addDensity(blocks[b], data_weights[b]);
  weighter.finishDensity();
  std::vector<std::vector<float>> out(blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    out[b].resize(blocks[b].numSamples());
    weighter.weights(blocks[b], data_weights[b], out[b].data());
  }
  return out;
}

}  // namespace apertura::imaging

namespace apertura {

template <>
const std::vector<ChoiceName<imaging::WeightingScheme>>& choiceTable<imaging::WeightingScheme>() {
  using imaging::WeightingScheme;
  static const std::vector<ChoiceName<WeightingScheme>> t = {{WeightingScheme::Natural, "natural"},
                                                             {WeightingScheme::Uniform, "uniform"},
                                                             {WeightingScheme::Briggs, "briggs"},
                                                             {WeightingScheme::Radial, "radial"}};
  return t;
}

}  // namespace apertura
