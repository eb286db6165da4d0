#pragma once

// Internal to core/pipeline: the linear-spectrum MFS model (imaging.mfs_spectrum), whose two
// planes are the sky at the band's lowest and highest imaged frequency
// (rml/linear_spectrum_chi2_term.h).
#include <optional>
#include <vector>

#include "core/engine/run_context.h"
#include "core/pipeline/imaging_products.h"
#include "core/rml/linear_spectrum_chi2_term.h"

namespace apertura::pipeline {

struct RunData;

// The band of the run's linear-spectrum model, or none for a flat spectrum: mfs_spectrum linear,
// or auto on a band of at least project::kLinearSpectrumBand. auto falls back to flat, saying why,
// where the linear model is not available (w-stacking, the deterministic reduction); linear there
// is an InputError.
std::optional<rml::SpectrumBand> linearSpectrumBand(engine::RunContext& ctx, const RunData& data);

// Whether `values` values of p are a linear-spectrum model's two planes.
bool hasLinearSpectrum(const ImagingProducts& p, std::size_t values);
// The sky at p.frequency_hz of a linear-spectrum model's two planes.
std::vector<double> skyAtImageFrequency(const ImagingProducts& p,
                                        const std::vector<double>& planes);
// After the optimizer: out.model's two planes to out.band_model, the sky at frequency_hz in
// out.model, and every kept path model as that sky too.
void settleLinearSpectrum(ImagingProducts& out);
// The spectral index alpha (I ~ nu^alpha) between the band's ends at the restoring beam:
// ln(S_high / S_low) / ln(nu_high / nu_low), S the two planes convolved with the beam, where the
// restored image exceeds kAlphaSignificance times the residual's RMS and both ends are positive;
// NaN elsewhere. Empty for a flat spectrum. Needs out.restored and out.residual_rms.
constexpr double kAlphaSignificance = 5.0;
std::vector<double> spectralIndexMap(const ImagingProducts& out);

// settleLinearSpectrum when the optimizer's stage ends, however it ends.
struct LinearSpectrumSettler {
  ImagingProducts& out;
  LinearSpectrumSettler(const LinearSpectrumSettler&) = delete;
  LinearSpectrumSettler& operator=(const LinearSpectrumSettler&) = delete;
  ~LinearSpectrumSettler() { settleLinearSpectrum(out); }
};

}  // namespace apertura::pipeline
