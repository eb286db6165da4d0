#pragma once

#include <cstddef>
#include <vector>

// Pure functions that turn pixel values into display levels: clipping ranges and the stretch
// curves of DS9/CARTA. Kept free of Qt and widgets so that each can be checked numerically.
namespace apertura::gui {

enum class StretchKind { Linear, Log, Sqrt, Asinh, Power, HistogramEqualization };

struct StretchParameters {
  StretchKind kind = StretchKind::Linear;
  double power_exponent = 2.0;    // Power: y = t^exponent
  double log_exponent = 1000.0;   // Log: y = log10(a t + 1) / log10(a + 1), DS9's a
  double asinh_softening = 10.0;  // Asinh: y = asinh(b t) / asinh(b); linear below t ~ 1/b
};

// Maps a normalised value t in [0, 1] (0 at the clip minimum, 1 at the maximum) to a display level
// in [0, 1]. Values outside [0, 1] are clamped. HistogramEqualization needs the data, so here it
// is the identity: use equalizationCurve() for it.
double stretchLevel(double t, const StretchParameters& parameters);

struct ValueRange {
  double min = 0.0;
  double max = 0.0;
  bool valid() const { return max > min; }
};

// Smallest and largest finite values (NaN blanks are skipped); {0, 0} when none is finite.
ValueRange finiteRange(const float* values, std::size_t count);

// Up to `max_count` finite values drawn on an even stride through the data (all of them when
// there are fewer), for statistics on large images.
std::vector<float> finiteSubsample(const float* values, std::size_t count, std::size_t max_count);

// The q-quantile (q in [0, 1]) with linear interpolation between order statistics, computed with
// std::nth_element; `values` is reordered. Returns 0 for an empty vector.
double quantile(std::vector<float>& values, double q);

// The central `percent` % of the values (CARTA's "99.5 %": from the 0.25 % to the 99.75 %
// quantile). `values` is reordered. A degenerate range is widened so that max > min.
ValueRange percentileRange(std::vector<float>& values, double percent);

// Counts of values in `bins` equal bins over [lo, hi]; values outside are not counted, NaN neither.
std::vector<std::size_t> histogramCounts(const float* values, std::size_t count, double lo,
                                         double hi, int bins);

// Histogram equalisation: the cumulative distribution of `values` over [lo, hi] at bins + 1 equal
// edges, from 0 to 1. Display level = applyCurve(curve, t) makes the levels ~uniformly used.
std::vector<double> equalizationCurve(const float* values, std::size_t count, double lo, double hi,
                                      int bins);
double applyCurve(const std::vector<double>& curve, double t);

}  // namespace apertura::gui
