#pragma once

// Internal to core/cuda: host <-> device copies of pageable host memory through two pinned
// (page-locked) buffers that alternate, so the host copy of one piece overlaps the transfer of
// the other and the copies run at full bus speed.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <thread>
#include <vector>

#include "core/cuda/device_buffers.cuh"

namespace apertura::cuda {

// One thread copies pageable memory at a few GB/s, well below the bus: large pieces are copied
// by several threads, each taking a contiguous slice.
inline void parallelCopy(char* dst, const char* src, std::size_t bytes) {
  constexpr std::size_t kSlice = std::size_t(4) << 20;
  const std::size_t threads =
      std::min<std::size_t>({8, std::max(1u, std::thread::hardware_concurrency()), bytes / kSlice});
  if (threads < 2) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const std::size_t part = (bytes + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) {
    const std::size_t off = t * part, len = off < bytes ? std::min(part, bytes - off) : 0;
    pool.emplace_back([=] { std::memcpy(dst + off, src + off, len); });
  }
  std::memcpy(dst, src, std::min(part, bytes));
  for (std::thread& t : pool)
    t.join();
}

class PinnedStager {
 public:
  PinnedStager() = default;
  PinnedStager(const PinnedStager&) = delete;
  PinnedStager& operator=(const PinnedStager&) = delete;
  // The owner synchronises `stream` before this is destroyed.
  ~PinnedStager() {
    for (cudaEvent_t e : staged_)
      if (e)
        cudaEventDestroy(e);
  }

  void attach(cudaStream_t stream) {
    stream_ = stream;
    for (cudaEvent_t& e : staged_)
      check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    for (PinnedBuffer& b : pinned_)
      b.allocate(kPieceBytes);
  }

  // Returns once the host data are copied out (the caller may reuse them); the transfers may
  // still run on the stream.
  void upload(void* device_dst, const void* host_src, std::size_t bytes) {
    const char* src = static_cast<const char*>(host_src);
    char* dst = static_cast<char*>(device_dst);
    for (std::size_t off = 0, k = 0; off < bytes; off += kPieceBytes, ++k) {
      const std::size_t len = std::min(kPieceBytes, bytes - off);
      const std::size_t i = k % 2;
      check(cudaEventSynchronize(staged_[i]), "staging buffer wait");
      parallelCopy(static_cast<char*>(pinned_[i].data()), src + off, len);
      check(cudaMemcpyAsync(dst + off, pinned_[i].data(), len, cudaMemcpyHostToDevice, stream_),
            "host-to-device copy");
      check(cudaEventRecord(staged_[i], stream_), "cudaEventRecord");
    }
  }

  // Piece k + 1 in flight while piece k is copied out; synchronises with everything queued
  // before on the stream (kernel errors surface here).
  void download(void* host_dst, const void* device_src, std::size_t bytes) {
    const char* src = static_cast<const char*>(device_src);
    char* dst = static_cast<char*>(host_dst);
    const std::size_t pieces = (bytes + kPieceBytes - 1) / kPieceBytes;
    auto issue = [&](std::size_t k) {
      const std::size_t off = k * kPieceBytes, len = std::min(kPieceBytes, bytes - off);
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
      const std::size_t off = k * kPieceBytes, len = std::min(kPieceBytes, bytes - off);
      parallelCopy(dst + off, static_cast<const char*>(pinned_[k % 2].data()), len);
    }
    check(cudaStreamSynchronize(stream_), "operator kernels");
  }

 private:
  static constexpr std::size_t kPieceBytes = std::size_t(32) << 20;  // per pinned buffer

  cudaStream_t stream_ = nullptr;
  cudaEvent_t staged_[2] = {nullptr, nullptr};
  PinnedBuffer pinned_[2];
};

}  // namespace apertura::cuda
