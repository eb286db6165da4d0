#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

namespace apertura::imaging {

// A 64-byte aligned array (FFTW's SIMD codelets and the tile loops like aligned rows). Contents are
// uninitialised after resize().
template <typename T>
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t n) { resize(n); }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer() { std::free(data_); }

  void resize(std::size_t n) {
    if (n == size_)
      return;
    std::free(data_);
    data_ = nullptr;
    size_ = 0;
    if (n == 0)
      return;
    const std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    data_ = static_cast<T*>(std::aligned_alloc(64, bytes));
    if (!data_)
      throw std::bad_alloc();
    size_ = n;
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace apertura::imaging
