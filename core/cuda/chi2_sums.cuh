#pragma once

// Internal to core/cuda: the partial sums of the chi2 passes. Each pass is a grid-stride loop over
// at most kBlocks thread blocks, and block b writes its share of sum w |r|^2 to partial b; the
// host adds the partials in a fixed order, so chi2 is the same whatever order the atomics of the
// gridding ran in.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/cuda/device_buffers.cuh"
#include "core/cuda/pinned_stager.cuh"

namespace apertura::cuda {

class Chi2Sums {
 public:
  // Enough blocks to fill an H200 (132 SMs x 2048 threads at 256 per block) twice, few enough
  // that the partial sums are a 16 KiB copy.
  static constexpr std::size_t kBlocks = 2048;

  void allocate(const ByteCounter& bytes, int device) {
    partials_.track(bytes);
    partials_.reserve(kBlocks, device, "the chi2 partial sums");
  }
  // The launch width of a pass over n samples.
  static unsigned blocks(std::size_t n, unsigned threads) {
    return unsigned(std::min<std::size_t>((n + threads - 1) / threads, kBlocks));
  }
  double* partials() const { return partials_.data(); }
  // The sum of the first `blocks` partials (waits for the pass).
  double total(PinnedStager& stager, unsigned blocks) const {
    std::vector<double> partial(blocks);
    stager.download(partial.data(), partials_.data(), blocks * sizeof(double));
    double chi2 = 0.0;
    for (double p : partial)
      chi2 += p;
    return chi2;
  }

 private:
  DeviceArray<double> partials_;
};

}  // namespace apertura::cuda
