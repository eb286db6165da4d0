#pragma once

// Internal to core/cuda: where a block's samples are on the device for the CUDA operator's
// kernels. A block planned with the blocks held in memory (planBlocks, setSamples) keeps its uvw
// and per-channel scales on the device when there is room, and later its visibilities and
// weights; otherwise each call copies them into staging arrays through the pinned buffers.
#include <cuda_runtime.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/cuda/device_buffers.cuh"
#include "core/cuda/gridding_kernels.cuh"
#include "core/cuda/pinned_stager.cuh"
#include "core/cuda/tiled_gridding.cuh"
#include "core/imaging/imaging_operator.h"

namespace apertura::cuda {

// A block for the streaming calls: its host arrays and per-channel scales, a resident copy of
// uvw and the scales when made resident, the visibilities and weights kept by the first chi2 pass
// that finds room for them, and the tile plan of the tiled gridder.
struct CudaPlannedBlock final : imaging::PlannedBlock {
  imaging::UvwBlock block;
  std::vector<double> scale_u, scale_v;
  std::vector<double> scale_w;  // with w-stacking only
  double w_offset = 0.0;
  DeviceArray<double> uvw, su, sv, sw;
  bool resident = false;
  mutable DeviceArray<char> samples;         // the visibilities, then the weights
  mutable const void* samples_of = nullptr;  // the host visibilities they were copied from
  mutable bool samples_tried = false;
  DeviceTilePlan tiles;
  // w-stacking: the samples in order of their first w plane, and where each plane's start; with
  // the tiled gridder each plane's samples are in tile order, cut into work items (w_item_start:
  // each plane's first item; empty with the simple gridder).
  DeviceArray<std::uint32_t> w_order;
  std::vector<std::size_t> w_start;
  DeviceArray<std::int32_t> w_tile;
  DeviceArray<std::uint32_t> w_first, w_count;
  std::vector<std::size_t> w_item_start;
};

class BlockSamples {
 public:
  // Copies go through `stager` (attached to the operator's stream); device bytes count in `bytes`.
  BlockSamples(PinnedStager& stager, int device, const ByteCounter& bytes)
      : stager_(stager), device_(device), bytes_(bytes) {
    for (auto* a : {&stage_uvw_, &stage_su_, &stage_sv_, &stage_sw_})
      a->track(bytes_);
    stage_vis_.track(bytes_);
    stage_weights_.track(bytes_);
  }

  // Uploads the block's uvw and scales to arrays of its own (queued on the stream).
  void makeResident(CudaPlannedBlock& p) {
    const imaging::UvwBlock& b = p.block;
    const std::string what = "the uvw coordinates of the samples";
    for (auto* a : {&p.uvw, &p.su, &p.sv, &p.sw})
      a->track(bytes_);
    p.uvw.reserve(3 * b.num_rows, device_, what);
    p.su.reserve(b.num_channels, device_, what);
    p.sv.reserve(b.num_channels, device_, what);
    stager_.upload(p.uvw.data(), b.uvw_m, 3 * b.num_rows * sizeof(double));
    stager_.upload(p.su.data(), p.scale_u.data(), b.num_channels * sizeof(double));
    stager_.upload(p.sv.data(), p.scale_v.data(), b.num_channels * sizeof(double));
    if (!p.scale_w.empty()) {
      p.sw.reserve(b.num_channels, device_, what);
      stager_.upload(p.sw.data(), p.scale_w.data(), b.num_channels * sizeof(double));
    }
    p.resident = true;
  }

  // The block's coordinates on the device, copied into the staging arrays when not resident.
  SampleArgs coordinates(const CudaPlannedBlock& b) {
    SampleArgs a;
    a.count = b.block.numSamples();
    a.channels = b.block.num_channels;
    a.w_offset = b.w_offset;
    if (b.resident) {
      a.uvw = b.uvw.data();
      a.scale_u = b.su.data();
      a.scale_v = b.sv.data();
      a.scale_w = b.scale_w.empty() ? nullptr : b.sw.data();
      return a;
    }
    const std::string what = "the uvw coordinates of a block";
    stage_uvw_.reserve(3 * b.block.num_rows, device_, what);
    stage_su_.reserve(b.block.num_channels, device_, what);
    stage_sv_.reserve(b.block.num_channels, device_, what);
    stager_.upload(stage_uvw_.data(), b.block.uvw_m, 3 * b.block.num_rows * sizeof(double));
    stager_.upload(stage_su_.data(), b.scale_u.data(), b.block.num_channels * sizeof(double));
    stager_.upload(stage_sv_.data(), b.scale_v.data(), b.block.num_channels * sizeof(double));
    a.uvw = stage_uvw_.data();
    a.scale_u = stage_su_.data();
    a.scale_v = stage_sv_.data();
    if (!b.scale_w.empty()) {
      stage_sw_.reserve(b.block.num_channels, device_, what);
      stager_.upload(stage_sw_.data(), b.scale_w.data(), b.block.num_channels * sizeof(double));
      a.scale_w = stage_sw_.data();
    }
    return a;
  }

  // The visibilities and weights of a chi2 pass on the device: kept with a resident plan when
  // they fit in 80% of the free memory (copied at the first pass, again only if the caller's
  // arrays move), else staged per call.
  void data(const CudaPlannedBlock& b, const std::complex<float>* vis, const float* weights,
            const float2*& dvis, const float*& dweights) {
    const std::size_t n = b.block.numSamples(), vis_bytes = n * sizeof(float2);
    if (b.resident && !b.samples_tried) {
      b.samples_tried = true;
      std::size_t free_bytes = 0, total = 0;
      check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
      if (vis_bytes + n * sizeof(float) <= free_bytes / 5 * 4) {
        b.samples.track(bytes_);
        b.samples.reserve(vis_bytes + n * sizeof(float), device_, "the visibilities of a block");
      }
    }
    if (b.samples.size() > 0) {
      if (b.samples_of != vis) {
        stager_.upload(b.samples.data(), vis, vis_bytes);
        stager_.upload(b.samples.data() + vis_bytes, weights, n * sizeof(float));
        b.samples_of = vis;
      }
      dvis = reinterpret_cast<const float2*>(b.samples.data());
      dweights = reinterpret_cast<const float*>(b.samples.data() + vis_bytes);
      return;
    }
    stage_vis_.reserve(n, device_, "the visibilities of a block");
    stager_.upload(stage_vis_.data(), vis, vis_bytes);
    dvis = stage_vis_.data();
    dweights = stageWeights(weights, n);
  }

  // n weights copied to the staging array; returns it.
  const float* stageWeights(const float* weights, std::size_t n) {
    stage_weights_.reserve(n, device_, "the weights of a block");
    stager_.upload(stage_weights_.data(), weights, n * sizeof(float));
    return stage_weights_.data();
  }

 private:
  PinnedStager& stager_;
  int device_;
  ByteCounter bytes_;
  DeviceArray<double> stage_uvw_, stage_su_, stage_sv_, stage_sw_;
  DeviceArray<float2> stage_vis_;  // a chi2 pass's staged visibilities
  DeviceArray<float> stage_weights_;
};

}  // namespace apertura::cuda
