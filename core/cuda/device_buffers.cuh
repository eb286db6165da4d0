#pragma once

// Internal to core/cuda: CUDA error checks, device memory accounting and owning device/pinned
// buffers for the CUDA imaging operator (included by cuda_operator.cu only).
#include <cuda_runtime.h>
#include <cufft.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/util/input_error.h"

namespace apertura::cuda {
inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    throw std::runtime_error(std::string("CUDA error in ") + what + ": " +
                             cudaGetErrorString(status));
  }
}

inline void checkFft(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS)
    throw std::runtime_error(std::string("cuFFT error ") + std::to_string(int(status)) + " in " +
                             what);
}

inline std::string gib(double bytes) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2f GiB", bytes / 1073741824.0);
  return s;
}

inline std::string deviceName(int device) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess)
    return "?";
  return prop.name;
}

// Throws the user-facing error when `bytes` more do not fit in the device's free memory.
inline void requireDeviceMemory(int device, std::size_t bytes, const std::string& what) {
  std::size_t free_bytes = 0, total = 0;
  check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  if (bytes <= free_bytes)
    return;
  throw InputError("imaging.backend",
                   "CUDA device " + std::to_string(device) + " (" + deviceName(device) + ") has " +
                       gib(double(free_bytes)) + " free of " + gib(double(total)) +
                       ", but the CUDA operator needs " + gib(double(bytes)) + " for " + what +
                       "; use a smaller image or oversampling, or imaging.backend cpu");
}

// Device bytes held by one operator and its planned blocks (ImagingOperator::deviceBytes()).
// Shared, because a planned block handed to the caller may outlive its operator.
using ByteCounter = std::shared_ptr<std::atomic<std::int64_t>>;

template <typename U>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { release(); }

  // Makes room for n elements (contents not kept), checking free memory first.
  void reserve(std::size_t n, int device, const std::string& what) {
    if (n <= size_)
      return;
    release();
    requireDeviceMemory(device, n * sizeof(U), what);
    if (cudaMalloc(&ptr_, n * sizeof(U)) != cudaSuccess) {
      cudaGetLastError();
      ptr_ = nullptr;
      throw InputError("imaging.backend", "CUDA device " + std::to_string(device) + " (" +
                                              deviceName(device) + ") could not allocate " +
                                              gib(double(n * sizeof(U))) + " for " + what +
                                              " (memory fragmented or taken meanwhile)");
    }
    size_ = n;
    if (counter_)
      counter_->fetch_add(std::int64_t(n * sizeof(U)));
  }
  // Waits for queued work first: a kernel or copy may still use the old buffer.
  void release() {
    if (ptr_) {
      cudaDeviceSynchronize();
      cudaFree(ptr_);
      if (counter_)
        counter_->fetch_sub(std::int64_t(size_ * sizeof(U)));
    }
    ptr_ = nullptr;
    size_ = 0;
  }
  // Counts this array's allocations in `counter` from now on (call before the first reserve).
  void track(const ByteCounter& counter) { counter_ = counter; }
  U* data() const { return ptr_; }
  std::size_t size() const { return size_; }

 private:
  U* ptr_ = nullptr;
  std::size_t size_ = 0;
  ByteCounter counter_;
};

// Pinned host memory (page-locked, so copies run asynchronously at full bus speed).
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() {
    if (ptr_)
      cudaFreeHost(ptr_);
  }
  void allocate(std::size_t bytes) {
    check(cudaMallocHost(&ptr_, bytes), "cudaMallocHost (pinned staging buffer)");
  }
  char* data() const { return static_cast<char*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};

}  // namespace apertura::cuda
