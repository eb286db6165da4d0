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
class PlaneWiseTerm final : public ObjectiveTerm {
 public:
  PlaneWiseTerm(std::vector<std::shared_ptr<ObjectiveTerm>> planes, std::size_t num_pixels);
  std::string name() const override { return planes_.front()->name(); }
  double evaluate(const double* cube, double* gradient, double scale) override;
  bool isSmooth() const override;
  bool hasProx() const override;
  bool isSeparable() const override;
  double proxValue(const double* cube) override;
  void prox(const double* v, double step, double* out) override;
  std::vector<StageTime> takeStageTimes() override;

 private:
  std::vector<std::shared_ptr<ObjectiveTerm>> planes_;
  std::size_t num_pixels_;
};

}  // namespace apertura::rml
