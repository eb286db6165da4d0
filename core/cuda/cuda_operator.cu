// The CUDA backend of the imaging operator: its grids, image, cuFFT and correction, and the calls
// of ImagingOperator over the passes of block_passes.cuh (tiled or one thread per sample) and
// w_stack_passes.cuh (w-stacking), with the CPU operator's kernel, grid size, correction and
// conventions (image pixel p goes to grid cell p - n/2 mod N, forward FFT exp(-2 pi i k n / N) for
// degridding, no normalisation), so CPU and CUDA results agree to the requested epsilon.
#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/cuda/cuda_operator.h"
#include "core/util/input_error.h"

#include "core/cuda/block_passes.cuh"
#include "core/cuda/block_samples.cuh"
#include "core/cuda/chi2_sums.cuh"
#include "core/cuda/cuda_vector_space.cuh"
#include "core/cuda/device_buffers.cuh"
#include "core/cuda/gridding_kernels.cuh"
#include "core/cuda/pinned_stager.cuh"
#include "core/cuda/tiled_gridding.cuh"
#include "core/cuda/w_stack_passes.cuh"
#include "core/cuda/wide_accumulator.cuh"

namespace apertura::cuda {
namespace {

template <typename T>
class CudaOperator final : public imaging::ImagingOperator<T> {
 public:
  using Complex = std::complex<T>;
  using DC = typename DeviceComplex<T>::type;

  explicit CudaOperator(const CudaOperatorConfig& c) : config_(c), device_(c.device) {
    if (c.settings.w_stacking && !c.plan_w_stack)
      throw std::invalid_argument("CUDA operator: w-stacking without a plane planner");
    if (c.threads_per_block < 32 || c.threads_per_block > 1024 || c.threads_per_block % 32)
      throw InputError("APERTURA_CUDA_THREADS",
                       "threads per block must be 32..1024, a multiple "
                       "of 32");
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device_ < 0 || device_ >= count) {
      cudaGetLastError();
      throw InputError("imaging.gpu_device", "CUDA device " + std::to_string(device_) +
                                                 " does not exist (" + std::to_string(count) +
                                                 " found)");
    }
    selectDevice();
    for (auto* a : {&grid_, &accumulator_, &image_})
      a->track(bytes_);
    for (auto* a : {&corr_x_, &corr_y_})
      a->track(bytes_);
    nu_ = c.packed.grid_u;
    nv_ = c.packed.grid_v;
    const std::size_t cells = std::size_t(nu_) * nv_;
    const std::size_t pixels = c.geometry.numPixels();
    const std::size_t lines = std::size_t(c.geometry.nx) + c.geometry.ny;
    std::size_t fft_work = 0;
    if (cufftEstimate2d(nv_, nu_, Fft<T>::kType, &fft_work) != CUFFT_SUCCESS)
      fft_work = cells * sizeof(DC);  // no estimate: assume a grid's worth
    // With double accumulation the streaming and whole-call gridding add into a double grid
    // (in place of the T accumulator), transformed and corrected in double.
    std::size_t needed =
        2 * cells * sizeof(DC) + pixels * sizeof(DC) + lines * sizeof(T) + fft_work;
    if (wideAccumulation())  // the double grid and its parts replace the T accumulator
      needed +=
          WideAccumulator::bytesNeeded(nu_, nv_, c.geometry.nx, c.geometry.ny) - cells * sizeof(DC);
    requireDeviceMemory(device_, needed,
                        "two " + std::to_string(nu_) + "x" + std::to_string(nv_) + " grids" +
                            (wideAccumulation() ? " (one in double)" : "") +
                            ", the image and the FFT work area");
    const std::string what = "the grids and image";
    grid_.reserve(cells, device_, what);
    image_.reserve(pixels, device_, what);
    corr_x_.reserve(c.geometry.nx, device_, what);
    corr_y_.reserve(c.geometry.ny, device_, what);
    const std::vector<T> cx(c.corr_x.begin(), c.corr_x.end()), cy(c.corr_y.begin(), c.corr_y.end());
    check(cudaMemcpy(corr_x_.data(), cx.data(), cx.size() * sizeof(T), cudaMemcpyHostToDevice),
          "upload of the gridding correction");
    check(cudaMemcpy(corr_y_.data(), cy.data(), cy.size() * sizeof(T), cudaMemcpyHostToDevice),
          "upload of the gridding correction");
    sums_.allocate(bytes_, device_);
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    stager_.attach(stream_);
    plan_ = makeFftPlan(nu_, nv_, Fft<T>::kType, stream_, bytes_);
    const PassContext passes{c.packed, c.geometry, stream_, threads(), device_, bytes_};
    blocks_.emplace(passes, stager_, samples_, sums_);
    wstack_.emplace(passes, stager_, samples_, sums_);
    if (wideAccumulation())
      wide_.allocate(bytes_, device_, nu_, nv_, c.geometry.nx, c.geometry.ny, c.corr_x, c.corr_y,
                     stream_);
    else
      accumulator_.reserve(cells, device_, what);
  }

  ~CudaOperator() override {
    // Copies from the pinned buffers may still be queued: finish them before anything is freed.
    cudaSetDevice(device_);
    if (stream_)
      cudaStreamSynchronize(stream_);
    if (plan_)
      cufftDestroy(plan_);
    if (stream_)
      cudaStreamDestroy(stream_);
  }

  void setSamples(const std::vector<imaging::UvwBlock>& blocks) override {
    selectDevice();
    held_.clear();
    imaging::WStackLayout layout;
    if (config_.settings.w_stacking)
      layout = config_.plan_w_stack(blocks);
    wstack_->setPlanes(layout);  // before the blocks are planned: they take its scales
    for (auto& p : blocks_->planHeld(blocks, wstack_->planes(), config_.tiled_gridding))
      held_.emplace_back(static_cast<CudaPlannedBlock*>(p.release()));
    if (layout.active)
      wstack_->prepare(layout, held_, config_.tiled_gridding);
  }

  void degrid(const Complex* image, const std::vector<Complex*>& vis) override {
    checkBlocks(vis.size());
    if (wstack_->active()) {
      selectDevice();
      stager_.upload(image_.data(), image, config_.geometry.numPixels() * sizeof(DC));
      wstack_->degrid(
          held_, image_.data(), grid_.data(), [&] { fft(grid_, CUFFT_FORWARD); }, corr_x_.data(),
          corr_y_.data(), vis);
      return;
    }
    prepareModel(image);
    for (std::size_t b = 0; b < vis.size(); ++b)
      blocks_->degrid(*held_[b], grid_.data(), vis[b]);
  }

  void grid(const std::vector<const Complex*>& vis, const std::vector<const float*>& weights,
            Complex* image) override {
    checkBlocks(vis.size(), weights.size());
    selectDevice();
    if (wideAccumulation()) {
      narrowed([&](std::complex<double>* wide) { gridDouble(vis, weights, wide); }, image);
      return;
    }
    if (wstack_->active()) {
      wstack_->grid(
          held_, vis, weights, grid_.data(), [&] { fft(grid_, CUFFT_INVERSE); }, corr_x_.data(),
          corr_y_.data(), image_.data());
      stager_.download(image, image_.data(), config_.geometry.numPixels() * sizeof(DC));
      return;
    }
    zero(grid_);
    for (std::size_t b = 0; b < vis.size(); ++b)
      blocks_->grid(reinterpret_cast<T*>(grid_.data()), *held_[b], vis[b], weights[b]);
    gridToImage(grid_, image);
  }

  void gridDouble(const std::vector<const Complex*>& vis, const std::vector<const float*>& weights,
                  std::complex<double>* image) override {
    if (!wideAccumulation()) {
      imaging::ImagingOperator<T>::gridDouble(vis, weights, image);
      return;
    }
    checkBlocks(vis.size(), weights.size());
    selectDevice();
    if (wstack_->active()) {
      wstack_->grid(
          held_, vis, weights, wide_.cells(), [&] { wide_.inverseFft(); }, wide_.corrX(),
          wide_.corrY(), wide_.image());
      stager_.download(image, wide_.image(),
                       config_.geometry.numPixels() * sizeof(std::complex<double>));
      return;
    }
    wide_.zero();
    for (std::size_t b = 0; b < vis.size(); ++b)
      blocks_->grid(wide_.grid(), *held_[b], vis[b], weights[b]);
    wide_.finish(stager_, threads(), image);
  }

  std::unique_ptr<imaging::PlannedBlock> planBlock(const imaging::UvwBlock& block) override {
    requireNoWStacking();
    return blocks_->plan(block, wstack_->planes());
  }

  std::vector<std::unique_ptr<imaging::PlannedBlock>> planBlocks(
      const std::vector<imaging::UvwBlock>& blocks) override {
    requireNoWStacking();
    selectDevice();
    return blocks_->planHeld(blocks, wstack_->planes(), config_.tiled_gridding);
  }

  void prepareDegrid(const Complex* image) override {
    requireNoWStacking();
    prepareModel(image);
  }

  compute::VectorSpace* vectorSpace() override {
    if (!space_) {
      selectDevice();
      space_ = std::make_unique<CudaVectorSpace>(device_, stream_, bytes_);
    }
    return space_.get();
  }

  void prepareDegridResident(const compute::SpaceVector& image) override {
    requireNoWStacking();
    selectDevice();
    checkPixels(image);
    static_cast<CudaVectorSpace*>(vectorSpace())->toComplex(image, image_.data());
    imageToModelGrid();
  }

  void endGridResident(double scale, compute::SpaceVector& image) override {
    requireNoWStacking();
    selectDevice();
    checkPixels(image);
    auto* space = static_cast<CudaVectorSpace*>(vectorSpace());
    if (wideAccumulation()) {
      space->addReal(scale, wide_.transform(threads()), image);
    } else {
      accumulatorToImage();
      space->addReal(scale, image_.data(), image);
    }
  }

  void degridBlock(const imaging::PlannedBlock& planned, Complex* vis) override {
    selectDevice();
    blocks_->degrid(static_cast<const CudaPlannedBlock&>(planned), grid_.data(), vis);
  }

  void beginGrid() override {
    requireNoWStacking();
    selectDevice();
    if (wideAccumulation())
      wide_.zero();
    else
      zero(accumulator_);
  }

  void gridBlock(const imaging::PlannedBlock& planned, const Complex* vis,
                 const float* weights) override {
    selectDevice();
    const auto& b = static_cast<const CudaPlannedBlock&>(planned);
    if (wideAccumulation())
      blocks_->grid(wide_.grid(), b, vis, weights);
    else
      blocks_->grid(reinterpret_cast<T*>(accumulator_.data()), b, vis, weights);
  }

  void endGrid(Complex* image) override {
    selectDevice();
    if (!wideAccumulation()) {
      gridToImage(accumulator_, image);
      return;
    }
    narrowed([&](std::complex<double>* wide) { wide_.finish(stager_, threads(), wide); }, image);
  }

  void endGridDouble(std::complex<double>* image) override {
    if (!wideAccumulation()) {
      imaging::ImagingOperator<T>::endGridDouble(image);
      return;
    }
    selectDevice();
    wide_.finish(stager_, threads(), image);
  }

  bool formsResiduals() const override { return true; }

  // The chi2 pass: the samples' model, residual and w |r|^2 per thread, the residual spread onto
  // the streaming grid at once (through the tiles' patches for a block with a tile plan), and a
  // fixed set of per-block partial sums for chi2.
  double residualBlock(const imaging::PlannedBlock& planned, const std::complex<float>* vis,
                       const float* weights, bool grid) override {
    requireNoWStacking();
    if (!weights)
      throw std::invalid_argument("residualBlock: the weights are required");
    selectDevice();
    const auto& b = static_cast<const CudaPlannedBlock&>(planned);
    if (!grid)
      return blocks_->chi2(b, vis, weights, grid_.data(), static_cast<T*>(nullptr));
    if (wideAccumulation())
      return blocks_->chi2(b, vis, weights, grid_.data(), wide_.grid());
    return blocks_->chi2(b, vis, weights, grid_.data(), reinterpret_cast<T*>(accumulator_.data()));
  }

  // w-stacking's chi2 pass with the images resident: the planes' degridding into the held
  // samples' model, the residuals against the measured data kept on the device, the planes'
  // gridding; nothing but chi2 comes back to the host.
  bool formsHeldResiduals() const override { return wstack_->active(); }
  double heldResiduals(const std::vector<const std::complex<float>*>& vis,
                       const std::vector<const float*>& weights, const compute::SpaceVector& image,
                       compute::SpaceVector* gradient, double scale) override {
    if (!wstack_->active())
      throw std::logic_error("heldResiduals: only with w-stacking");
    checkBlocks(vis.size(), weights.size());
    selectDevice();
    checkPixels(image);
    if (gradient)
      checkPixels(*gradient);
    auto* space = static_cast<CudaVectorSpace*>(vectorSpace());
    space->toComplex(image, image_.data());
    const double chi2 = wstack_->residuals(
        held_, image_.data(), grid_.data(), [&] { fft(grid_, CUFFT_FORWARD); }, corr_x_.data(),
        corr_y_.data(), vis, weights);
    if (!gradient)
      return chi2;
    if (wideAccumulation()) {
      wstack_->gridResiduals(
          held_, wide_.cells(), [&] { wide_.inverseFft(); }, wide_.corrX(), wide_.corrY(),
          wide_.image());
      space->addReal(scale, wide_.image(), *gradient);
    } else {
      wstack_->gridResiduals(
          held_, grid_.data(), [&] { fft(grid_, CUFFT_INVERSE); }, corr_x_.data(), corr_y_.data(),
          image_.data());
      space->addReal(scale, image_.data(), *gradient);
    }
    return chi2;
  }

  const imaging::ImageGeometry& geometry() const override { return config_.geometry; }
  const imaging::KernelShape& kernel() const override { return config_.kernel; }
  int gridCellsX() const override { return nu_; }
  int gridCellsY() const override { return nv_; }
  std::uint64_t deviceBytes() const override {
    return std::uint64_t(std::max<std::int64_t>(0, bytes_->load()));
  }
  std::string describe() const override {
    return "backend=cuda device=" + std::to_string(device_) + " (" + deviceName(device_) +
           ") threads_per_block=" + std::to_string(config_.threads_per_block) +
           (config_.tiled_gridding ? " gridder=tiled " : " gridder=simple ") + config_.description +
           " wstack_planes=" + std::to_string(wstack_->planes().planes) + " " +
           config_.description_tail;
  }

 private:
  void selectDevice() const { check(cudaSetDevice(device_), "cudaSetDevice"); }
  unsigned threads() const { return unsigned(config_.threads_per_block); }
  unsigned launchBlocks(std::size_t n) const {
    return unsigned((n + config_.threads_per_block - 1) / config_.threads_per_block);
  }

  void checkBlocks(std::size_t n) const {
    if (n != held_.size())
      throw std::invalid_argument(
          "operator called with a different number of blocks than setSamples() was given");
  }
  void checkBlocks(std::size_t n, std::size_t weights) const {
    checkBlocks(n);
    if (weights != n)
      throw std::invalid_argument("one weight pointer (or null) per block expected");
  }

  void prepareModel(const Complex* image) {
    selectDevice();
    stager_.upload(image_.data(), image, config_.geometry.numPixels() * sizeof(DC));
    imageToModelGrid();
  }

  void requireNoWStacking() const {
    if (config_.settings.w_stacking)
      throw InputError("imaging.w_stacking",
                       "w-stacking needs every visibility in memory (one pass per w plane): "
                       "it cannot be used with streaming data");
  }

  void fft(DeviceArray<DC>& grid, int direction) {
    checkFft(Fft<T>::exec(plan_, grid.data(), direction),
             direction == CUFFT_FORWARD ? "forward FFT" : "inverse FFT");
  }

  // The image in image_ to the model grid: correction, padding, forward FFT.
  void imageToModelGrid() {
    const int nx = config_.geometry.nx, ny = config_.geometry.ny;
    zero(grid_);
    correctionKernel<T, true>
        <<<launchBlocks(config_.geometry.numPixels()), threads(), 0, stream_>>>(
            nx, ny, nu_, nv_, image_.data(), corr_x_.data(), corr_y_.data(), grid_.data());
    check(cudaGetLastError(), "image-to-grid kernel launch");
    checkFft(Fft<T>::exec(plan_, grid_.data(), CUFFT_FORWARD), "forward FFT");
  }

  // `source` to the image in image_: inverse FFT, correction (queued).
  void transformToImage(DeviceArray<DC>& source) {
    const int nx = config_.geometry.nx, ny = config_.geometry.ny;
    checkFft(Fft<T>::exec(plan_, source.data(), CUFFT_INVERSE), "inverse FFT");
    correctionKernel<T, false>
        <<<launchBlocks(config_.geometry.numPixels()), threads(), 0, stream_>>>(
            nx, ny, nu_, nv_, source.data(), corr_x_.data(), corr_y_.data(), image_.data());
    check(cudaGetLastError(), "grid-to-image kernel launch");
  }
  void accumulatorToImage() { transformToImage(accumulator_); }

  void gridToImage(DeviceArray<DC>& source, Complex* image) {
    transformToImage(source);
    stager_.download(image, image_.data(), config_.geometry.numPixels() * sizeof(DC));
  }

  void checkPixels(const compute::SpaceVector& image) const {
    if (image.size() != config_.geometry.numPixels())
      throw std::invalid_argument("CUDA operator: a resident image of the wrong size");
  }

  template <typename U>
  void zero(DeviceArray<U>& a) {
    check(cudaMemsetAsync(a.data(), 0, a.size() * sizeof(U), stream_), "cudaMemset (grid)");
  }

  // An image that `fill` writes in double (double accumulation), rounded to T into `image`.
  template <typename Fill>
  void narrowed(Fill fill, Complex* image) {
    std::vector<std::complex<double>> wide(config_.geometry.numPixels());
    fill(wide.data());
    std::copy(wide.begin(), wide.end(), image);
  }

  bool wideAccumulation() const {
    return std::is_same_v<T, float> && config_.settings.double_accumulation;
  }

  CudaOperatorConfig config_;
  ByteCounter bytes_ = std::make_shared<std::atomic<std::int64_t>>(0);
  int device_ = 0;
  int nu_ = 0, nv_ = 0;
  cudaStream_t stream_ = nullptr;
  PinnedStager stager_;
  cufftHandle plan_ = 0;
  DeviceArray<DC> grid_;         // model grid (prepareDegrid) and the whole-call grid()
  DeviceArray<DC> accumulator_;  // streaming gridding adds here (without double accumulation)
  DeviceArray<DC> image_;
  DeviceArray<T> corr_x_, corr_y_;
  WideAccumulator wide_;  // double accumulation: all gridding adds here instead
  Chi2Sums sums_;         // the chi2 passes' partial sums
  BlockSamples samples_{stager_, device_, bytes_};  // where a block's samples are on the device
  std::vector<std::unique_ptr<CudaPlannedBlock>> held_;  // setSamples()
  std::unique_ptr<CudaVectorSpace> space_;               // resident images (made on first use)
  // The passes over blocks, without w-stacking and with it (made once the stream exists).
  std::optional<BlockPasses<T>> blocks_;
  std::optional<WStackPasses<T>> wstack_;
};

}  // namespace

template <typename T>
std::unique_ptr<imaging::ImagingOperator<T>> makeCudaOperator(const CudaOperatorConfig& config) {
  return std::make_unique<CudaOperator<T>>(config);
}

template std::unique_ptr<imaging::ImagingOperator<float>> makeCudaOperator<float>(
    const CudaOperatorConfig&);
template std::unique_ptr<imaging::ImagingOperator<double>> makeCudaOperator<double>(
    const CudaOperatorConfig&);

}  // namespace apertura::cuda
