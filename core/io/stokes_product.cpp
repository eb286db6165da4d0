#include "core/io/stokes_product.h"

#include <cmath>

#include "core/util/input_error.h"

namespace apertura {
namespace {

using C = Correlation;
using cf = std::complex<float>;

std::optional<std::size_t> find(const std::vector<Correlation>& corrs, Correlation c) {
  for (std::size_t i = 0; i < corrs.size(); ++i) {
    if (corrs[i] == c)
      return i;
  }
  return std::nullopt;
}

struct PairRule {
  C a, b;
  cf ca, cb;
};

// Linear feeds: XX = I + Q, YY = I - Q, XY = U + iV, YX = U - iV.
// Circular feeds: RR = I + V, LL = I - V, RL = Q + iU, LR = Q - iU.
std::vector<PairRule> pairRules(Product p) {
  const cf h(0.5f, 0.0f), mh(-0.5f, 0.0f), hi(0.0f, 0.5f), mhi(0.0f, -0.5f);
  switch (p) {
    case Product::I:
      return {{C::XX, C::YY, h, h}, {C::RR, C::LL, h, h}};
    case Product::Q:
      return {{C::XX, C::YY, h, mh}, {C::RL, C::LR, h, h}};
    case Product::U:
      return {{C::XY, C::YX, h, h}, {C::RL, C::LR, mhi, hi}};
    case Product::V:
      return {{C::RR, C::LL, h, mh}, {C::XY, C::YX, mhi, hi}};
    default:
      return {};
  }
}

std::optional<C> directCorrelation(Product p) {
  static const C direct[] = {C::I,  C::Q,  C::U,  C::V,  C::XX, C::YY,
                             C::XY, C::YX, C::RR, C::LL, C::RL, C::LR};
  return direct[static_cast<int>(p)];
}

bool usable(cf v, float w, unsigned char flag, ProductCounts& counts) {
  if (flag)
    return false;
  if (!std::isfinite(v.real()) || !std::isfinite(v.imag()) || !std::isfinite(w)) {
    ++counts.non_finite;
    return false;
  }
  if (w <= 0.0f) {
    counts.negative_weight += w < 0.0f ? 1 : 0;
    return false;
  }
  if (v.real() == 0.0f && v.imag() == 0.0f) {
    ++counts.zero_with_weight;
    return false;
  }
  return true;
}

}  // namespace

void RawVisibilityBlock::resize(std::size_t nrow, std::size_t nchan, std::size_t ncorr) {
  rows = nrow;
  channels = nchan;
  correlations = ncorr;
  const std::size_t n = nrow * nchan * ncorr;
  vis.resize(n);
  weight.resize(n);
  flag.resize(n);
}

ProductCounts& ProductCounts::operator+=(const ProductCounts& o) {
  samples += o.samples;
  unflagged += o.unflagged;
  non_finite += o.non_finite;
  zero_with_weight += o.zero_with_weight;
  single_hand += o.single_hand;
  negative_weight += o.negative_weight;
  uvw_non_finite_rows += o.uvw_non_finite_rows;
  uvw_too_long_rows += o.uvw_too_long_rows;
  uvw_zero_rows += o.uvw_zero_rows;
  return *this;
}

std::optional<ProductPlan> planProduct(Product product, const std::vector<Correlation>& corrs,
                                       SingleHandPolicy policy) {
  ProductPlan plan;
  plan.product = product;
  if (auto i = find(corrs, *directCorrelation(product))) {
    plan.terms.push_back({*i, cf(1.0f, 0.0f)});
    return plan;
  }
  for (const PairRule& r : pairRules(product)) {
    const auto ia = find(corrs, r.a);
    const auto ib = find(corrs, r.b);
    if (ia && ib) {
      plan.terms.push_back({*ia, r.ca});
      plan.terms.push_back({*ib, r.cb});
      plan.single_hand_allowed = product == Product::I && policy == SingleHandPolicy::kUseAvailable;
      return plan;
    }
  }
  return std::nullopt;
}

void formProduct(const RawVisibilityBlock& raw, const ProductPlan& plan, std::size_t first_channel,
                 std::size_t nchan, std::complex<float>* vis_out, float* weight_out,
                 ProductCounts& counts) {
  const std::size_t nterms = plan.terms.size();
  for (std::size_t r = 0; r < raw.rows; ++r) {
    for (std::size_t c = 0; c < nchan; ++c) {
      const std::size_t out = r * nchan + c;
      cf value(0.0f, 0.0f);
      float weight = 0.0f;
      cf v[2];
      float w[2] = {0.0f, 0.0f};
      bool ok[2] = {false, false};
      for (std::size_t t = 0; t < nterms; ++t) {
        const std::size_t i = raw.index(r, first_channel + c, plan.terms[t].correlation_index);
        v[t] = raw.vis[i];
        w[t] = raw.weight[i];
        ok[t] = usable(v[t], w[t], raw.flag[i], counts);
      }
      if (nterms == 1) {
        if (ok[0]) {
          value = plan.terms[0].coefficient * v[0];
          weight = w[0];
        }
      } else if (ok[0] && ok[1]) {
        value = plan.terms[0].coefficient * v[0] + plan.terms[1].coefficient * v[1];
        const float a = std::norm(plan.terms[0].coefficient);
        const float b = std::norm(plan.terms[1].coefficient);
        weight = 1.0f / (a / w[0] + b / w[1]);
      } else if (plan.single_hand_allowed && (ok[0] || ok[1])) {
        const int t = ok[0] ? 0 : 1;
        value = v[t];
        weight = w[t];
        ++counts.single_hand;
      }
      if (weight > 0.0f)
        ++counts.unflagged;
      vis_out[out] = weight > 0.0f ? value : cf(0.0f, 0.0f);
      weight_out[out] = weight;
    }
  }
  counts.samples += raw.rows * nchan;
}

std::vector<std::string> describeCounts(const std::string& path, const ProductCounts& counts,
                                        const CountedColumns& columns) {
  std::vector<std::string> out;
  const std::string prefix = path.empty() ? "" : path + ": ";
  const auto rows = [&](std::uint64_t n, const std::string& what) {
    if (n > 0)
      out.push_back(prefix + std::to_string(n) + " rows with " + what + " were flagged");
  };
  rows(counts.uvw_non_finite_rows, "NaN or Inf in " + columns.uvw);
  rows(counts.uvw_too_long_rows, columns.uvw + " longer than any baseline of the array could be");
  rows(counts.uvw_zero_rows, columns.uvw + " = (0, 0, 0) between two different antennas");
  if (counts.negative_weight > 0 && !columns.weight.empty()) {
    out.push_back(prefix + std::to_string(counts.negative_weight) +
                  " correlation samples with a negative weight (" + columns.weight +
                  ") were flagged");
  }
  if (counts.non_finite > 0) {
    out.push_back(prefix + std::to_string(counts.non_finite) +
                  " correlation samples with NaN or Inf value or weight were flagged");
  }
  if (counts.zero_with_weight > 0) {
    out.push_back(prefix + std::to_string(counts.zero_with_weight) +
                  " correlation samples exactly zero with positive weight were flagged");
  }
  if (counts.single_hand > 0) {
    out.push_back(prefix + std::to_string(counts.single_hand) +
                  " Stokes I samples were formed from one hand only (the other was unusable)");
  }
  if (counts.samples > 0 && counts.unflagged == 0) {
    out.push_back(prefix + "all " + std::to_string(counts.samples) +
                  " selected visibilities are flagged");
  }
  return out;
}

void throwNothingToImage(const std::string& path, const std::vector<std::string>& warnings) {
  std::string why;
  for (const auto& w : warnings)
    why += "; " + w;
  throw InputError(path,
                   "no visibility is left to image: every selected sample is flagged or "
                   "has zero weight" +
                       why);
}

}  // namespace apertura
