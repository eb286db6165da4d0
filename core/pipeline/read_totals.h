#pragma once

// Internal to core/pipeline: what the read stage counts over the chunks it reads, per rank, and
// the same summed over the ranks of a distributed run.
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "core/data/visibility_chunk.h"
#include "core/engine/communicator.h"
#include "core/rml/data_term.h"

namespace apertura::pipeline {

struct ReadTotals {
  std::size_t rows = 0;
  std::size_t chunks = 0;
  std::size_t samples = 0;                // every sample, flagged or not
  rml::DataTotals weighted;               // samples with w > 0 and the sum of their weights
  std::vector<double> chunk_weight_sums;  // per chunk, for the deterministic reduction's sum
  int first_field = -1;                   // the first chunk's field
  double longest_baseline_m = 0.0;
  double min_frequency_hz = INFINITY, max_frequency_hz = 0.0;
  double band_low_hz = INFINITY, band_high_hz = 0.0;  // channel centres -/+ half their width
  double frequency_sum_hz = 0.0;                      // over every channel of every chunk
  std::size_t frequencies = 0;
  double start_time_mjd_s = 0.0;  // 0: none read yet

  // Counts `chunk`, whose channels are `channel_width_hz` wide. A negative or NaN weight is an
  // InputError naming `path`.
  void add(const VisibilityChunk& chunk, double channel_width_hz, const std::string& path);
  // Every rank's totals, summed (or the extreme taken) on every rank. chunk_weight_sums stay
  // this rank's (ExactSum::total sums them exactly over the ranks).
  void sumOverRanks(engine::Communicator& comm);
  double meanFrequencyHz() const {
    return frequencies > 0 ? frequency_sum_hz / double(frequencies) : 0.0;
  }
};

// The largest value over the ranks, through sums: each rank fills its own slot.
double maxOverRanks(engine::Communicator& comm, double value);

}  // namespace apertura::pipeline
