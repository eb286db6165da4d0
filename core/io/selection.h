#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace apertura {

// What to image from the correlations a file holds.
enum class Product { I, Q, U, V, XX, YY, XY, YX, RR, LL, RL, LR };

// Stokes I from two parallel hands when one of them is unusable (flagged, NaN, zero) in a sample:
// kDrop flags the sample (polarization purity, the default); kUseAvailable images the remaining
// hand with its own weight (assumes the source is unpolarized). Q, U and V always need both terms.
enum class SingleHandPolicy { kDrop, kUseAvailable };

// Measurement Set data column. kAuto: CORRECTED_DATA when present, else DATA.
enum class DataColumn { kAuto, kData, kCorrectedData, kModelData };

struct VisibilitySelection {
  std::vector<int> field_ids;         // empty: every field (select by FIELD_ID; names repeat)
  std::vector<int> spectral_windows;  // MS SPECTRAL_WINDOW ids or UVFITS IFs (0-based); empty: all
  int channel_start = 0;              // first channel, in every selected window
  std::optional<int> channel_count;   // none: to the last channel
  Product product = Product::I;
  SingleHandPolicy single_hand = SingleHandPolicy::kDrop;
  DataColumn data_column = DataColumn::kAuto;

  bool wantsField(int id) const;
  bool wantsSpectralWindow(int id) const;
};

std::string productName(Product p);
// Accepts "I", "Q", "U", "V", "XX", ..., case-insensitive; nullopt for anything else.
std::optional<Product> parseProduct(const std::string& name);
std::string dataColumnName(DataColumn c);

}  // namespace apertura
