// The CUDA backend of the imaging operator, first version: one thread per visibility, atomicAdd
// on the grid when gridding, cuFFT, and the CPU operator's kernel, grid size, correction and
// conventions (image pixel p goes to grid cell p - n/2 mod N, forward FFT exp(-2 pi i k n / N) for
// degridding, no normalisation), so CPU and CUDA results agree to the requested epsilon.
#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "core/cuda/cuda_operator.h"
#include "core/util/input_error.h"

#include "core/cuda/device_buffers.cuh"
#include "core/cuda/gridding_kernels.cuh"

namespace apertura::cuda {
namespace {

// A block for the streaming calls: its host arrays and per-channel scales, and, when planned with
// the blocks held in memory (planBlocks, setSamples) and the device has room, a resident copy of
// uvw and the scales; otherwise they are copied in through the pinned buffers on every call.
struct CudaPlannedBlock final : imaging::PlannedBlock {
  imaging::UvwBlock block;
  std::vector<double> scale_u, scale_v;
  DeviceArray<double> uvw, su, sv;
  bool resident = false;
};

template <typename T>
class CudaOperator final : public imaging::ImagingOperator<T> {
 public:
  using Complex = std::complex<T>;
  using DC = typename DeviceComplex<T>::type;

  explicit CudaOperator(const CudaOperatorConfig& c) : config_(c), device_(c.device) {
    if (c.settings.w_stacking)
      throw InputError("imaging.w_stacking",
                       "the CUDA backend does not do w-stacking yet: use imaging.backend cpu");
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
    for (auto* a : {&grid_, &accumulator_, &image_, &vis_})
      a->track(bytes_);
    for (auto* a : {&corr_x_, &corr_y_})
      a->track(bytes_);
    weights_.track(bytes_);
    for (auto* a : {&stage_uvw_, &stage_su_, &stage_sv_})
      a->track(bytes_);
    nu_ = c.packed.grid_u;
    nv_ = c.packed.grid_v;
    const std::size_t cells = std::size_t(nu_) * nv_;
    const std::size_t pixels = c.geometry.numPixels();
    std::size_t fft_work = 0;
    if (cufftEstimate2d(nv_, nu_, Fft<T>::kType, &fft_work) != CUFFT_SUCCESS)
      fft_work = cells * sizeof(DC);  // no estimate: assume a grid's worth
    const std::size_t needed = 2 * cells * sizeof(DC) + pixels * sizeof(DC) +
                               (c.geometry.nx + c.geometry.ny) * sizeof(T) + fft_work;
    requireDeviceMemory(device_, needed,
                        "two " + std::to_string(nu_) + "x" + std::to_string(nv_) +
                            " grids, the image and the FFT work area");
    const std::string what = "the grids and image";
    grid_.reserve(cells, device_, what);
    accumulator_.reserve(cells, device_, what);
    image_.reserve(pixels, device_, what);
    corr_x_.reserve(c.geometry.nx, device_, what);
    corr_y_.reserve(c.geometry.ny, device_, what);
    std::vector<T> cx(c.corr_x.begin(), c.corr_x.end()), cy(c.corr_y.begin(), c.corr_y.end());
    check(cudaMemcpy(corr_x_.data(), cx.data(), cx.size() * sizeof(T), cudaMemcpyHostToDevice),
          "upload of the gridding correction");
    check(cudaMemcpy(corr_y_.data(), cy.data(), cy.size() * sizeof(T), cudaMemcpyHostToDevice),
          "upload of the gridding correction");
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    for (cudaEvent_t& e : staged_)
      check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    for (PinnedBuffer& b : pinned_)
      b.allocate(kPinnedBytes);
    checkFft(cufftPlan2d(&plan_, nv_, nu_, Fft<T>::kType), "cufftPlan2d");
    checkFft(cufftSetStream(plan_, stream_), "cufftSetStream");
    std::size_t fft_bytes = 0;
    if (cufftGetSize(plan_, &fft_bytes) == CUFFT_SUCCESS)
      bytes_->fetch_add(std::int64_t(fft_bytes));
  }

  ~CudaOperator() override {
    // Copies from the pinned buffers may still be queued: finish them before anything is freed.
    cudaSetDevice(device_);
    if (stream_)
      cudaStreamSynchronize(stream_);
    if (plan_)
      cufftDestroy(plan_);
    for (cudaEvent_t e : staged_)
      if (e)
        cudaEventDestroy(e);
    if (stream_)
      cudaStreamDestroy(stream_);
  }

  void setSamples(const std::vector<imaging::UvwBlock>& blocks) override {
    selectDevice();
    held_.clear();
    for (auto& p : planBlocks(blocks))
      held_.emplace_back(static_cast<CudaPlannedBlock*>(p.release()));
  }

  void degrid(const Complex* image, const std::vector<Complex*>& vis) override {
    checkBlocks(vis.size());
    prepareDegrid(image);
    for (std::size_t b = 0; b < vis.size(); ++b)
      degridBlock(*held_[b], vis[b]);
  }

  void grid(const std::vector<const Complex*>& vis, const std::vector<const float*>& weights,
            Complex* image) override {
    checkBlocks(vis.size());
    if (weights.size() != vis.size())
      throw std::invalid_argument("grid: one weight pointer (or null) per block expected");
    selectDevice();
    check(cudaMemsetAsync(grid_.data(), 0, std::size_t(nu_) * nv_ * sizeof(DC), stream_),
          "cudaMemset (grid)");
    for (std::size_t b = 0; b < vis.size(); ++b)
      gridInto(grid_, *held_[b], vis[b], weights[b]);
    gridToImage(grid_, image);
  }

  std::unique_ptr<imaging::PlannedBlock> planBlock(const imaging::UvwBlock& block) override {
    return plan(block);
  }

  // Blocks held in memory: resident on the device when they fit in 80% of its free memory, else
  // copied in per call like blocks planned one at a time.
  std::vector<std::unique_ptr<imaging::PlannedBlock>> planBlocks(
      const std::vector<imaging::UvwBlock>& blocks) override {
    selectDevice();
    std::size_t bytes = 0;
    for (const imaging::UvwBlock& b : blocks)
      bytes += (3 * b.num_rows + 2 * b.num_channels) * sizeof(double);
    std::size_t free_bytes = 0, total = 0;
    check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
    const bool resident = bytes <= free_bytes / 5 * 4;
    std::vector<std::unique_ptr<imaging::PlannedBlock>> out;
    for (const imaging::UvwBlock& b : blocks) {
      auto p = plan(b);
      if (resident && b.numSamples() > 0) {
        const std::string what = "the uvw coordinates of the samples";
        for (auto* a : {&p->uvw, &p->su, &p->sv})
          a->track(bytes_);
        p->uvw.reserve(3 * b.num_rows, device_, what);
        p->su.reserve(b.num_channels, device_, what);
        p->sv.reserve(b.num_channels, device_, what);
        upload(p->uvw.data(), b.uvw_m, 3 * b.num_rows * sizeof(double));
        upload(p->su.data(), p->scale_u.data(), b.num_channels * sizeof(double));
        upload(p->sv.data(), p->scale_v.data(), b.num_channels * sizeof(double));
        p->resident = true;
      }
      out.push_back(std::move(p));
    }
    check(cudaStreamSynchronize(stream_), "upload of the uvw coordinates");
    return out;
  }

  void prepareDegrid(const Complex* image) override {
    selectDevice();
    const int nx = config_.geometry.nx, ny = config_.geometry.ny;
    upload(image_.data(), image, config_.geometry.numPixels() * sizeof(DC));
    check(cudaMemsetAsync(grid_.data(), 0, std::size_t(nu_) * nv_ * sizeof(DC), stream_),
          "cudaMemset (grid)");
    correctionKernel<T, true>
        <<<launchBlocks(config_.geometry.numPixels()), threads(), 0, stream_>>>(
            nx, ny, nu_, nv_, image_.data(), corr_x_.data(), corr_y_.data(), grid_.data());
    check(cudaGetLastError(), "image-to-grid kernel launch");
    checkFft(Fft<T>::exec(plan_, grid_.data(), CUFFT_FORWARD), "forward FFT");
  }

  void degridBlock(const imaging::PlannedBlock& planned, Complex* vis) override {
    selectDevice();
    const auto& b = static_cast<const CudaPlannedBlock&>(planned);
    const std::size_t n = b.block.numSamples();
    if (n == 0)
      return;
    const SampleArgs args = samplesOf(b);
    vis_.reserve(n, device_, "the visibilities of a block");
    degridKernel<T><<<launchBlocks(n), threads(), 0, stream_>>>(config_.packed, args, grid_.data(),
                                                                vis_.data());
    check(cudaGetLastError(), "degrid kernel launch");
    download(vis, vis_.data(), n * sizeof(DC));
  }

  void beginGrid() override {
    selectDevice();
    check(cudaMemsetAsync(accumulator_.data(), 0, std::size_t(nu_) * nv_ * sizeof(DC), stream_),
          "cudaMemset (grid)");
  }

  void gridBlock(const imaging::PlannedBlock& planned, const Complex* vis,
                 const float* weights) override {
    selectDevice();
    gridInto(accumulator_, static_cast<const CudaPlannedBlock&>(planned), vis, weights);
  }

  void endGrid(Complex* image) override {
    selectDevice();
    gridToImage(accumulator_, image);
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
           ") threads_per_block=" + std::to_string(config_.threads_per_block) + " " +
           config_.description;
  }

 private:
  // 32 MiB per pinned buffer; two of them alternate so the host copy of one piece overlaps the
  // transfer of the other.
  static constexpr std::size_t kPinnedBytes = std::size_t(32) << 20;

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

  std::unique_ptr<CudaPlannedBlock> plan(const imaging::UvwBlock& block) const {
    auto p = std::make_unique<CudaPlannedBlock>();
    p->block = block;
    for (std::size_t c = 0; c < block.num_channels; ++c) {
      const double f = block.frequencies_hz[c] / imaging::kSpeedOfLight;
      p->scale_u.push_back(f * config_.geometry.cell_l * nu_);
      p->scale_v.push_back(f * config_.geometry.cell_m * nv_);
    }
    return p;
  }

  // The block's coordinates on the device, copied into the staging arrays when not resident.
  SampleArgs samplesOf(const CudaPlannedBlock& b) {
    SampleArgs a;
    a.count = b.block.numSamples();
    a.channels = b.block.num_channels;
    if (b.resident) {
      a.uvw = b.uvw.data();
      a.scale_u = b.su.data();
      a.scale_v = b.sv.data();
      return a;
    }
    const std::string what = "the uvw coordinates of a block";
    stage_uvw_.reserve(3 * b.block.num_rows, device_, what);
    stage_su_.reserve(b.block.num_channels, device_, what);
    stage_sv_.reserve(b.block.num_channels, device_, what);
    upload(stage_uvw_.data(), b.block.uvw_m, 3 * b.block.num_rows * sizeof(double));
    upload(stage_su_.data(), b.scale_u.data(), b.block.num_channels * sizeof(double));
    upload(stage_sv_.data(), b.scale_v.data(), b.block.num_channels * sizeof(double));
    a.uvw = stage_uvw_.data();
    a.scale_u = stage_su_.data();
    a.scale_v = stage_sv_.data();
    return a;
  }

  void gridInto(DeviceArray<DC>& target, const CudaPlannedBlock& b, const Complex* vis,
                const float* weights) {
    const std::size_t n = b.block.numSamples();
    if (n == 0)
      return;
    const SampleArgs args = samplesOf(b);
    vis_.reserve(n, device_, "the visibilities of a block");
    upload(vis_.data(), vis, n * sizeof(DC));
    if (weights) {
      weights_.reserve(n, device_, "the weights of a block");
      upload(weights_.data(), weights, n * sizeof(float));
    }
    gridKernel<T><<<launchBlocks(n), threads(), 0, stream_>>>(config_.packed, args, vis_.data(),
                                                              weights ? weights_.data() : nullptr,
                                                              reinterpret_cast<T*>(target.data()));
    check(cudaGetLastError(), "grid kernel launch");
  }

  void gridToImage(DeviceArray<DC>& source, Complex* image) {
    const int nx = config_.geometry.nx, ny = config_.geometry.ny;
    checkFft(Fft<T>::exec(plan_, source.data(), CUFFT_INVERSE), "inverse FFT");
    correctionKernel<T, false>
        <<<launchBlocks(config_.geometry.numPixels()), threads(), 0, stream_>>>(
            nx, ny, nu_, nv_, source.data(), corr_x_.data(), corr_y_.data(), image_.data());
    check(cudaGetLastError(), "grid-to-image kernel launch");
    download(image, image_.data(), config_.geometry.numPixels() * sizeof(DC));
  }

  // Host (pageable) -> device through the two pinned buffers; returns once the host data are
  // copied out (the caller may reuse them), the transfers may still run on the stream.
  void upload(void* device_dst, const void* host_src, std::size_t bytes) {
    const char* src = static_cast<const char*>(host_src);
    char* dst = static_cast<char*>(device_dst);
    for (std::size_t off = 0, k = 0; off < bytes; off += kPinnedBytes, ++k) {
      const std::size_t len = std::min(kPinnedBytes, bytes - off);
      const std::size_t i = k % 2;
      check(cudaEventSynchronize(staged_[i]), "staging buffer wait");
      std::memcpy(pinned_[i].data(), src + off, len);
      check(cudaMemcpyAsync(dst + off, pinned_[i].data(), len, cudaMemcpyHostToDevice, stream_),
            "host-to-device copy");
      check(cudaEventRecord(staged_[i], stream_), "cudaEventRecord");
    }
  }

  // Device -> host through the pinned buffers, piece k + 1 in flight while piece k is copied out;
  // synchronises with everything queued before (kernel errors surface here).
  void download(void* host_dst, const void* device_src, std::size_t bytes) {
    const char* src = static_cast<const char*>(device_src);
    char* dst = static_cast<char*>(host_dst);
    const std::size_t pieces = (bytes + kPinnedBytes - 1) / kPinnedBytes;
    auto issue = [&](std::size_t k) {
      const std::size_t off = k * kPinnedBytes, len = std::min(kPinnedBytes, bytes - off);
      check(cudaMemcpyAsync(pinned_[k % 2].data(), src + off, len, cudaMemcpyDeviceToHost, stream_),
            "device-to-host copy");
      check(cudaEventRecord(staged_[k % 2], stream_), "cudaEventRecord");
    };
    if (pieces > 0)
      issue(0);
    for (std::size_t k = 0; k < pieces; ++k) {
      if (k + 1 < pieces)
        issue(k + 1);
      check(cudaEventSynchronize(staged_[k % 2]), "device-to-host copy");
      const std::size_t off = k * kPinnedBytes, len = std::min(kPinnedBytes, bytes - off);
      std::memcpy(dst + off, pinned_[k % 2].data(), len);
    }
    check(cudaStreamSynchronize(stream_), "operator kernels");
  }

  CudaOperatorConfig config_;
  ByteCounter bytes_ = std::make_shared<std::atomic<std::int64_t>>(0);
  int device_ = 0;
  int nu_ = 0, nv_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t staged_[2] = {nullptr, nullptr};
  PinnedBuffer pinned_[2];
  cufftHandle plan_ = 0;
  DeviceArray<DC> grid_;         // model grid (prepareDegrid) and the whole-call grid()
  DeviceArray<DC> accumulator_;  // streaming gridding adds here
  DeviceArray<DC> image_;
  DeviceArray<T> corr_x_, corr_y_;
  DeviceArray<DC> vis_;
  DeviceArray<float> weights_;
  DeviceArray<double> stage_uvw_, stage_su_, stage_sv_;
  std::vector<std::unique_ptr<CudaPlannedBlock>> held_;  // setSamples()
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
