#include "core/pipeline/linear_spectrum.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/data/dataset_summary.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/rml/restore.h"
#include "core/util/input_error.h"
#include "core/util/number_text.h"

namespace apertura::pipeline {
namespace {

rml::SpectrumBand bandOf(const ImagingProducts& p) {
  return {p.band_edges_hz.at(0), p.band_edges_hz.at(1)};
}

}  // namespace

std::optional<rml::SpectrumBand> linearSpectrumBand(engine::RunContext& ctx, const RunData& data) {
  const project::ProjectSettings& s = ctx.settings();
  const project::MfsSpectrum choice = s.imaging.mfs_spectrum;
  const rml::SpectrumBand band{data.min_frequency_hz, data.max_frequency_hz};
  const double span = fractionalSpan(band.low_hz, band.high_hz);
  if (!project::wantsLinearSpectrum(s.imaging, span))
    return std::nullopt;
  if (!(band.high_hz > band.low_hz)) {  // linear on one frequency: nothing to fit a slope to
    ctx.observer().progress(0.0,
                            "imaging.mfs_spectrum linear: the imaged channels share one "
                            "frequency; the model's spectrum is flat");
    return std::nullopt;
  }
  const std::string why = project::linearSpectrumUnavailable(s.imaging, data.comm->deterministic());
  if (!why.empty()) {
    if (choice == project::MfsSpectrum::Linear)
      throw InputError("imaging.mfs_spectrum",
                       "linear cannot be combined with " + why + " yet (use flat)");
    const std::string w = "imaging.mfs_spectrum auto: the band spans " +
                          significantDigits(100.0 * span) +
                          " % of its frequency, but the linear spectrum is not available with " +
                          why + "; the model's spectrum is flat";
    ctx.observer().warning(w);
    return std::nullopt;
  }
  ctx.observer().progress(0.0, "MFS model with a linear spectrum: two planes, the sky at " +
                                   significantDigits(band.low_hz / 1e9) + " and " +
                                   significantDigits(band.high_hz / 1e9) + " GHz (the band spans " +
                                   significantDigits(100.0 * span) + " % of its frequency)");
  return band;
}

bool hasLinearSpectrum(const ImagingProducts& p, std::size_t values) {
  return p.band_edges_hz.size() == 2 && values == 2 * p.geometry.numPixels();
}

std::vector<double> skyAtImageFrequency(const ImagingProducts& p,
                                        const std::vector<double>& planes) {
  return rml::linearSpectrumImage(planes.data(), p.geometry.numPixels(), bandOf(p), p.frequency_hz);
}

std::vector<double> spectralIndexMap(const ImagingProducts& out) {
  const std::size_t npix = out.geometry.numPixels();
  if (out.band_model.size() != 2 * npix || out.restored.size() != npix)
    return {};
  const std::vector<double> zero(npix, 0.0);
  const std::vector<double> low(out.band_model.begin(),
                                out.band_model.begin() + std::ptrdiff_t(npix));
  const std::vector<double> high(out.band_model.begin() + std::ptrdiff_t(npix),
                                 out.band_model.end());
  const std::vector<double> s_low = rml::restoredImage(low, zero, out.geometry, out.beam);
  const std::vector<double> s_high = rml::restoredImage(high, zero, out.geometry, out.beam);
  const double log_ratio = std::log(out.band_edges_hz.at(1) / out.band_edges_hz.at(0));
  const double floor = kAlphaSignificance * out.residual_rms;
  std::vector<double> alpha(npix, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t p = 0; p < npix; ++p) {
    if (out.restored[p] > floor && s_low[p] > 0.0 && s_high[p] > 0.0)
      alpha[p] = std::log(s_high[p] / s_low[p]) / log_ratio;
  }
  return alpha;
}

void settleLinearSpectrum(ImagingProducts& out) {
  if (!hasLinearSpectrum(out, out.model.size()))
    return;
  out.band_model = std::move(out.model);
  out.model = skyAtImageFrequency(out, out.band_model);
  for (ImagingProducts::LambdaStep& step : out.lambda_path) {
    if (!hasLinearSpectrum(out, step.model.size()))
      continue;
    const std::vector<double> planes(step.model.begin(), step.model.end());
    const std::vector<double> sky = skyAtImageFrequency(out, planes);
    step.model.assign(sky.begin(), sky.end());
  }
}

}  // namespace apertura::pipeline
