#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace apertura::test {

// max |a - reference| / max |reference|: how far an image (a gradient, an iterate) is from the
// reference one, relative to the reference's largest value.
inline double maxRelativeDifference(const std::vector<double>& a,
                                    const std::vector<double>& reference) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t p = 0; p < a.size(); ++p) {
    diff = std::max(diff, std::abs(a[p] - reference[p]));
    scale = std::max(scale, std::abs(reference[p]));
  }
  return diff / scale;
}

// ||a - reference|| / ||reference||: the normalised RMS error of an image against a truth.
inline double nrmse(const std::vector<double>& a, const std::vector<double>& reference) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t p = 0; p < a.size(); ++p) {
    diff += (a[p] - reference[p]) * (a[p] - reference[p]);
    norm += reference[p] * reference[p];
  }
  return std::sqrt(diff / norm);
}

}  // namespace apertura::test
