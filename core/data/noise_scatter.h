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
// Samples that should see the same sky are differenced: adjacent channels of one row (disjoint
// pairs 0-1, 2-3, ...) when a chunk has several channels, else three consecutive integrations of
// one baseline (each row in one triplet at most), combined as c0 V0 + c1 V1 + c2 V2 with
// c0 + c1 + c2 = 0 and c0 t0 + c1 t1 + c2 t2 = 0 (V0 - 2 V1 + V2 for equal spacing), so that a
// sky changing linearly between integrations (a source off the phase centre, whose fringe turns
// with the Earth) cancels: on a bright sky at high SNR the first difference V1 - V0 is dominated
// by that change (2.8 times the noise variance on a simulated 1-channel observation of 4 Jy at
// 0.02 Jy noise). With w = 1 / sigma^2 per real or imaginary part,
//   r = |sum_k c_k V_k|^2 / sum_k (c_k^2 / w_k)
// is exponentially distributed with mean 2 s, where s is the true variance over the variance the
// weights claim; its median is 2 ln(2) s. The median (from a log-spaced histogram, summed over
// the processes of a distributed run) is robust to what is left of the sky's own change and to a
// minority of outliers (RFI, edges of scans), which both raise r.
class NoiseScatter {
 public:
  NoiseScatter();
  void add(const VisibilityChunk& chunk);
  // Sums the histogram over processes (null: a single process).
  void sumOverProcesses(const SumOverProcesses& sum);

  // The differences taken (pairs of channels or triplets of integrations).
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
  void addDifference(std::complex<double> difference, double variance);
  void addPair(std::complex<float> a, float wa, std::complex<float> b, float wb);
  void addTriplet(const VisibilityChunk& chunk, const std::size_t (&rows)[3]);
  std::vector<double> counts_;   // log10 r in bins, plus underflow and overflow at the ends
  double rows_[2] = {0.0, 0.0};  // rows seen, rows that duplicate another
};

}  // namespace apertura
