#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/data/process_sum.h"

namespace apertura {

// Element-wise sums of real arrays whose result depends only on the addends: not on the order in
// which they are added, nor on how they are split between processes. This is what makes a
// distributed run with a deterministic reduction equal, bit for bit, to the single-process run:
// both add the same per-chunk partial images, in whatever grouping.
//
// How: every addend is rounded once to a multiple of 2^-scale and held as a 128-bit integer;
// integers add exactly (associatively), so any order gives the same integer. Across processes
// the integers travel as four 32-bit limbs in doubles: a sum of up to 2^21 such limbs stays
// below 2^53 and is exact however MPI orders it. The total is rounded to double once.
//
// The scale comes from setRange(max_exponent, terms): addends below 2^max_exponent in magnitude,
// at most `terms` of them over all processes, so no total can overflow; the resolution is then
// 2^(max_exponent + log2(terms) - 125) (about 2e-35 of 2^max_exponent for 1e3 terms), far
// below the rounding of the addends themselves. add() refuses (returns false, adds nothing) an
// array with a value outside the range, and the caller agrees on a wider range and starts again.
class ExactSum {
 public:
  __extension__ typedef __int128 Integer;

  explicit ExactSum(std::size_t n = 0) : acc_(n, 0) {}
  std::size_t size() const { return acc_.size(); }
  void resize(std::size_t n);  // and clears
  void clear();

  void setRange(int max_exponent, std::uint64_t terms);
  bool hasRange() const { return has_range_; }
  int maxExponent() const { return max_exponent_; }

  // Adds values[0..size()); false (nothing added) when a value is not finite or not below
  // 2^maxExponent() in magnitude, or when no range is set.
  bool add(const double* values);

  // The totals over all processes (`sum` null: this process alone), rounded to double. Every
  // process must call it (it is a collective when `sum` is set).
  void reduce(const SumOverProcesses& sum, double* out) const;

  // The smallest e with |v| < 2^e for every v of values[0..n) (a very negative number when all
  // are 0); kNonFinite when one is NaN or infinite.
  static int exponentBound(const double* values, std::size_t n);
  // The largest of every process's `local` exponent (exact: a histogram of exponents summed).
  static int maxOverProcesses(int local, const SumOverProcesses& sum);
  // The exact sum of every process's `values` (scalars, e.g. one per chunk), rounded once; NaN
  // when one is not finite. A collective when `sum` is set.
  static double total(const std::vector<double>& values, const SumOverProcesses& sum);

  static constexpr int kNonFinite = 2000;
  static constexpr int kZero = -1100;  // below every double's exponent

 private:
  std::vector<Integer> acc_;
  bool has_range_ = false;
  int max_exponent_ = 0;
  int scale_ = 0;  // addends are held as round(v * 2^scale_)
};

}  // namespace apertura
