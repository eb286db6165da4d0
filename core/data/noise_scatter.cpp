#include "core/data/noise_scatter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace apertura {
namespace {

// log10 r from -12 to +12 in bins of 0.005 dex (1.2 %): weights off by up to 1e12 either way.
constexpr double kLogMin = -12.0;
constexpr double kLogMax = 12.0;
constexpr double kBinDex = 0.005;
const auto kBins = static_cast<std::size_t>(std::lround((kLogMax - kLogMin) / kBinDex));

}  // namespace

NoiseScatter::NoiseScatter() : counts_(kBins + 2, 0.0) {}

void NoiseScatter::addDifference(std::complex<double> difference, double variance) {
  const double r = std::norm(difference) / variance;
  if (!std::isfinite(r))
    return;
  std::size_t bin = 0;  // underflow (identical samples land here)
  if (r > 0.0) {
    const double x = (std::log10(r) - kLogMin) / kBinDex;
    bin = x < 0.0 ? 0 : x >= double(kBins) ? kBins + 1 : std::size_t(x) + 1;
  }
  counts_[bin] += 1.0;
}

void NoiseScatter::addPair(std::complex<float> a, float wa, std::complex<float> b, float wb) {
  if (!(wa > 0.0f) || !(wb > 0.0f))
    return;
  addDifference(std::complex<double>(a) - std::complex<double>(b),
                1.0 / double(wa) + 1.0 / double(wb));
}

void NoiseScatter::addTriplet(const VisibilityChunk& chunk, const std::size_t (&rows)[3]) {
  const float* w = chunk.weights.data();
  if (!(w[rows[0]] > 0.0f) || !(w[rows[1]] > 0.0f) || !(w[rows[2]] > 0.0f))
    return;
  // c0 V0 + c1 V1 + c2 V2 with c0 + c1 + c2 = 0 and c0 t0 + c1 t1 + c2 t2 = 0: a sky that changes
  // linearly in time cancels (equal spacing: V0 - 2 V1 + V2).
  const double t0 = chunk.time_mjd_s[rows[0]], t1 = chunk.time_mjd_s[rows[1]],
               t2 = chunk.time_mjd_s[rows[2]];
  const double c[3] = {t2 - t1, -(t2 - t0), t1 - t0};
  std::complex<double> sum = 0.0;
  double variance = 0.0;
  for (int k = 0; k < 3; ++k) {
    sum += c[k] * std::complex<double>(chunk.visibilities[rows[k]]);
    variance += c[k] * c[k] / double(w[rows[k]]);
  }
  addDifference(sum, variance);
}

void NoiseScatter::add(const VisibilityChunk& chunk) {
  const std::size_t rows = chunk.num_rows();
  const std::size_t nc = chunk.num_channels();
  if (nc == 0 || chunk.visibilities.size() != rows * nc || chunk.weights.size() != rows * nc)
    return;
  if (chunk.antenna1.size() == rows && chunk.antenna2.size() == rows &&
      chunk.time_mjd_s.size() == rows) {
    std::unordered_set<std::uint64_t> seen;  // baseline and time, hashed together
    seen.reserve(rows);
    for (std::size_t r = 0; r < rows; ++r) {
      std::uint64_t time_bits = 0;
      std::memcpy(&time_bits, &chunk.time_mjd_s[r], sizeof time_bits);
      const std::uint64_t baseline =
          std::uint64_t(std::uint32_t(chunk.antenna1[r])) << 32 | std::uint32_t(chunk.antenna2[r]);
      const std::uint64_t key = time_bits * 0x9E3779B97F4A7C15ULL ^ baseline;
      if (!seen.insert(key).second)
        rows_[1] += 1.0;
    }
  }
  rows_[0] += double(rows);
  if (nc >= 2) {
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t base = r * nc;
      for (std::size_t c = 0; c + 1 < nc; c += 2) {
        addPair(chunk.visibilities[base + c], chunk.weights[base + c],
                chunk.visibilities[base + c + 1], chunk.weights[base + c + 1]);
      }
    }
    return;
  }
  if (chunk.antenna1.size() != rows || chunk.antenna2.size() != rows ||
      chunk.time_mjd_s.size() != rows)
    return;
  // The baseline's rows waiting to complete a triplet (each row in one triplet at most).
  struct Waiting {
    std::size_t rows[3];
    int count = 0;
    double last_time = std::numeric_limits<double>::quiet_NaN();
  };
  std::unordered_map<long long, Waiting> waiting;
  for (std::size_t r = 0; r < rows; ++r) {
    const long long key = (long long)(chunk.antenna1[r]) * 1000003LL + chunk.antenna2[r];
    Waiting& w = waiting[key];
    // A duplicated row (same time) is no independent sample of the noise.
    if (chunk.time_mjd_s[r] == w.last_time)
      continue;
    w.last_time = chunk.time_mjd_s[r];
    w.rows[w.count++] = r;
    if (w.count == 3) {
      addTriplet(chunk, w.rows);
      w.count = 0;
    }
  }
}

void NoiseScatter::sumOverProcesses(const SumOverProcesses& sum) {
  if (sum) {
    sum(counts_.data(), counts_.size());
    sum(rows_, 2);
  }
}

double NoiseScatter::duplicateFraction() const {
  return rows_[0] > 0.0 ? rows_[1] / rows_[0] : 0.0;
}

std::size_t NoiseScatter::pairs() const {
  double n = 0.0;
  for (double c : counts_)
    n += c;
  return std::size_t(n);
}

double NoiseScatter::weightScale() const {
  const std::size_t n = pairs();
  const double s = medianScale();
  if (s == 1.0)
    return 1.0;
  // Weights the scatter agrees with are taken as they are: the median's relative standard error
  // is 1 / (ln 2 sqrt(n)) for exponential r. Otherwise two significant digits: a few percent
  // moves lambda by less, and the scale then does not change with how rows are split into
  // chunks or MPI ranks (pairs across a split are lost).
  const double tolerance = std::max(0.05, 3.0 / (std::log(2.0) * std::sqrt(double(n))));
  if (std::fabs(s - 1.0) < tolerance)
    return 1.0;
  const double unit = std::pow(10.0, std::floor(std::log10(s)) - 1.0);
  return std::round(s / unit) * unit;
}

double NoiseScatter::medianScale() const {
  const std::size_t n = pairs();
  if (n < kMinPairs)
    return 1.0;
  // The bin holding the middle pair, interpolated linearly in log r inside the bin.
  const double half = 0.5 * double(n);
  double below = 0.0;
  for (std::size_t b = 0; b < counts_.size(); ++b) {
    if (below + counts_[b] >= half) {
      if (b == 0 || b == kBins + 1)
        return 1.0;  // the median is outside the histogram: nothing sensible to say
      const double fraction = counts_[b] > 0.0 ? (half - below) / counts_[b] : 0.5;
      const double log_r = kLogMin + (double(b - 1) + fraction) * kBinDex;
      return std::pow(10.0, log_r) / (2.0 * std::log(2.0));
    }
    below += counts_[b];
  }
  return 1.0;
}

}  // namespace apertura
