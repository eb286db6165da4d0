#include "core/pipeline/read_totals.h"

#include <algorithm>

#include "core/data/uv_extent.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {

void ReadTotals::add(const VisibilityChunk& chunk, double channel_width_hz,
                     const std::string& path) {
  rows += chunk.num_rows();
  if (chunks++ == 0)
    first_field = chunk.field_id;
  longest_baseline_m = std::max(longest_baseline_m, longestBaselineMetres(chunk));
  const double half_width = 0.5 * channel_width_hz;
  for (double f : chunk.frequencies_hz) {
    min_frequency_hz = std::min(min_frequency_hz, f);
    max_frequency_hz = std::max(max_frequency_hz, f);
    band_low_hz = std::min(band_low_hz, f - half_width);
    band_high_hz = std::max(band_high_hz, f + half_width);
    frequency_sum_hz += f;
    ++frequencies;
  }
  double chunk_weights = 0.0;
  for (float w : chunk.weights) {
    if (!(w >= 0.0f))
      throw InputError(path, "a visibility weight is negative or NaN; expected >= 0");
    weighted.valid_samples += w > 0.0f ? 1 : 0;
    weighted.sum_weights += w;
    chunk_weights += w;
  }
  chunk_weight_sums.push_back(chunk_weights);
  samples += chunk.num_samples();
  for (double t : chunk.time_mjd_s) {
    if (start_time_mjd_s == 0.0 || t < start_time_mjd_s)
      start_time_mjd_s = t;
  }
}

void ReadTotals::sumOverRanks(engine::Communicator& comm) {
  double sums[7] = {
      double(rows),         double(chunks),   double(samples),    double(weighted.valid_samples),
      weighted.sum_weights, frequency_sum_hz, double(frequencies)};
  comm.sum(sums, 7);
  rows = std::size_t(sums[0]);
  chunks = std::size_t(sums[1]);
  samples = std::size_t(sums[2]);
  weighted = {std::size_t(sums[3]), sums[4]};
  frequency_sum_hz = sums[5];
  frequencies = std::size_t(sums[6]);
  longest_baseline_m = maxOverRanks(comm, longest_baseline_m);
  max_frequency_hz = maxOverRanks(comm, max_frequency_hz);
  min_frequency_hz = -maxOverRanks(comm, -min_frequency_hz);
  band_high_hz = maxOverRanks(comm, band_high_hz);
  band_low_hz = -maxOverRanks(comm, -band_low_hz);
  const double start = start_time_mjd_s > 0.0 ? start_time_mjd_s : INFINITY;
  start_time_mjd_s = -maxOverRanks(comm, -start);
}

double maxOverRanks(engine::Communicator& comm, double value) {
  std::vector<double> slots(std::size_t(comm.size()), 0.0);
  slots[std::size_t(comm.rank())] = value;
  comm.sum(slots.data(), slots.size());
  return *std::max_element(slots.begin(), slots.end());
}

}  // namespace apertura::pipeline
