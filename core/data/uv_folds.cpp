#include "core/data/uv_folds.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace apertura {
namespace {

constexpr double kSpeedOfLight = 299792458.0;

// splitmix64's finaliser: neighbouring cells land in unrelated folds.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

UvFolds::UvFolds(int folds, double cell_wavelengths) : folds_(folds), cell_(cell_wavelengths) {
  if (folds < 2 || folds > 255)
    throw std::invalid_argument("cross-validation needs 2 to 255 folds, not " +
                                std::to_string(folds));
  if (!(cell_wavelengths > 0.0) || !std::isfinite(cell_wavelengths))
    throw std::invalid_argument("cross-validation: the uv cell must be positive");
}

int UvFolds::foldOf(double u, double v) const {
  // One half-plane holds both (u, v) and (-u, -v).
  if (v < 0.0 || (v == 0.0 && u < 0.0)) {
    u = -u;
    v = -v;
  }
  const auto iu = static_cast<std::int64_t>(std::floor(u / cell_));
  const auto iv = static_cast<std::int64_t>(std::floor(v / cell_));
  const std::uint64_t key = mix(static_cast<std::uint64_t>(iu)) ^ static_cast<std::uint64_t>(iv);
  return static_cast<int>(mix(key) % static_cast<std::uint64_t>(folds_));
}

void UvFolds::assign(const VisibilityChunk& c, std::vector<std::uint8_t>& fold) const {
  const std::size_t rows = c.num_rows(), channels = c.num_channels();
  fold.resize(rows * channels);
  for (std::size_t r = 0; r < rows; ++r) {
    const double u = c.uvw_m[3 * r], v = c.uvw_m[3 * r + 1];
    for (std::size_t k = 0; k < channels; ++k) {
      const double per_metre = c.frequencies_hz[k] / kSpeedOfLight;
      fold[r * channels + k] = static_cast<std::uint8_t>(foldOf(u * per_metre, v * per_metre));
    }
  }
}

FoldSelection::FoldSelection(ChunkSequence& base, const UvFolds& folds, int fold, bool held_out)
    : base_(base), folds_(folds), fold_(fold), held_out_(held_out) {
  if (base.held() && !held_out) {
    base.forEach([&](const VisibilityChunk& c, std::size_t) {
      copies_.emplace_back();
      select(c, copies_.back());
    });
  }
}

void FoldSelection::select(const VisibilityChunk& from, VisibilityChunk& into) {
  into = from;
  folds_.assign(from, fold_of_);
  for (std::size_t k = 0; k < into.weights.size(); ++k) {
    if ((fold_of_[k] == fold_) != held_out_)
      into.weights[k] = 0.0f;
  }
}

void FoldSelection::forEach(const Visitor& visit) {
  if (!copies_.empty()) {
    for (std::size_t i = 0; i < copies_.size(); ++i)
      visit(copies_[i], i);
    return;
  }
  base_.forEach([&](const VisibilityChunk& c, std::size_t i) {
    select(c, scratch_);
    visit(scratch_, i);
  });
}

}  // namespace apertura
