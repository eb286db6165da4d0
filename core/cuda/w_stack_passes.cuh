#pragma once

// Internal to core/cuda: the CUDA operator's whole calls with w-stacking (w_stacking.h). The
// planes come from core's planner (CudaOperatorConfig::plan_w_stack); this class keeps their
// per-pixel screens, each held block's samples in order of their first plane and room for every
// block's visibilities and weights, and runs degrid() and grid() plane by plane with the kernels
// of w_stacking_kernels.cuh. The operator lends it its grid, FFT and correction.
#include <cuda_runtime.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/cuda/block_samples.cuh"
#include "core/cuda/chi2_sums.cuh"
#include "core/cuda/device_buffers.cuh"
#include "core/cuda/pass_context.cuh"
#include "core/cuda/pinned_stager.cuh"
#include "core/cuda/tiled_gridding.cuh"
#include "core/cuda/w_stacking_kernels.cuh"
#include "core/imaging/device_wstack_tiles.h"
#include "core/imaging/image_geometry.h"
#include "core/imaging/w_stacking.h"

namespace apertura::cuda {

template <typename T>
class WStackPasses {
 public:
  using Complex = std::complex<T>;
  using DC = typename DeviceComplex<T>::type;

  WStackPasses(const PassContext& c, PinnedStager& stager, BlockSamples& samples, Chi2Sums& sums)
      : c_(c), stager_(stager), samples_(samples), sums_(sums) {
    for (auto* a : {&xi_, &corr_})
      a->track(c_.bytes);
    vis_.track(c_.bytes);
    weights_.track(c_.bytes);
    measured_.track(c_.bytes);
  }

  bool active() const { return ws_.planes > 0; }
  const imaging::DeviceWStack& planes() const { return ws_; }

  // The planes of `layout` (none when it is inactive), before the blocks are planned with them.
  void setPlanes(const imaging::WStackLayout& layout) {
    ws_ = layout.active ? imaging::DeviceWStack{layout.planes, layout.w0, layout.dw, layout.x0}
                        : imaging::DeviceWStack{};
  }

  // The screens, each block's samples in order of their first plane (their scale_w set; `tiled`:
  // inside a plane in tile order, with the tiled gridder's work items), and room for every
  // block's visibilities and weights, which the whole calls visit once per plane.
  void prepare(const imaging::WStackLayout& layout,
               const std::vector<std::unique_ptr<CudaPlannedBlock>>& held, bool tiled) {
    const std::size_t pixels = c_.geometry.numPixels();
    const std::string what = "the w planes' phase screens";
    xi_.reserve(pixels, c_.device, what);
    corr_.reserve(pixels, c_.device, what);
    stager_.upload(xi_.data(), layout.xi.data(), pixels * sizeof(double));
    stager_.upload(corr_.data(), layout.correction.data(), pixels * sizeof(double));
    first_.clear();
    total_ = 0;
    for (const auto& b : held) {
      const std::size_t n = b->block.numSamples();
      if (n >= (std::size_t(1) << 32))
        throw InputError("imaging.w_stacking", "a chunk of " + std::to_string(n) +
                                                   " samples: at most 2^32 - 1 per chunk "
                                                   "(use smaller data.chunk_rows)");
      imaging::WPlaneTileOrder order;
      if (tiled)
        order = imaging::orderByWPlaneAndTile(b->block, b->scale_u, b->scale_v, b->scale_w,
                                              b->w_offset, c_.packed, ws_.planes, kTileItemSamples);
      else
        order.planes = imaging::orderByWPlane(b->block, b->scale_w, b->w_offset, c_.packed.support,
                                              ws_.planes);
      b->w_order.track(c_.bytes);
      b->w_order.reserve(std::max<std::size_t>(n, 1), c_.device, "the samples' w-plane order");
      stager_.upload(b->w_order.data(), order.planes.order.data(), n * sizeof(std::uint32_t));
      b->w_start = order.planes.start;
      b->w_item_start = order.item_start;
      if (tiled)
        uploadItems(*b, order);
      first_.push_back(total_);
      total_ += n;
    }
    measured_from_.clear();
    vis_.reserve(std::max<std::size_t>(total_, 1), c_.device, "the visibilities of every block");
    weights_.reserve(std::max<std::size_t>(total_, 1), c_.device, "the weights of every block");
    check(cudaStreamSynchronize(c_.stream), "upload of the w planes");
  }

  // Gridding with the tiled gridder (prepare()'s `tiled`).
  bool hasTilePlan(const CudaPlannedBlock& b) const { return !b.w_item_start.empty(); }

  // degrid() of the device image `image`: per plane the screened, corrected image into `grid`,
  // `forward` (its FFT), and every block's samples on that plane add their share.
  template <typename Forward>
  void degrid(const std::vector<std::unique_ptr<CudaPlannedBlock>>& held, const DC* image, DC* grid,
              Forward forward, const T* corr_x, const T* corr_y, const std::vector<Complex*>& vis) {
    degridModel(held, image, grid, forward, corr_x, corr_y);
    for (std::size_t b = 0; b < held.size(); ++b)
      stager_.download(vis[b], vis_.data() + first_[b], held[b]->block.numSamples() * sizeof(DC));
  }

  // The chi2 pass of the held blocks, all on the device: their model (degrid's passes), then in
  // place their weighted residuals W (model - V) against `measured` and `weights` (copied to the
  // device on first use and kept until prepare() or grid() replaces them). Returns chi2, its
  // partial sums added on the host in a fixed order (Chi2Sums); gridResiduals() then spreads the
  // residuals.
  template <typename Forward>
  double residuals(const std::vector<std::unique_ptr<CudaPlannedBlock>>& held, const DC* image,
                   DC* grid, Forward forward, const T* corr_x, const T* corr_y,
                   const std::vector<const std::complex<float>*>& measured,
                   const std::vector<const float*>& weights) {
    keepMeasured(held, measured, weights);
    degridModel(held, image, grid, forward, corr_x, corr_y);
    if (total_ == 0)
      return 0.0;
    const unsigned blocks = Chi2Sums::blocks(total_, c_.threads);
    wResidualKernel<T><<<blocks, c_.threads, 0, c_.stream>>>(measured_.data(), weights_.data(),
                                                             total_, vis_.data(), sums_.partials());
    check(cudaGetLastError(), "w-stacking residual kernel launch");
    return sums_.total(stager_, blocks);
  }

  // grid() of the weighted residuals residuals() left on the device.
  template <typename G, typename Inverse>
  void gridResiduals(const std::vector<std::unique_ptr<CudaPlannedBlock>>& held,
                     typename DeviceComplex<G>::type* plane_grid, Inverse inverse, const G* corr_x,
                     const G* corr_y, typename DeviceComplex<G>::type* image) {
    gridPlanes<G>(held, nullptr, plane_grid, inverse, corr_x, corr_y, image);
  }

  // grid() into the device image `image` (zeroed here): every block's visibilities and weights
  // uploaded once, then per plane the samples on it spread with their plane factor onto
  // `plane_grid`, `inverse` (its inverse FFT), and the corrected, screened grid added to the
  // image. G is T, or double for a float operator's double accumulation.
  template <typename G, typename Inverse>
  void grid(const std::vector<std::unique_ptr<CudaPlannedBlock>>& held,
            const std::vector<const Complex*>& vis, const std::vector<const float*>& weights,
            typename DeviceComplex<G>::type* plane_grid, Inverse inverse, const G* corr_x,
            const G* corr_y, typename DeviceComplex<G>::type* image) {
    bool any_weights = false;
    for (std::size_t b = 0; b < held.size(); ++b) {
      const std::size_t n = held[b]->block.numSamples();
      stager_.upload(vis_.data() + first_[b], vis[b], n * sizeof(DC));
      if (weights[b]) {
        stager_.upload(weights_.data() + first_[b], weights[b], n * sizeof(float));
        any_weights = true;
      }
    }
    if (any_weights)
      measured_from_.clear();  // the measured weights are overwritten
    gridPlanes<G>(held, &weights, plane_grid, inverse, corr_x, corr_y, image);
  }

 private:
  // degrid()'s passes: every held sample's model, left in vis_.
  template <typename Forward>
  void degridModel(const std::vector<std::unique_ptr<CudaPlannedBlock>>& held, const DC* image,
                   DC* grid, Forward forward, const T* corr_x, const T* corr_y) {
    const std::size_t pixels = c_.geometry.numPixels();
    check(cudaMemsetAsync(vis_.data(), 0, vis_.size() * sizeof(DC), c_.stream),
          "cudaMemset (w visibilities)");
    for (int plane = 0; plane < ws_.planes; ++plane) {
      check(cudaMemsetAsync(grid, 0, cells() * sizeof(DC), c_.stream), "cudaMemset (w grid)");
      wImageToGridKernel<T><<<c_.blocksFor(pixels), c_.threads, 0, c_.stream>>>(
          c_.geometry.nx, c_.geometry.ny, c_.packed.grid_u, c_.packed.grid_v, ws_, plane, image,
          corr_x, corr_y, xi_.data(), corr_.data(), grid);
      check(cudaGetLastError(), "w-plane image-to-grid kernel launch");
      forward();
      forSamplesOnPlane(
          held, plane, false,
          [&](std::size_t b, const SampleArgs& args, std::size_t first, std::size_t count) {
            wDegridKernel<T><<<c_.blocksFor(count), c_.threads, 0, c_.stream>>>(
                c_.packed, ws_, plane, args, grid, held[b]->w_order.data(), first, count,
                vis_.data() + first_[b]);
            check(cudaGetLastError(), "w-plane degrid kernel launch");
          });
    }
  }

  // grid()'s passes over vis_ (times weights_ for the blocks whose `weights` were given; null:
  // none) into `image`, zeroed here.
  template <typename G, typename Inverse>
  void gridPlanes(const std::vector<std::unique_ptr<CudaPlannedBlock>>& held,
                  const std::vector<const float*>* weights,
                  typename DeviceComplex<G>::type* plane_grid, Inverse inverse, const G* corr_x,
                  const G* corr_y, typename DeviceComplex<G>::type* image) {
    const std::size_t pixels = c_.geometry.numPixels();
    check(cudaMemsetAsync(image, 0, pixels * sizeof(*image), c_.stream), "cudaMemset (w image)");
    for (int plane = 0; plane < ws_.planes; ++plane) {
      check(cudaMemsetAsync(plane_grid, 0, cells() * sizeof(*plane_grid), c_.stream),
            "cudaMemset (w grid)");
      forSamplesOnPlane(
          held, plane, true,
          [&](std::size_t b, const SampleArgs& args, std::size_t first, std::size_t count) {
            const CudaPlannedBlock& block = *held[b];
            const typename DeviceComplex<T>::type* vis = vis_.data() + first_[b];
            const float* w = weights && (*weights)[b] ? weights_.data() + first_[b] : nullptr;
            G* target = reinterpret_cast<G*>(plane_grid);
            if (hasTilePlan(block)) {
              const TileArgs items = planeItems(block, first);
              wTiledGridKernel<T, G>
                  <<<unsigned(count), c_.threads, tiledGridSharedBytes<G>(items.tiling),
                     c_.stream>>>(c_.packed, ws_, plane, args, items, vis, w, target);
              check(cudaGetLastError(), "w-plane tiled grid kernel launch");
            } else {
              wGridKernel<T, G><<<c_.blocksFor(count), c_.threads, 0, c_.stream>>>(
                  c_.packed, ws_, plane, args, vis, w, block.w_order.data(), first, count, target);
              check(cudaGetLastError(), "w-plane grid kernel launch");
            }
          });
      inverse();
      wGridToImageKernel<T, G><<<c_.blocksFor(pixels), c_.threads, 0, c_.stream>>>(
          c_.geometry.nx, c_.geometry.ny, c_.packed.grid_u, c_.packed.grid_v, ws_, plane,
          plane_grid, corr_x, corr_y, xi_.data(), corr_.data(), image);
      check(cudaGetLastError(), "w-plane grid-to-image kernel launch");
    }
  }

  std::size_t cells() const { return std::size_t(c_.packed.grid_u) * c_.packed.grid_v; }

  // The tiled gridder's work items of block b on the device (12 bytes each).
  void uploadItems(CudaPlannedBlock& b, const imaging::WPlaneTileOrder& order) {
    const std::size_t items = std::max<std::size_t>(order.tile.size(), 1);
    const std::string what = "the tiled gridder's w-plane work items";
    b.w_tile.track(c_.bytes);
    b.w_first.track(c_.bytes);
    b.w_count.track(c_.bytes);
    b.w_tile.reserve(items, c_.device, what);
    b.w_first.reserve(items, c_.device, what);
    b.w_count.reserve(items, c_.device, what);
    stager_.upload(b.w_tile.data(), order.tile.data(), order.tile.size() * sizeof(std::int32_t));
    stager_.upload(b.w_first.data(), order.first.data(),
                   order.first.size() * sizeof(std::uint32_t));
    stager_.upload(b.w_count.data(), order.count.data(),
                   order.count.size() * sizeof(std::uint32_t));
  }

  // The block's work items from `first` on, for a launch whose thread block i takes item
  // first + i.
  TileArgs planeItems(const CudaPlannedBlock& b, std::size_t first) const {
    TileArgs a;
    a.tiling = imaging::deviceTiling(c_.packed);
    a.order = b.w_order.data();
    a.tile = b.w_tile.data() + first;
    a.first = b.w_first.data() + first;
    a.count = b.w_count.data() + first;
    return a;
  }

  // One launch per block over its samples that reach `plane`: launch(block, coordinates, first,
  // count) with a range of its w order, or with `by_items` and a tile plan, of its work items.
  template <typename Launch>
  void forSamplesOnPlane(const std::vector<std::unique_ptr<CudaPlannedBlock>>& held, int plane,
                         bool by_items, Launch launch) {
    for (std::size_t b = 0; b < held.size(); ++b) {
      const CudaPlannedBlock& block = *held[b];
      const std::vector<std::size_t>& offsets =
          by_items && hasTilePlan(block) ? block.w_item_start : block.w_start;
      const auto [first, last] = imaging::samplesOnPlane(offsets, plane, c_.packed.support);
      if (last > first)
        launch(b, samples_.coordinates(block), first, last - first);
    }
  }

  // The measured visibilities and weights of every held block on the device, copied again only
  // when they come from other arrays than the last copy's.
  void keepMeasured(const std::vector<std::unique_ptr<CudaPlannedBlock>>& held,
                    const std::vector<const std::complex<float>*>& measured,
                    const std::vector<const float*>& weights) {
    std::vector<const void*> from(measured.begin(), measured.end());
    from.insert(from.end(), weights.begin(), weights.end());
    if (from == measured_from_)
      return;
    measured_from_.clear();
    measured_.reserve(std::max<std::size_t>(total_, 1), c_.device,
                      "the measured visibilities of every block");
    for (std::size_t b = 0; b < held.size(); ++b) {
      const std::size_t n = held[b]->block.numSamples();
      if (n > 0 && (!measured[b] || !weights[b]))
        throw std::invalid_argument("heldResiduals: block " + std::to_string(b) +
                                    " has no visibilities or weights");
      stager_.upload(measured_.data() + first_[b], measured[b], n * sizeof(float2));
      stager_.upload(weights_.data() + first_[b], weights[b], n * sizeof(float));
    }
    measured_from_ = std::move(from);
  }

  PassContext c_;
  PinnedStager& stager_;
  BlockSamples& samples_;
  Chi2Sums& sums_;
  imaging::DeviceWStack ws_;       // planes 0: no w-stacking
  DeviceArray<double> xi_, corr_;  // per pixel: WStackLayout's xi and correction
  DeviceArray<DC> vis_;            // every held block's visibilities (block b from first_[b])
  DeviceArray<float> weights_;     // and their weights
  std::vector<std::size_t> first_;
  std::size_t total_ = 0;                   // the samples of every block
  DeviceArray<float2> measured_;            // residuals(): every block's measured visibilities
  std::vector<const void*> measured_from_;  // the host arrays measured_ and weights_ hold
};

}  // namespace apertura::cuda
