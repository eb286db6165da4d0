#pragma once

#include <cstddef>
#include <vector>

#include "core/data/process_sum.h"
#include "core/data/visibility_chunk.h"

namespace apertura {

// Checks the visibility weights against the scatter of the visibilities themselves, so that a
// normalised objective (reduced chi-squared at the noise level) holds for weights that are only
// relative (WEIGHT columns scaled by an arbitrary factor, or duplicated by averaging tools).
//
// Pairs of samples that should see the same sky are differenced: adjacent channels of one row
// (disjoint pairs 0-1, 2-3, ...) when a chunk has several channels, else the same baseline's
// consecutive integrations (a row is paired with the previous row of its baseline at a different
// time; each row in one pair at most). With w = 1 / sigma^2 per real or imaginary part,
//   r = |V_i - V_j|^2 / (1 / w_i + 1 / w_j)
// is exponentially distributed with mean 2 s, where s is the true variance over the variance the
// weights claim; its median is 2 ln(2) s. The median (from a log-spaced histogram, summed over
// the processes of a distributed run) is robust to the sky's own change between the two samples
// and to a minority of outliers (RFI, edges of scans), which both raise r.
class NoiseScatter {
 public:
  NoiseScatter();
  void add(const VisibilityChunk& chunk);
  // Sums the histogram over processes (null: a single process).
  void sumOverProcesses(const SumOverProcesses& sum);

  std::size_t pairs() const;
  // Rows that repeat an earlier row of their chunk (same baseline and time): copies of the same
  // measurement, which the sum of weights counts as independent. Over every row seen.
  double duplicateFraction() const;
  // s: the factor by which the variances the weights claim must be multiplied to match the
  // scatter (the weights to use are w / s). 1 when fewer than kMinPairs pairs were found, or when
  // the median agrees with 1 within max(5 %, three standard errors); else rounded to two
  // significant digits (so it does not depend on how the rows were split).
  double weightScale() const;
  static constexpr std::size_t kMinPairs = 50;

 private:
  double medianScale() const;  // unrounded
  void addPair(std::complex<float> a, float wa, std::complex<float> b, float wb);
  std::vector<double> counts_;   // log10 r in bins, plus underflow and overflow at the ends
  double rows_[2] = {0.0, 0.0};  // rows seen, rows that duplicate another
};

}  // namespace apertura
