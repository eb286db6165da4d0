#pragma once

#include <complex>
#include <memory>

namespace apertura::imaging {

// Batched 1-D complex FFTs in place through FFTW3 (float and double). Plans are created once per
// shape (length, batch, strides, sign, threads, alignment) and cached for the life of the process;
// FFTW's planner is not thread-safe, so creation is serialised by a mutex while execution of
// cached plans runs concurrently. `forward` uses exp(-2 pi i k n / N); neither direction scales.
// Element j of transform b sits at data[b * dist + j * stride].
// Smallest even size >= max(n, 16) with no prime factor above 7 (fast FFTW sizes).
int goodFftSize(int n);

template <typename T>
void fftMany(std::complex<T>* data, int length, int howmany, int stride, int dist, bool forward,
             int threads);

// A 2-D real-to-complex transform of an ny x nx real array (x fastest) to its ny x (nx / 2 + 1)
// half spectrum, and back (unscaled), out of place in double, planned once (FFTW's planner
// serialised as above). `real` and `spectrum` are the buffers the transforms read and write.
class RealFft2d {
 public:
  RealFft2d(int nx, int ny, int threads);
  ~RealFft2d();
  RealFft2d(const RealFft2d&) = delete;
  RealFft2d& operator=(const RealFft2d&) = delete;

  double* real();
  std::complex<double>* spectrum();
  std::size_t spectrumSize() const;
  void forward();  // real -> spectrum
  void inverse();  // spectrum -> real (the spectrum is overwritten)

 private:
  struct Plans;
  std::unique_ptr<Plans> plans_;
};

}  // namespace apertura::imaging
