#pragma once

#include <memory>

#include "core/data/chunk_sequence.h"
#include "core/data/process_sum.h"
#include "core/imaging/imaging_operator.h"
#include "core/rml/data_term.h"

namespace apertura::rml {

// The band a linear-spectrum model spans: its two planes are the sky at `low_hz` and `high_hz`.
struct SpectrumBand {
  double low_hz = 0.0;
  double high_hz = 0.0;
  // Where frequency_hz lies between the two planes: 0 at low_hz, 1 at high_hz (0 for an empty
  // band, where both planes are the same frequency's).
  double position(double frequency_hz) const {
    return high_hz > low_hz ? (frequency_hz - low_hz) / (high_hz - low_hz) : 0.0;
  }
};

// The chi-squared of an MFS model whose brightness is linear in frequency across the band (as
// nterms 2 in CASA or WSClean's fitted spectral polynomial of two terms), parametrised by the
// sky at the band's two ends: a sample at frequency nu sees
//   I(nu) = (1 - t) I_low + t I_high,   t = band.position(nu),
// so chi2 = sum_k w_k |A ((1 - t_k) I_low + t_k I_high) - V_k|^2. The parameters are the two
// planes [I_low, I_high] (numPixels() is twice the image's pixels). Unlike a Taylor slope, both
// planes are brightnesses: positivity keeps each >= 0 and with it the sky at every frequency
// between them. Each operator holds one plane's model grid and gathers that plane's gradient,
// so an evaluation is one pass over the chunks with two degriddings and two griddings per chunk.
// Sums are plain (no exact per-chunk reduction); `sum` adds them over processes. The operators
// (same geometry and settings) and the chunks must outlive the term.
std::shared_ptr<DataTerm> makeLinearSpectrumChi2Term(imaging::ImagingOperator<float>& low,
                                                     imaging::ImagingOperator<float>& high,
                                                     ChunkSequence& chunks, SpectrumBand band,
                                                     DataTotals totals,
                                                     SumOverProcesses sum = nullptr);
std::shared_ptr<DataTerm> makeLinearSpectrumChi2Term(imaging::ImagingOperator<double>& low,
                                                     imaging::ImagingOperator<double>& high,
                                                     ChunkSequence& chunks, SpectrumBand band,
                                                     DataTotals totals,
                                                     SumOverProcesses sum = nullptr);

// The sky at `frequency_hz` of a linear-spectrum model [I_low, I_high] of num_pixels each.
std::vector<double> linearSpectrumImage(const double* planes, std::size_t num_pixels,
                                        SpectrumBand band, double frequency_hz);

}  // namespace apertura::rml
