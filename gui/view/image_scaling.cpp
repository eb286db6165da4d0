#include "gui/view/image_scaling.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace apertura::gui {

double stretchLevel(double t, const StretchParameters& p) {
  t = std::clamp(t, 0.0, 1.0);
  switch (p.kind) {
    case StretchKind::Linear:
    case StretchKind::HistogramEqualization:
      return t;
    case StretchKind::Log: {
      const double a = std::max(p.log_exponent, 1e-6);
      return std::log10(a * t + 1.0) / std::log10(a + 1.0);
    }
    case StretchKind::Sqrt:
      return std::sqrt(t);
    case StretchKind::Asinh: {
      const double b = std::max(p.asinh_softening, 1e-6);
      return std::asinh(b * t) / std::asinh(b);
    }
    case StretchKind::Power:
      return std::pow(t, std::max(p.power_exponent, 1e-6));
  }
  return t;
}

ValueRange finiteRange(const float* values, std::size_t count) {
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < count; ++i) {
    const float v = values[i];
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (lo > hi)
    return {};
  return {lo, hi};
}

std::vector<float> finiteSubsample(const float* values, std::size_t count, std::size_t max_count) {
  std::vector<float> out;
  // An odd stride keeps the sample from locking onto the same columns of power-of-two images.
  std::size_t stride = max_count > 0 ? (count + max_count - 1) / max_count : 1;
  if (stride > 1 && stride % 2 == 0)
    ++stride;
  stride = std::max<std::size_t>(stride, 1);
  out.reserve(count / stride + 1);
  for (std::size_t i = 0; i < count; i += stride) {
    if (std::isfinite(values[i]))
      out.push_back(values[i]);
  }
  return out;
}

double quantile(std::vector<float>& values, double q) {
  if (values.empty())
    return 0.0;
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto index = static_cast<std::size_t>(std::floor(position));
  const double fraction = position - static_cast<double>(index);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index),
                   values.end());
  const double below = values[index];
  if (fraction == 0.0 || index + 1 >= values.size())
    return below;
  // nth_element leaves everything larger after `index`: the next order statistic is their min.
  const double above =
      *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(index) + 1, values.end());
  return below + fraction * (above - below);
}

ValueRange percentileRange(std::vector<float>& values, double percent) {
  const double tail = (100.0 - std::clamp(percent, 0.0, 100.0)) / 200.0;
  ValueRange range{quantile(values, tail), quantile(values, 1.0 - tail)};
  if (!(range.max > range.min)) {
    const double pad = std::max(std::abs(range.min) * 1e-6, 1e-30);
    range = {range.min - pad, range.max + pad};
  }
  return range;
}

std::vector<std::size_t> histogramCounts(const float* values, std::size_t count, double lo,
                                         double hi, int bins) {
  std::vector<std::size_t> counts(static_cast<std::size_t>(std::max(bins, 1)), 0);
  if (!(hi > lo))
    return counts;
  const double scale = static_cast<double>(counts.size()) / (hi - lo);
  for (std::size_t i = 0; i < count; ++i) {
    const double v = values[i];
    if (!(v >= lo && v <= hi))  // also rejects NaN
      continue;
    const auto bin = std::min(static_cast<std::size_t>((v - lo) * scale), counts.size() - 1);
    ++counts[bin];
  }
  return counts;
}

std::vector<double> equalizationCurve(const float* values, std::size_t count, double lo, double hi,
                                      int bins) {
  const std::vector<std::size_t> counts = histogramCounts(values, count, lo, hi, bins);
  std::vector<double> curve(counts.size() + 1, 0.0);
  double total = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    total += static_cast<double>(counts[i]);
    curve[i + 1] = total;
  }
  for (double& c : curve)
    c = total > 0.0 ? c / total : 0.0;
  if (total == 0.0) {  // nothing in range: fall back to linear
    for (std::size_t i = 0; i < curve.size(); ++i)
      curve[i] = static_cast<double>(i) / static_cast<double>(curve.size() - 1);
  }
  return curve;
}

double applyCurve(const std::vector<double>& curve, double t) {
  if (curve.size() < 2)
    return std::clamp(t, 0.0, 1.0);
  const double position = std::clamp(t, 0.0, 1.0) * static_cast<double>(curve.size() - 1);
  const auto index = std::min(static_cast<std::size_t>(position), curve.size() - 2);
  const double fraction = position - static_cast<double>(index);
  return curve[index] + fraction * (curve[index + 1] - curve[index]);
}

}  // namespace apertura::gui
