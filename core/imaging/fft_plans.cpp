#include "core/imaging/fft_plans.h"

#include <fftw3.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

namespace apertura::imaging {

int goodFftSize(int n) {
  for (int m = std::max(n, 16);; ++m) {
    if (m % 2)
      continue;
    int r = m;
    for (int p : {2, 3, 5, 7})
      while (r % p == 0)
        r /= p;
    if (r == 1)
      return m;
  }
}

namespace {

using Key = std::tuple<int, int, int, int, int, int, int>;

// FFTW's own worker threads wait forever for a thread that could not be created (seen under
// `ulimit -v`: a run hung and Ctrl-C could not end it). Its parallel loops run on oneTBB
// instead, which runs the jobs on fewer threads, or on the caller's, when it cannot start more;
// inside a task arena they also respect that arena's thread count.
extern "C" void aperturaFftwParallelLoop(void* (*work)(char*), char* jobdata, size_t elsize,
                                         int njobs, void* /*data*/) {
  tbb::parallel_for(0, njobs, [&](int i) { work(jobdata + elsize * static_cast<size_t>(i)); });
}

std::mutex& plannerMutex() {
  static std::mutex m;
  return m;
}

// FFTW plans for one precision; the traits select the fftw_ / fftwf_ API.
template <typename T>
struct Fftw;

template <>
struct Fftw<double> {
  using Plan = fftw_plan;
  using Cx = fftw_complex;
  static void initThreads() {
    fftw_init_threads();
    fftw_threads_set_callback(aperturaFftwParallelLoop, nullptr);
  }
  static void setThreads(int n) { fftw_plan_with_nthreads(n); }
  static int alignment(double* p) { return fftw_alignment_of(p); }
  static Plan plan(int n, int howmany, Cx* d, int stride, int dist, int sign) {
    return fftw_plan_many_dft(1, &n, howmany, d, nullptr, stride, dist, d, nullptr, stride, dist,
                              sign, FFTW_ESTIMATE);
  }
  static void execute(Plan p, Cx* d) { fftw_execute_dft(p, d, d); }
};

template <>
struct Fftw<float> {
  using Plan = fftwf_plan;
  using Cx = fftwf_complex;
  static void initThreads() {
    fftwf_init_threads();
    fftwf_threads_set_callback(aperturaFftwParallelLoop, nullptr);
  }
  static void setThreads(int n) { fftwf_plan_with_nthreads(n); }
  static int alignment(float* p) { return fftwf_alignment_of(p); }
  static Plan plan(int n, int howmany, Cx* d, int stride, int dist, int sign) {
    return fftwf_plan_many_dft(1, &n, howmany, d, nullptr, stride, dist, d, nullptr, stride, dist,
                               sign, FFTW_ESTIMATE);
  }
  static void execute(Plan p, Cx* d) { fftwf_execute_dft(p, d, d); }
};

// Once per precision, with the planner mutex held.
template <typename T>
void ensureThreads() {
  static bool threads_ready = false;
  if (!threads_ready) {
    Fftw<T>::initThreads();
    threads_ready = true;
  }
}

template <typename T>
typename Fftw<T>::Plan cachedPlan(std::complex<T>* data, int length, int howmany, int stride,
                                  int dist, bool forward, int threads) {
  using F = Fftw<T>;
  static std::map<Key, typename F::Plan> cache;  // guarded by plannerMutex()
  const int align = F::alignment(reinterpret_cast<T*>(data));
  const Key key{length, howmany, stride, dist, forward ? 1 : 0, threads, align};
  std::lock_guard<std::mutex> lock(plannerMutex());
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  ensureThreads<T>();
  F::setThreads(threads);
  // FFTW_ESTIMATE never touches the array, so planning on the caller's data is safe.
  auto plan = F::plan(length, howmany, reinterpret_cast<typename F::Cx*>(data), stride, dist,
                      forward ? FFTW_FORWARD : FFTW_BACKWARD);
  if (!plan)
    throw std::runtime_error("FFTW could not create a plan");
  cache.emplace(key, plan);
  return plan;
}

}  // namespace

template <typename T>
void fftMany(std::complex<T>* data, int length, int howmany, int stride, int dist, bool forward,
             int threads) {
  if (howmany <= 0)
    return;
  auto plan = cachedPlan<T>(data, length, howmany, stride, dist, forward, threads);
  Fftw<T>::execute(plan, reinterpret_cast<typename Fftw<T>::Cx*>(data));
}

template void fftMany<float>(std::complex<float>*, int, int, int, int, bool, int);
template void fftMany<double>(std::complex<double>*, int, int, int, int, bool, int);

struct RealFft2d::Plans {
  int nx, ny;
  double* real = nullptr;
  fftw_complex* spectrum = nullptr;
  fftw_plan forward = nullptr, inverse = nullptr;
};

RealFft2d::RealFft2d(int nx, int ny, int threads) : plans_(std::make_unique<Plans>()) {
  Plans& p = *plans_;
  p.nx = nx;
  p.ny = ny;
  p.real = fftw_alloc_real(std::size_t(nx) * std::size_t(ny));
  p.spectrum = fftw_alloc_complex(spectrumSize());
  if (p.real == nullptr || p.spectrum == nullptr) {
    fftw_free(p.real);
    fftw_free(p.spectrum);
    throw std::bad_alloc();
  }
  std::lock_guard<std::mutex> lock(plannerMutex());
  ensureThreads<double>();
  Fftw<double>::setThreads(threads);
  // FFTW_ESTIMATE leaves the buffers alone while planning.
  p.forward = fftw_plan_dft_r2c_2d(ny, nx, p.real, p.spectrum, FFTW_ESTIMATE);
  p.inverse = fftw_plan_dft_c2r_2d(ny, nx, p.spectrum, p.real, FFTW_ESTIMATE);
  if (p.forward == nullptr || p.inverse == nullptr) {
    fftw_free(p.real);
    fftw_free(p.spectrum);
    throw std::runtime_error("FFTW could not create a 2-D real plan");
  }
}

RealFft2d::~RealFft2d() {
  std::lock_guard<std::mutex> lock(plannerMutex());
  fftw_destroy_plan(plans_->forward);
  fftw_destroy_plan(plans_->inverse);
  fftw_free(plans_->real);
  fftw_free(plans_->spectrum);
}

double* RealFft2d::real() {
  return plans_->real;
}

std::complex<double>* RealFft2d::spectrum() {
  return reinterpret_cast<std::complex<double>*>(plans_->spectrum);
}

std::size_t RealFft2d::spectrumSize() const {
  return std::size_t(plans_->ny) * std::size_t(plans_->nx / 2 + 1);
}

void RealFft2d::forward() {
  fftw_execute(plans_->forward);
}

void RealFft2d::inverse() {
  fftw_execute(plans_->inverse);
}

}  // namespace apertura::imaging
