#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/rml/objective_term.h"

namespace apertura::rml {

// One term per plane of a cube acting as a single objective term on all planes: plane k's term
// sees values [k * num_pixels, (k + 1) * num_pixels). Its value is the sum over planes, its prox
// the planes' proxes side by side (the planes are independent), so a proximal solver sees one
// term per regularizer whatever the plane count. Add it with TermOptions::parameters = planes.
//
// A term may act on some planes only (a regularizer's `planes` list): the planes not listed
// contribute nothing (zero value and gradient, identity prox), as if the term were absent there.
class PlaneWiseTerm final : public ObjectiveTerm {
 public:
  // terms[k] acts on plane k, for every plane of the cube.
  PlaneWiseTerm(std::vector<std::shared_ptr<ObjectiveTerm>> terms, std::size_t num_pixels);
  // terms[j] acts on plane planes[j] of a cube of num_planes planes (indices distinct and in
  // [0, num_planes); any order). Throws std::invalid_argument otherwise.
  PlaneWiseTerm(std::vector<std::shared_ptr<ObjectiveTerm>> terms, std::size_t num_pixels,
                std::vector<int> planes, int num_planes);
  std::string name() const override { return terms_.front()->name(); }
  double evaluate(const double* cube, double* gradient, double scale) override;
  bool isSmooth() const override;
  bool hasProx() const override;
  bool isSeparable() const override;
  void restrictToNonNegative() override;
  double proxValue(const double* cube) override;
  void prox(const double* v, double step, double* out) override;
  // Over x >= 0 plane by plane: a separable plane term's prox clipped, another's own; planes not
  // listed are projected.
  bool hasNonNegativeProx() const override;
  void proxNonNegative(const double* v, double step, double* out) override;
  std::vector<StageTime> takeStageTimes() override;

  // Resident in a space where every plane's term is: each plane is copied to a plane-sized
  // vector there (and its gradient or prox back), so the planes' terms see their own images.
  compute::VectorSpace* dataSpace() override;
  bool residentIn(compute::VectorSpace& space) const override;
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& cube,
                    compute::SpaceVector* gradient, double scale) override;
  bool residentProx(compute::VectorSpace& space) const override;
  double proxValueIn(compute::VectorSpace& space, const compute::SpaceVector& cube) override;
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) override;
  void proxNonNegativeIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
                         compute::SpaceVector& out) override;

  // The planes the terms act on, in the order of the terms.
  const std::vector<int>& planes() const { return planes_; }
  int numPlanes() const { return num_planes_; }

 private:
  void check();  // and finds unlisted_
  std::size_t offset(std::size_t j) const { return std::size_t(planes_[j]) * num_pixels_; }
  // The plane-sized vectors in `space` (kept between calls; made again for another space).
  struct PlaneVectors {
    compute::VectorSpace* space = nullptr;
    compute::SpaceVectorPtr in, out;
  };
  PlaneVectors& planeVectors(compute::VectorSpace& space);
  // The planes not listed in `out`: v's (proxIn, `project` false) or their projection on x >= 0.
  void passUnlisted(compute::VectorSpace& space, const compute::SpaceVector& v,
                    compute::SpaceVector& out, bool project);

  std::vector<std::shared_ptr<ObjectiveTerm>> terms_;
  std::size_t num_pixels_;
  std::vector<int> planes_;
  int num_planes_;
  std::vector<int> unlisted_;  // the planes of the cube without a term, in increasing order
  PlaneVectors resident_;
};

}  // namespace apertura::rml
