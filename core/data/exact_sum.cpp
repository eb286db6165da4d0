#include "core/data/exact_sum.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace apertura {
namespace {

constexpr int kLimbs = 4;
__extension__ typedef unsigned __int128 Unsigned;
// Totals stay below 2^kTotalBits in magnitude, well inside a signed 128-bit integer.
constexpr int kTotalBits = 125;

int ceilLog2(std::uint64_t n) {
  int bits = 0;
  while (bits < 64 && (std::uint64_t{1} << bits) < n)
    ++bits;
  return bits;
}

}  // namespace

void ExactSum::resize(std::size_t n) {
  acc_.assign(n, 0);
}

void ExactSum::clear() {
  std::fill(acc_.begin(), acc_.end(), Integer(0));
}

void ExactSum::setRange(int max_exponent, std::uint64_t terms) {
  if (max_exponent >= kNonFinite)
    throw std::invalid_argument("ExactSum: no range holds a NaN or infinite value");
  max_exponent_ = std::max(max_exponent, kZero);
  scale_ = kTotalBits - max_exponent_ - ceilLog2(std::max<std::uint64_t>(terms, 1));
  has_range_ = true;
  clear();
}

bool ExactSum::add(const double* values) {
  if (!has_range_ || exponentBound(values, acc_.size()) > max_exponent_)
    return false;
  for (std::size_t i = 0; i < acc_.size(); ++i) {
    // Scaling by a power of two is exact; rounding to the nearest integer (ties to even) is the
    // one rounding an addend sees, and it depends on the addend alone.
    const double scaled = std::nearbyint(std::ldexp(values[i], scale_));
    acc_[i] += static_cast<Integer>(scaled);
  }
  return true;
}

void ExactSum::reduce(const SumOverProcesses& sum, double* out) const {
  const std::size_t n = acc_.size();
  std::vector<double> limbs(n * kLimbs);
  for (std::size_t i = 0; i < n; ++i) {
    // Two's complement limbs, least significant first; each below 2^32, so exact in a double.
    auto u = static_cast<Unsigned>(acc_[i]);
    for (int k = 0; k < kLimbs; ++k, u >>= 32)
      limbs[i * kLimbs + std::size_t(k)] = double(std::uint64_t(u & 0xffffffffu));
  }
  if (sum)
    sum(limbs.data(), limbs.size());
  for (std::size_t i = 0; i < n; ++i) {
    // Limb sums are integers below 2^53 (fewer than 2^21 processes); the carries between them
    // are resolved in integer arithmetic, modulo 2^128 as the two's complement needs.
    Unsigned u = 0;
    for (int k = kLimbs - 1; k >= 0; --k) {
      const double limb = limbs[i * kLimbs + std::size_t(k)];
      if (!(limb >= 0.0 && limb < 9007199254740992.0))
        throw std::runtime_error("ExactSum: limb sum out of range (" + std::to_string(limb) + ")");
      u = (u << 32) + static_cast<Unsigned>(static_cast<std::uint64_t>(limb));
    }
    out[i] = std::ldexp(static_cast<double>(static_cast<Integer>(u)), -scale_);
  }
}

int ExactSum::exponentBound(const double* values, std::size_t n) {
  double peak = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i]))
      return kNonFinite;
    peak = std::max(peak, std::abs(values[i]));
  }
  if (peak == 0.0)
    return kZero;
  int e = 0;
  std::frexp(peak, &e);  // peak = m * 2^e with 0.5 <= m < 1, so peak < 2^e
  return e;
}

double ExactSum::total(const std::vector<double>& values, const SumOverProcesses& sum) {
  double count = double(values.size());
  if (sum)
    sum(&count, 1);
  const int exponent = maxOverProcesses(exponentBound(values.data(), values.size()), sum);
  if (exponent >= kNonFinite)
    return std::numeric_limits<double>::quiet_NaN();
  ExactSum exact(1);
  exact.setRange(exponent, std::max<std::uint64_t>(std::uint64_t(count), 1));
  for (double v : values)
    exact.add(&v);
  double out = 0.0;
  exact.reduce(sum, &out);
  return out;
}

int ExactSum::maxOverProcesses(int local, const SumOverProcesses& sum) {
  if (!sum)
    return local;
  // One slot per possible exponent: counts of small integers add exactly in any order.
  const int lo = kZero, hi = kNonFinite;
  std::vector<double> histogram(std::size_t(hi - lo + 1), 0.0);
  histogram[std::size_t(std::clamp(local, lo, hi) - lo)] = 1.0;
  sum(histogram.data(), histogram.size());
  for (int e = hi; e > lo; --e) {
    if (histogram[std::size_t(e - lo)] > 0.0)
      return e;
  }
  return lo;
}

}  // namespace apertura
