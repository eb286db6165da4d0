#include "core/io/selection.h"

#include <algorithm>
#include <cctype>

namespace apertura {
namespace {

const char* const kProductNames[] = {"I",  "Q",  "U",  "V",  "XX", "YY",
                                     "XY", "YX", "RR", "LL", "RL", "LR"};

bool contains(const std::vector<int>& v, int id) {
  return v.empty() || std::find(v.begin(), v.end(), id) != v.end();
}

}  // namespace

bool VisibilitySelection::wantsField(int id) const {
  return contains(field_ids, id);
}
bool VisibilitySelection::wantsSpectralWindow(int id) const {
  return contains(spectral_windows, id);
}

std::string productName(Product p) {
  return kProductNames[static_cast<int>(p)];
}

std::optional<Product> parseProduct(const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  for (int i = 0; i < 12; ++i) {
    if (upper == kProductNames[i])
      return static_cast<Product>(i);
  }
  return std::nullopt;
}

std::string dataColumnName(DataColumn c) {
  switch (c) {
    case DataColumn::kData:
      return "DATA";
    case DataColumn::kCorrectedData:
      return "CORRECTED_DATA";
    case DataColumn::kModelData:
      return "MODEL_DATA";
    case DataColumn::kAuto:
      break;
  }
  return "auto";
}

}  // namespace apertura
