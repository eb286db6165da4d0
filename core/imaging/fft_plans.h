#pragma once

#include <complex>

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

}  // namespace apertura::imaging
