#pragma once

// Internal to core/cuda: the double grid of a float operator's double accumulation
// (OperatorSettings::double_accumulation). Float products are added into it with double
// atomics, and it is transformed, corrected and copied out in double, so the sum over blocks
// (and over the processes that add the images later) is never rounded to float.
#include <cuda_runtime.h>
#include <cufft.h>

#include <complex>
#include <cstddef>
#include <string>
#include <vector>

#include "core/cuda/device_buffers.cuh"
#include "core/cuda/gridding_kernels.cuh"
#include "core/cuda/pinned_stager.cuh"

namespace apertura::cuda {

class WideAccumulator {
 public:
  WideAccumulator() = default;
  WideAccumulator(const WideAccumulator&) = delete;
  WideAccumulator& operator=(const WideAccumulator&) = delete;
  ~WideAccumulator() {
    if (plan_)
      cufftDestroy(plan_);
  }

  // Device bytes it needs besides the operator's own arrays (the FFT work area estimated).
  static std::size_t bytesNeeded(int nu, int nv, int nx, int ny) {
    const std::size_t cells = std::size_t(nu) * nv;
    std::size_t work = 0;
    if (cufftEstimate2d(nv, nu, CUFFT_Z2Z, &work) != CUFFT_SUCCESS)
      work = cells * sizeof(double2);
    return cells * sizeof(double2) + std::size_t(nx) * ny * sizeof(double2) +
           (std::size_t(nx) + ny) * sizeof(double) + work;
  }

  void allocate(const ByteCounter& bytes, int device, int nu, int nv, int nx, int ny,
                const std::vector<double>& corr_x, const std::vector<double>& corr_y,
                cudaStream_t stream) {
    for (auto* a : {&grid_, &image_})
      a->track(bytes);
    for (auto* a : {&corr_x_, &corr_y_})
      a->track(bytes);
    nu_ = nu, nv_ = nv, nx_ = nx, ny_ = ny;
    stream_ = stream;
    const std::string what = "the double-precision grid and image";
    grid_.reserve(std::size_t(nu) * nv, device, what);
    image_.reserve(std::size_t(nx) * ny, device, what);
    corr_x_.reserve(std::size_t(nx), device, what);
    corr_y_.reserve(std::size_t(ny), device, what);
    check(cudaMemcpy(corr_x_.data(), corr_x.data(), corr_x.size() * sizeof(double),
                     cudaMemcpyHostToDevice),
          "upload of the gridding correction");
    check(cudaMemcpy(corr_y_.data(), corr_y.data(), corr_y.size() * sizeof(double),
                     cudaMemcpyHostToDevice),
          "upload of the gridding correction");
    plan_ = makeFftPlan(nu, nv, CUFFT_Z2Z, stream, bytes);
  }

  double* grid() const { return reinterpret_cast<double*>(grid_.data()); }
  // For w-stacking, which transforms the grid once per plane and adds the planes' images.
  double2* cells() const { return grid_.data(); }
  double2* image() const { return image_.data(); }
  const double* corrX() const { return corr_x_.data(); }
  const double* corrY() const { return corr_y_.data(); }
  void inverseFft() {
    checkFft(Fft<double>::exec(plan_, grid_.data(), CUFFT_INVERSE), "inverse FFT (double grid)");
  }
  void zeroImage() {
    check(cudaMemsetAsync(image_.data(), 0, image_.size() * sizeof(double2), stream_),
          "cudaMemset (double image)");
  }

  void zero() {
    check(cudaMemsetAsync(grid_.data(), 0, grid_.size() * sizeof(double2), stream_),
          "cudaMemset (double grid)");
  }

  // The grid to the image in device memory: inverse FFT and correction (queued).
  const double2* transform(unsigned threads) {
    const std::size_t pixels = std::size_t(nx_) * ny_;
    inverseFft();
    const unsigned blocks = unsigned((pixels + threads - 1) / threads);
    correctionKernel<double, false><<<blocks, threads, 0, stream_>>>(
        nx_, ny_, nu_, nv_, grid_.data(), corr_x_.data(), corr_y_.data(), image_.data());
    check(cudaGetLastError(), "grid-to-image kernel launch (double grid)");
    return image_.data();
  }

  // The grid to the image on the host (synchronises).
  void finish(PinnedStager& stager, unsigned threads, std::complex<double>* image) {
    transform(threads);
    stager.download(image, image_.data(), std::size_t(nx_) * ny_ * sizeof(double2));
  }

 private:
  int nu_ = 0, nv_ = 0, nx_ = 0, ny_ = 0;
  cudaStream_t stream_ = nullptr;
  cufftHandle plan_ = 0;
  DeviceArray<double2> grid_, image_;
  DeviceArray<double> corr_x_, corr_y_;
};

}  // namespace apertura::cuda
