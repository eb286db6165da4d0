#include "core/rml/resident_process_sum.h"

namespace apertura::rml {

compute::SpaceVector& ResidentProcessSum::partial(compute::VectorSpace& space, std::size_t n) {
  if (!partial_ || partial_->size() != n)
    partial_ = space.create(n);
  else
    space.fill(0.0, *partial_);
  return *partial_;
}

double ResidentProcessSum::finish(const SumOverProcesses& sum, compute::VectorSpace& space,
                                  double chi2, compute::SpaceVector* gradient, double factor) {
  sum(&chi2, 1);
  if (gradient != nullptr) {
    host_.resize(partial_->size());
    space.download(*partial_, host_.data());
    sum(host_.data(), host_.size());
    space.upload(host_.data(), *partial_);
    space.axpy(factor, *partial_, *gradient);
  }
  return chi2;
}

}  // namespace apertura::rml
