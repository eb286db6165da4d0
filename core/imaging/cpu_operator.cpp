// The CPU backend of the imaging operator: tiled gridding over oneTBB tasks, FFTW, and the
// gridding correction; optional w-stacking (w_stacking.h).
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>

#include "core/imaging/aligned_buffer.h"
#include "core/imaging/cpu_tile_passes.h"
#include "core/imaging/fft_plans.h"
#include "core/imaging/gridding_correction.h"
#include "core/imaging/imaging_operator.h"
#include "core/imaging/w_stacking.h"
#include "core/util/input_error.h"
#include "core/util/thread_count.h"

namespace apertura::imaging {

namespace {

// A block planned once for the streaming calls.
struct CpuPlannedBlock final : PlannedBlock {
  BlockScales scales;
  TilePlan plan;
};

template <typename T>
class CpuOperator final : public ImagingOperator<T> {
 public:
  using Complex = std::complex<T>;

  CpuOperator(const ImageGeometry& g, const OperatorSettings& s)
      : geometry_(g),
        settings_(s),
        // w-stacking adds a third kernel axis, and its error: ask each axis for a bit more.
        kernel_(
            chooseKernel(s.kernel, s.w_stacking ? s.epsilon / 1.5 : s.epsilon, s.oversampling)) {
    if (g.nx < 2 || g.ny < 2 || g.nx % 2 || g.ny % 2)
      throw InputError("image size", "image dimensions must be even and at least 2");
    if (std::is_same_v<T, float> && s.epsilon < 1e-7)
      throw InputError("epsilon", "single precision cannot reach an accuracy below 1e-7");
    const double tolerance = std::max(0.05 * s.epsilon, std::is_same_v<T, float> ? 1e-8 : 1e-15);
    poly_ = fitKernelPolynomial<T>(kernel_, tolerance);
    nu_ = goodFftSize(int(std::ceil(s.oversampling * g.nx)));
    nv_ = goodFftSize(int(std::ceil(s.oversampling * g.ny)));
    nu_ = std::max(nu_, goodFftSize(2 * kernel_.support));
    nv_ = std::max(nv_, goodFftSize(2 * kernel_.support));
    const auto psi_x = kernelTransform(kernel_, g.nx, nu_);
    const auto psi_y = kernelTransform(kernel_, g.ny, nv_);
    for (double p : psi_x)
      corr_x_.push_back(1.0 / p);
    for (double p : psi_y)
      corr_y_.push_back(1.0 / p);
    threads_ = threadCount(s.threads);
    arena_ = std::make_unique<tbb::task_arena>(threads_);
    grid_.resize(std::size_t(nu_) * nv_);
    passes_.emplace(kernel_, poly_, w_poly_, wstack_, nu_, nv_);
  }

  void setSamples(const std::vector<UvwBlock>& blocks) override {
    wstack_ = WStackLayout{};
    if (settings_.w_stacking) {
      wstack_ = planWStackFor(blocks, geometry_, kernel_, settings_);
      if (wstack_.active)
        w_poly_ = poly_;
    }
    scales_.clear();
    plans_.clear();
    for (const UvwBlock& b : blocks)
      scales_.push_back(scalesOf(b));
    plans_.resize(scales_.size());
    arena_->execute([&] {
      tbb::parallel_for(std::size_t(0), scales_.size(),
                        [&](std::size_t i) { plans_[i] = planOf(scales_[i]); });
    });
  }

  void degrid(const Complex* image, const std::vector<Complex*>& vis) override {
    checkBlocks(vis.size());
    for (std::size_t b = 0; b < vis.size(); ++b)
      std::fill(vis[b], vis[b] + scales_[b].block.numSamples(), Complex(0));
    arena_->execute([&] {
      for (int plane = 0; plane < wstack_.planes; ++plane) {
        imageToGrid(image, plane);
        fftGrid(grid_.data(), true);
        for (std::size_t b = 0; b < vis.size(); ++b)
          passes_->degrid(scales_[b], plans_[b], plane, grid_.data(), vis[b]);
      }
    });
  }

  void grid(const std::vector<const Complex*>& vis, const std::vector<const float*>& weights,
            Complex* image) override {
    checkGridArguments(vis.size(), weights.size());
    if (wideAccumulation()) {
      std::vector<std::complex<double>> wide(geometry_.numPixels());
      gridAllPlanes(vis, weights, wideGrid(), wide.data());
      narrow(wide, image);
    } else {
      gridAllPlanes(vis, weights, grid_.data(), image);
    }
  }

  void gridDouble(const std::vector<const Complex*>& vis, const std::vector<const float*>& weights,
                  std::complex<double>* image) override {
    if constexpr (std::is_same_v<T, double>) {
      grid(vis, weights, image);
    } else if (wideAccumulation()) {
      checkGridArguments(vis.size(), weights.size());
      gridAllPlanes(vis, weights, wideGrid(), image);
    } else {
      ImagingOperator<T>::gridDouble(vis, weights, image);
    }
  }

  std::unique_ptr<PlannedBlock> planBlock(const UvwBlock& block) override {
    requireNoWStacking();
    auto planned = std::make_unique<CpuPlannedBlock>();
    planned->scales = scalesOf(block);
    arena_->execute([&] { planned->plan = planOf(planned->scales); });
    return planned;
  }

  std::vector<std::unique_ptr<PlannedBlock>> planBlocks(
      const std::vector<UvwBlock>& blocks) override {
    requireNoWStacking();
    std::vector<std::unique_ptr<CpuPlannedBlock>> planned(blocks.size());
    arena_->execute([&] {
      tbb::parallel_for(std::size_t(0), blocks.size(), [&](std::size_t i) {
        planned[i] = std::make_unique<CpuPlannedBlock>();
        planned[i]->scales = scalesOf(blocks[i]);
        planned[i]->plan = planOf(planned[i]->scales);
      });
    });
    return {std::make_move_iterator(planned.begin()), std::make_move_iterator(planned.end())};
  }

  void prepareDegrid(const Complex* image) override {
    requireNoWStacking();
    arena_->execute([&] {
      imageToGrid(image, 0);
      fftGrid(grid_.data(), true);
    });
  }

  void degridBlock(const PlannedBlock& block, Complex* vis) override {
    const auto& b = static_cast<const CpuPlannedBlock&>(block);
    std::fill(vis, vis + b.scales.block.numSamples(), Complex(0));
    arena_->execute([&] { passes_->degrid(b.scales, b.plan, 0, grid_.data(), vis); });
  }

  void beginGrid() override {
    requireNoWStacking();
    if (!wideAccumulation() && accumulator_.size() != grid_.size())
      accumulator_.resize(grid_.size());
    arena_->execute([&] {
      if (wideAccumulation())
        zeroGrid(wideGrid());
      else
        zeroGrid(accumulator_.data());
    });
  }

  void gridBlock(const PlannedBlock& block, const Complex* vis, const float* weights) override {
    const auto& b = static_cast<const CpuPlannedBlock&>(block);
    arena_->execute([&] {
      if (wideAccumulation())
        passes_->grid(b.scales, b.plan, 0, vis, weights, wide_.data());
      else
        passes_->grid(b.scales, b.plan, 0, vis, weights, accumulator_.data());
    });
  }

  void endGrid(Complex* image) override {
    if (wideAccumulation()) {
      std::vector<std::complex<double>> wide(geometry_.numPixels());
      finishGrid(wide_.data(), wide.data());
      narrow(wide, image);
    } else {
      finishGrid(accumulator_.data(), image);
    }
  }

  void endGridDouble(std::complex<double>* image) override {
    if constexpr (std::is_same_v<T, double>)
      endGrid(image);
    else if (wideAccumulation())
      finishGrid(wide_.data(), image);
    else
      ImagingOperator<T>::endGridDouble(image);
  }

  const ImageGeometry& geometry() const override { return geometry_; }
  const KernelShape& kernel() const override { return kernel_; }
  int gridCellsX() const override { return nu_; }
  int gridCellsY() const override { return nv_; }
  std::string describe() const override {
    std::ostringstream o;
    o << "kernel=" << kernelTypeName(kernel_.type) << " W=" << kernel_.support
      << " beta=" << kernel_.beta << " sigma=" << settings_.oversampling
      << " epsilon=" << settings_.epsilon << " grid=" << nu_ << "x" << nv_
      << " wstack_planes=" << (wstack_.active ? wstack_.planes : 0)
      << " precision=" << (std::is_same_v<T, float> ? "float" : "double")
      << (wideAccumulation() ? " accumulation=double" : "");
    return o.str();
  }

 private:
  void checkBlocks(std::size_t n) const {
    if (n != scales_.size())
      throw std::invalid_argument(
          "operator called with a different number of blocks than "
          "setSamples() was given");
  }

  void checkGridArguments(std::size_t blocks, std::size_t weight_pointers) const {
    checkBlocks(blocks);
    if (weight_pointers != blocks)
      throw std::invalid_argument("grid: one weight pointer (or null) per block expected");
  }

  // The double grid of double_accumulation, allocated on first use.
  std::complex<double>* wideGrid() {
    if (wide_.size() != grid_.size())
      wide_.resize(grid_.size());
    return wide_.data();
  }

  // Every block, w plane by w plane, through the grid `buf` (of T, or double for the wide
  // accumulator) into `image`.
  template <typename C, typename O>
  void gridAllPlanes(const std::vector<const Complex*>& vis,
                     const std::vector<const float*>& weights, C* buf, O* image) {
    std::fill(image, image + geometry_.numPixels(), O(0));
    arena_->execute([&] {
      for (int plane = 0; plane < wstack_.planes; ++plane) {
        zeroGrid(buf);
        for (std::size_t b = 0; b < vis.size(); ++b)
          passes_->grid(scales_[b], plans_[b], plane, vis[b], weights[b], buf);
        fftGrid(buf, false);
        gridToImage(buf, image, plane);
      }
    });
  }

  // The streaming accumulator `buf` (one w plane) into `image`.
  template <typename C, typename O>
  void finishGrid(C* buf, O* image) {
    std::fill(image, image + geometry_.numPixels(), O(0));
    arena_->execute([&] {
      fftGrid(buf, false);
      gridToImage(buf, image, 0);
    });
  }

  void narrow(const std::vector<std::complex<double>>& wide, Complex* image) const {
    for (std::size_t p = 0; p < wide.size(); ++p)
      image[p] = Complex(wide[p]);
  }

  void requireNoWStacking() const {
    if (settings_.w_stacking)
      throw InputError("imaging.w_stacking",
                       "w-stacking needs every visibility in memory (one pass per w plane): "
                       "it cannot be used with streaming data");
  }

  BlockScales scalesOf(const UvwBlock& b) const {
    BlockScales sc;
    sc.block = b;
    for (std::size_t c = 0; c < b.num_channels; ++c) {
      const double f = b.frequencies_hz[c] / kSpeedOfLight;
      sc.scale_u.push_back(f * geometry_.cell_l * nu_);
      sc.scale_v.push_back(f * geometry_.cell_m * nv_);
      if (wstack_.active)
        sc.scale_w.push_back(f / wstack_.dw);
    }
    sc.w_offset = wstack_.active ? wstack_.w0 / wstack_.dw : 0.0;
    return sc;
  }

  TilePlan planOf(const BlockScales& sc) const {
    return buildTilePlan(sc, kernel_.support, nu_, nv_, kernel_.support,
                         wstack_.active ? wstack_.planes : 1,
                         std::is_same_v<T, float> && !wstack_.active);
  }

  bool wideAccumulation() const {
    return std::is_same_v<T, float> && settings_.double_accumulation;
  }

  template <typename C>
  void zeroGrid(C* grid) {
    tbb::parallel_for(0, nv_, [&](int v) {
      std::fill(grid + std::size_t(v) * nu_, grid + std::size_t(v + 1) * nu_, C(0));
    });
  }

  // Phase screen of a w plane at pixel p: exp(sign 2 pi i w_j xi_p) / psi_w.
  Complex planeScreen(int plane, std::size_t p, double sign) const {
    const double w = wstack_.w0 + plane * wstack_.dw;
    const double ph = sign * 2.0 * M_PI * w * wstack_.xi[p];
    const double c = wstack_.correction[p];
    return Complex(T(c * std::cos(ph)), T(c * std::sin(ph)));
  }

  // Corrected image (times the plane's phase screen) into the zero-padded grid; pixel offset p
  // goes to cell p mod N.
  void imageToGrid(const Complex* image, int plane) {
    zeroGrid(grid_.data());
    const int nx = geometry_.nx, ny = geometry_.ny;
    tbb::parallel_for(0, ny, [&](int iy) {
      Complex* row = grid_.data() + std::size_t((iy - ny / 2 + nv_) % nv_) * nu_;
      const T cy = T(corr_y_[iy]);
      for (int ix = 0; ix < nx; ++ix) {
        const std::size_t p = std::size_t(iy) * nx + ix;
        Complex v = image[p] * (cy * T(corr_x_[ix]));
        if (wstack_.active)
          v *= planeScreen(plane, p, -1.0);
        row[(ix - nx / 2 + nu_) % nu_] = v;
      }
    });
  }

  // The correction is applied in the grid's precision G (double for the wide accumulator).
  template <typename G, typename O>
  void gridToImage(const std::complex<G>* grid, std::complex<O>* image, int plane) {
    const int nx = geometry_.nx, ny = geometry_.ny;
    tbb::parallel_for(0, ny, [&](int iy) {
      const std::complex<G>* row = grid + std::size_t((iy - ny / 2 + nv_) % nv_) * nu_;
      const G cy = G(corr_y_[iy]);
      for (int ix = 0; ix < nx; ++ix) {
        const std::size_t p = std::size_t(iy) * nx + ix;
        std::complex<G> v = row[(ix - nx / 2 + nu_) % nu_] * (cy * G(corr_x_[ix]));
        if (wstack_.active)
          v *= std::complex<G>(planeScreen(plane, p, +1.0));
        image[p] += std::complex<O>(v);
      }
    });
  }

  // Only the columns holding image pixels are transformed along v when going image -> grid
  // (and back), which saves a quarter of the work at sigma = 2.
  template <typename G>
  void fftGrid(std::complex<G>* grid, bool forward) {
    const int nx = geometry_.nx;
    const int left = nx - nx / 2, right = nx / 2;  // columns [0, left) and [nu - right, nu)
    auto columns = [&] {
      fftMany(grid, nv_, left, nu_, 1, forward, threads_);
      fftMany(grid + (nu_ - right), nv_, right, nu_, 1, forward, threads_);
    };
    auto rows = [&] { fftMany(grid, nu_, nv_, 1, nu_, forward, threads_); };
    if (forward) {
      columns();
      rows();
    } else {
      rows();
      columns();
    }
  }

  ImageGeometry geometry_;
  OperatorSettings settings_;
  KernelShape kernel_;
  KernelPolynomial<T> poly_, w_poly_;
  int nu_ = 0, nv_ = 0, threads_ = 1;
  std::vector<double> corr_x_, corr_y_;
  std::unique_ptr<tbb::task_arena> arena_;
  AlignedBuffer<Complex> grid_;
  AlignedBuffer<Complex> accumulator_;        // streaming gridding adds here; grid_ holds the model
  AlignedBuffer<std::complex<double>> wide_;  // the accumulator with double_accumulation
  std::vector<BlockScales> scales_;
  std::vector<TilePlan> plans_;
  WStackLayout wstack_;
  std::optional<CpuTilePasses<T>> passes_;  // needs the grid size, known in the constructor body
};

}  // namespace

template <typename T>
std::unique_ptr<ImagingOperator<T>> makeCpuOperator(const ImageGeometry& geometry,
                                                    const OperatorSettings& settings) {
  return std::make_unique<CpuOperator<T>>(geometry, settings);
}

template std::unique_ptr<ImagingOperator<float>> makeCpuOperator<float>(const ImageGeometry&,
                                                                        const OperatorSettings&);
template std::unique_ptr<ImagingOperator<double>> makeCpuOperator<double>(const ImageGeometry&,
                                                                          const OperatorSettings&);

}  // namespace apertura::imaging
