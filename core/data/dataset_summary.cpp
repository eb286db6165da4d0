#include "core/data/dataset_summary.h"

#include <algorithm>

namespace apertura {

double DatasetSummary::maxFrequencyHz() const {
  double f = 0.0;
  for (const auto& spw : spectral_windows) {
    f = std::max({f, spw.first_channel_hz, spw.last_channel_hz});
  }
  return f;
}

}  // namespace apertura
