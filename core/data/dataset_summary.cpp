#include "core/data/dataset_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data/uv_extent.h"

namespace apertura {
namespace {

constexpr double kSpeedOfLight = 299792458.0;

// Smallest even n >= x whose only prime factors are 2, 3 and 5 (fast FFT sizes).
int fftFriendlyEven(double x) {
  for (int n = std::max(2, static_cast<int>(std::ceil(x))); n < (1 << 30); ++n) {
    if (n % 2 != 0)
      continue;
    int m = n;
    for (int p : {2, 3, 5}) {
      while (m % p == 0)
        m /= p;
    }
    if (m == 1)
      return n;
  }
  return 1 << 30;
}

}  // namespace

double DatasetSummary::maxFrequencyHz() const {
  double f = 0.0;
  for (const auto& spw : spectral_windows) {
    f = std::max({f, spw.first_channel_hz, spw.last_channel_hz});
  }
  return f;
}

double DatasetSummary::minFrequencyHz() const {
  double f = std::numeric_limits<double>::infinity();
  for (const auto& spw : spectral_windows) {
    for (double hz : {spw.first_channel_hz, spw.last_channel_hz}) {
      if (hz > 0.0)
        f = std::min(f, hz);
    }
  }
  return std::isfinite(f) ? f : 0.0;
}

double fractionalBandwidth(const std::vector<SpectralWindowInfo>& windows,
                           const std::vector<int>& selected) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (const auto& spw : windows) {
    if (!selected.empty() && std::find(selected.begin(), selected.end(), spw.id) == selected.end())
      continue;
    for (double hz : {spw.first_channel_hz, spw.last_channel_hz}) {
      if (hz > 0.0) {
        lo = std::min(lo, hz);
        hi = std::max(hi, hz);
      }
    }
  }
  return std::isfinite(lo) ? fractionalSpan(lo, hi) : 0.0;
}

void deriveImagingSuggestions(DatasetSummary& s) {
  const double fmax = s.maxFrequencyHz();
  const double fmin = s.minFrequencyHz();
  s.min_baseline_wavelengths = s.min_baseline_m * fmin / kSpeedOfLight;
  s.max_baseline_wavelengths = s.max_baseline_m * fmax / kSpeedOfLight;
  s.suggested_cell_rad = 0.0;
  s.primary_beam_fwhm_rad = 0.0;
  s.suggested_image_size = 0;
  s.image_size_capped = false;
  if (s.max_baseline_wavelengths <= 0.0)
    return;
  s.suggested_cell_rad = suggestedCellRad(s.max_baseline_wavelengths);
  if (s.dish_diameter_m <= 0.0 || fmin <= 0.0)
    return;
  s.primary_beam_fwhm_rad = 1.13 * (kSpeedOfLight / fmin) / s.dish_diameter_m;
  const double cells = 2.0 * s.primary_beam_fwhm_rad / s.suggested_cell_rad;
  if (cells > DatasetSummary::kMaxSuggestedImageSize) {
    s.suggested_image_size = DatasetSummary::kMaxSuggestedImageSize;
    s.image_size_capped = true;
  } else {
    s.suggested_image_size = fftFriendlyEven(cells);
  }
}

}  // namespace apertura
