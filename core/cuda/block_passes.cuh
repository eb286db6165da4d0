#pragma once

// Internal to core/cuda: the CUDA operator's blocks: their plans (per-channel grid scales, the
// samples resident on the device where they fit, the tile plan), and the per-block passes without
// w-stacking, which the streaming calls (degridBlock, gridBlock, residualBlock) and the whole calls
// share: degridding a block from a model grid, spreading a block onto a target grid, and the fused
// chi2 pass. A block
// with a tile plan (tiled_gridding.cuh) is degridded in tile order and spread through shared
// memory; the others take one thread per sample and atomics. The target grid is of T, or of
// double for a float operator's double accumulation.
#include <cuda_runtime.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/cuda/block_samples.cuh"
#include "core/cuda/chi2_sums.cuh"
#include "core/cuda/device_buffers.cuh"
#include "core/cuda/gridding_kernels.cuh"
#include "core/cuda/pass_context.cuh"
#include "core/cuda/pinned_stager.cuh"
#include "core/cuda/tiled_gridding.cuh"
#include "core/imaging/device_wstack.h"
#include "core/imaging/imaging_operator.h"

namespace apertura::cuda {

template <typename T>
class BlockPasses {
 public:
  using Complex = std::complex<T>;
  using DC = typename DeviceComplex<T>::type;

  BlockPasses(const PassContext& c, PinnedStager& stager, BlockSamples& samples, Chi2Sums& sums)
      : c_(c), stager_(stager), samples_(samples), sums_(sums) {
    vis_.track(c_.bytes);
    terms_.track(c_.bytes);
  }

  // A block's per-channel grid scales, and with w-stacking (`ws` with planes) its w scales.
  std::unique_ptr<CudaPlannedBlock> plan(const imaging::UvwBlock& block,
                                         const imaging::DeviceWStack& ws) const {
    auto p = std::make_unique<CudaPlannedBlock>();
    p->block = block;
    for (std::size_t c = 0; c < block.num_channels; ++c) {
      const double f = block.frequencies_hz[c] / imaging::kSpeedOfLight;
      p->scale_u.push_back(f * c_.geometry.cell_l * c_.packed.grid_u);
      p->scale_v.push_back(f * c_.geometry.cell_m * c_.packed.grid_v);
      if (ws.planes > 0)
        p->scale_w.push_back(f / ws.dw);
    }
    p->w_offset = ws.planes > 0 ? ws.w0 / ws.dw : 0.0;
    return p;
  }

  // Blocks held in memory: resident on the device when they fit in 80% of its free memory, else
  // copied in per call like blocks planned one at a time; with `tiled`, a tile plan for each
  // resident block. With w-stacking no tile plan is made: the planes' passes visit the samples in
  // order of their w plane instead.
  std::vector<std::unique_ptr<imaging::PlannedBlock>> planHeld(
      const std::vector<imaging::UvwBlock>& blocks, const imaging::DeviceWStack& ws, bool tiled) {
    std::size_t bytes = 0;
    for (const imaging::UvwBlock& b : blocks)
      bytes += (3 * b.num_rows + 2 * b.num_channels) * sizeof(double) +
               (tiled ? 2 * b.numSamples() * sizeof(std::uint32_t) : 0);
    std::size_t free_bytes = 0, total = 0;
    check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
    const bool resident = bytes <= free_bytes / 5 * 4;
    std::vector<std::unique_ptr<imaging::PlannedBlock>> out;
    for (const imaging::UvwBlock& b : blocks) {
      auto p = plan(b, ws);
      if (resident && b.numSamples() > 0) {
        samples_.makeResident(*p);
        // The tile plan's sample indices are 32-bit; larger blocks keep the simple gridder.
        if (tiled && ws.planes == 0 && b.numSamples() < (std::size_t(1) << 32))
          p->tiles.make(c_.packed, samples_.coordinates(*p), c_.threads, c_.stream, c_.device,
                        c_.bytes);
      }
      out.push_back(std::move(p));
    }
    check(cudaStreamSynchronize(c_.stream), "upload of the uvw coordinates");
    return out;
  }

  // The block's samples from `model_grid` into vis on the host.
  void degrid(const CudaPlannedBlock& b, const DC* model_grid, Complex* vis) {
    const std::size_t n = b.block.numSamples();
    if (n == 0)
      return;
    const SampleArgs args = samples_.coordinates(b);
    vis_.reserve(n, c_.device, "the visibilities of a block");
    degridKernel<T><<<c_.blocksFor(n), c_.threads, 0, c_.stream>>>(
        c_.packed, args, model_grid, b.tiles.items ? b.tiles.order.data() : nullptr, vis_.data());
    check(cudaGetLastError(), "degrid kernel launch");
    stager_.download(vis, vis_.data(), n * sizeof(DC));
  }

  // weights .* vis (weights may be null: all ones) spread onto `target`.
  template <typename G>
  void grid(G* target, const CudaPlannedBlock& b, const Complex* vis, const float* weights) {
    const std::size_t n = b.block.numSamples();
    if (n == 0)
      return;
    const SampleArgs args = samples_.coordinates(b);
    vis_.reserve(n, c_.device, "the visibilities of a block");
    stager_.upload(vis_.data(), vis, n * sizeof(DC));
    const float* dweights = weights ? samples_.stageWeights(weights, n) : nullptr;
    if (b.tiles.items) {
      tiledGridKernel<T, G>
          <<<unsigned(b.tiles.items), c_.threads, tiledGridSharedBytes<G>(b.tiles.tiling),
             c_.stream>>>(c_.packed, args, b.tiles.args(), vis_.data(), dweights, target);
      check(cudaGetLastError(), "tiled grid kernel launch");
      return;
    }
    gridKernel<T, G><<<c_.blocksFor(n), c_.threads, 0, c_.stream>>>(c_.packed, args, vis_.data(),
                                                                    dweights, target);
    check(cudaGetLastError(), "grid kernel launch");
  }

  // The chi2 pass: each sample's model from `model_grid`, its residual and w |r|^2, the weighted
  // residual spread onto `target` at once (none when it is null); returns chi2.
  template <typename G>
  double chi2(const CudaPlannedBlock& b, const std::complex<float>* vis, const float* weights,
              const DC* model_grid, G* target) {
    const std::size_t n = b.block.numSamples();
    if (n == 0)
      return 0.0;
    const SampleArgs args = samples_.coordinates(b);
    const float2* dvis = nullptr;
    const float* dweights = nullptr;
    samples_.data(b, vis, weights, dvis, dweights);
    const unsigned blocks = Chi2Sums::blocks(n, c_.threads);
    if (target && b.tiles.items) {
      // Tiled: samples in tile order, their w |r|^2 stored and summed in their own order (the
      // same partial sums as chi2Kernel's), the residuals spread through shared memory.
      terms_.reserve(n, c_.device, "the chi2 terms of a block");
      tiledChi2Kernel<T, G><<<unsigned(b.tiles.items), c_.threads,
                              tiledGridSharedBytes<G>(b.tiles.tiling), c_.stream>>>(
          c_.packed, args, b.tiles.args(), model_grid, dvis, dweights, target, terms_.data());
      check(cudaGetLastError(), "tiled chi2 kernel launch");
      sumTermsKernel<<<blocks, c_.threads, 0, c_.stream>>>(terms_.data(), n, sums_.partials());
    } else {
      chi2Kernel<T, G><<<blocks, c_.threads, 0, c_.stream>>>(c_.packed, args, model_grid, dvis,
                                                             dweights, target, sums_.partials());
    }
    check(cudaGetLastError(), "chi2 kernel launch");
    return sums_.total(stager_, blocks);
  }

 private:
  PassContext c_;
  PinnedStager& stager_;
  BlockSamples& samples_;
  Chi2Sums& sums_;
  DeviceArray<DC> vis_;        // one block's visibilities
  DeviceArray<double> terms_;  // the tiled chi2 pass's w |r|^2 per sample
};

}  // namespace apertura::cuda
