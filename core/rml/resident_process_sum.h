#pragma once

#include <vector>

#include "core/compute/vector_space.h"
#include "core/data/process_sum.h"

namespace apertura::rml {

// A data term's sum over the processes of a distributed run when its pass is resident: each
// process forms its partial gradient where the operator keeps its images, the partial comes to
// the host for the sum (an allreduce: the only image that leaves the device per evaluation) and
// goes back, so the optimizer's state stays on the device. chi2 is summed before the gradient, as
// the host terms do, so processes on either path stay in step.
class ResidentProcessSum {
 public:
  // A zeroed vector of n elements in `space` for the process's partial gradient (unscaled).
  compute::SpaceVector& partial(compute::VectorSpace& space, std::size_t n);
  // chi2 summed over processes by `sum`; with `gradient` (partial() formed before),
  // gradient += factor * (the partials' sum).
  double finish(const SumOverProcesses& sum, compute::VectorSpace& space, double chi2,
                compute::SpaceVector* gradient, double factor);

 private:
  compute::SpaceVectorPtr partial_;
  std::vector<double> host_;
};

}  // namespace apertura::rml
