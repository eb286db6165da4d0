#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/correlation.h"
#include "core/io/selection.h"

namespace apertura {

// Correlations of a block of rows as a reader got them from a file, before the product is
// formed. Layout [row][channel][correlation] (the order of a Measurement Set cell and of a
// UVFITS group). Weights are per sample; flag is nonzero where the file flags the sample.
struct RawVisibilityBlock {
  std::size_t rows = 0;
  std::size_t channels = 0;
  std::size_t correlations = 0;
  std::vector<std::complex<float>> vis;
  std::vector<float> weight;
  std::vector<unsigned char> flag;

  void resize(std::size_t nrow, std::size_t nchan, std::size_t ncorr);
  std::size_t index(std::size_t r, std::size_t c, std::size_t p) const {
    return (r * channels + c) * correlations + p;
  }
};

// The product as a linear combination of the file's correlations, found by their types (never
// by position). Terms are 1 (a stored correlation or Stokes parameter) or 2 (a pair of hands).
struct ProductPlan {
  struct Term {
    std::size_t correlation_index = 0;
    std::complex<float> coefficient;
  };
  Product product = Product::I;
  std::vector<Term> terms;
  bool single_hand_allowed = false;  // Stokes I with SingleHandPolicy::kUseAvailable
};

// nullopt when the correlations cannot form the product (e.g. Q from RR LL only).
std::optional<ProductPlan> planProduct(Product product, const std::vector<Correlation>& corrs,
                                       SingleHandPolicy policy);

// Counters over the samples of one product. A sample is usable for a term when it is not
// flagged, value and weight are finite, the weight is positive and the value is not exactly 0
// (EHT files store RL/LR as 0 with a positive weight).
struct ProductCounts {
  std::uint64_t samples = 0;
  std::uint64_t unflagged = 0;         // samples with weight > 0 after forming the product
  std::uint64_t non_finite = 0;        // unflagged correlations with NaN/Inf value or weight
  std::uint64_t zero_with_weight = 0;  // unflagged correlations exactly 0 with weight > 0
  std::uint64_t single_hand = 0;       // Stokes I samples formed from one hand only
  std::uint64_t negative_weight = 0;   // unflagged correlations with a weight below 0
  // Rows flagged for their geometry (row_geometry.h).
  std::uint64_t uvw_non_finite_rows = 0;
  std::uint64_t uvw_too_long_rows = 0;
  std::uint64_t uvw_zero_rows = 0;

  ProductCounts& operator+=(const ProductCounts& o);
};

// Forms the product for channels [first_channel, first_channel + nchan) of every row of `raw`,
// writing rows x nchan samples (row-major) to vis_out / weight_out. Weights combine as the
// inverse variance of the linear combination: w = 1 / sum_k(|c_k|^2 / w_k), which for
// I = (XX + YY) / 2 is w_I = 4 / (1 / w_XX + 1 / w_YY).
void formProduct(const RawVisibilityBlock& raw, const ProductPlan& plan, std::size_t first_channel,
                 std::size_t nchan, std::complex<float>* vis_out, float* weight_out,
                 ProductCounts& counts);

// Where a file keeps what the counters judge, named in the warnings.
struct CountedColumns {
  std::string uvw = "UVW";
  std::string weight = "WEIGHT";  // "" where a negative weight is a flag (AIPS UVFITS)
};

// Human-readable warnings for the counters (empty when there is nothing to say).
std::vector<std::string> describeCounts(const std::string& path, const ProductCounts& counts,
                                        const CountedColumns& columns = {});

// The InputError for a selection that leaves no unflagged sample, the reader's warnings given as
// the reason: an image of nothing (a flat map, a beam of thousands of arcseconds) must not pass
// as one.
[[noreturn]] void throwNothingToImage(const std::string& path,
                                      const std::vector<std::string>& warnings);

}  // namespace apertura
