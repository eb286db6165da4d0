#pragma once

#include <string>
#include <vector>

#include "core/rml/objective_term.h"

namespace apertura::rml {

enum class SpectralKind {
  TotalVariation,        // sum m_p (sqrt(d^2 + eps^2) - eps): favours piecewise-flat spectra
  TotalSquaredVariation  // sum m_p d^2: favours smooth spectra
};

// An across-channel regularizer of a cube: with d = x[k + 1][p] - x[k][p] the difference between
// adjacent planes k, k + 1 at pixel p, the term sums the (smoothed) absolute or squared differences
// over pixels and plane pairs, weighted by the per-pixel mask (the spatial mask of one plane).
// evaluate() reads num_planes * num_pixels values (plane-major): add it to an ObjectiveFunction
// with TermOptions::parameters = num_planes. One plane: the term is zero.
//
// setPlanes() restricts the term to some planes: it then couples consecutive listed planes only
// (sorted by index), e.g. planes {2, 3, 4} give the pairs 2-3 and 3-4, planes {0, 2} the pair 0-2.
class SpectralDifference final : public Regularizer {
 public:
  SpectralDifference(int nx, int ny, int num_planes, SpectralKind kind, double epsilon = 1e-8);
  std::string name() const override;
  double evaluate(const double* cube, double* gradient, double scale) override;
  bool isSmooth() const override {
    return kind_ == SpectralKind::TotalSquaredVariation || eps_ > 0;
  }
  int numPlanes() const { return planes_; }
  // Acts on these planes only (distinct, in [0, numPlanes()), any order); empty: every plane.
  // Throws std::invalid_argument otherwise.
  void setPlanes(std::vector<int> planes);
  // The listed planes in increasing order (every plane when none were set).
  const std::vector<int>& planes() const { return listed_; }

  // Resident in any space: each pair's planes are copied to plane-sized work vectors and the
  // difference's penalty is the space's pixel penalty (L1 smoothed by epsilon, or L2 with the
  // lower plane as prior), its derivative added to the upper plane's gradient and subtracted from
  // the lower's, as evaluate() does (the value's sum is formed in another order).
  bool residentIn(compute::VectorSpace& /*space*/) const override { return true; }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& cube,
                    compute::SpaceVector* gradient, double scale) override;

 private:
  int planes_;
  std::vector<int> listed_;  // sorted; consecutive entries form the coupled pairs
  SpectralKind kind_;
  double eps_;
};

}  // namespace apertura::rml
