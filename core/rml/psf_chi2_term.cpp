#include "core/rml/psf_chi2_term.h"

#include <algorithm>
#include <chrono>
#include <complex>
#include <stdexcept>

#include "core/imaging/fft_plans.h"
#include "core/rml/detail/parallel_sum.h"
#include "core/util/thread_count.h"

namespace apertura::rml {

// Linear convolution of an nx x ny image with a kernel of lags (-nx..nx-1, -ny..ny-1) as a
// circular one on an m x n grid (m >= 2 nx, n >= 2 ny: no lag wraps onto another), through
// real-to-complex transforms: the kernel is real and even, its spectrum is real.
struct PsfChi2Term::Fft {
  int nx, ny, m, n;
  imaging::RealFft2d fft;
  std::vector<std::vector<double>> kernels;     // spectra of the kernels (real), scaled by 1/(m n)
  std::vector<std::complex<double>> low, high;  // two planes' spectra (linear spectrum)

  Fft(int nx_, int ny_, const std::vector<std::vector<double>>& psf2, int threads)
      : nx(nx_),
        ny(ny_),
        m(imaging::goodFftSize(2 * nx_)),
        n(imaging::goodFftSize(2 * ny_)),
        fft(m, n, threadCount(threads)) {
    for (const std::vector<double>& p : psf2)
      kernels.push_back(kernelSpectrum(p));
  }

  std::vector<double> kernelSpectrum(const std::vector<double>& psf2) {
    double* k = fft.real();
    std::fill(k, k + std::size_t(m) * std::size_t(n), 0.0);
    for (int dy = -ny; dy < ny; ++dy) {
      for (int dx = -nx; dx < nx; ++dx) {
        const double p = psf2[std::size_t(ny + dy) * std::size_t(2 * nx) + std::size_t(nx + dx)];
        k[std::size_t((dy + n) % n) * std::size_t(m) + std::size_t((dx + m) % m)] = p;
      }
    }
    fft.forward();
    const double norm = 1.0 / (double(m) * double(n));
    const std::complex<double>* spectrum = fft.spectrum();
    std::vector<double> out(fft.spectrumSize());
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = spectrum[i].real() * norm;
    return out;
  }

  // x zero-padded into the transform's real array, transformed (spectrum in fft.spectrum()).
  void forward(const double* x) {
    double* r = fft.real();
    std::fill(r, r + std::size_t(m) * std::size_t(n), 0.0);
    for (int y = 0; y < ny; ++y)
      std::copy(x + std::size_t(y) * std::size_t(nx), x + std::size_t(y + 1) * std::size_t(nx),
                r + std::size_t(y) * std::size_t(m));
    fft.forward();
  }

  // The inverse of fft.spectrum(), cropped to the image into out.
  void inverse(double* out) {
    fft.inverse();
    const double* r = fft.real();
    for (int y = 0; y < ny; ++y)
      std::copy(r + std::size_t(y) * std::size_t(m), r + std::size_t(y) * std::size_t(m) + nx,
                out + std::size_t(y) * std::size_t(nx));
  }

  void convolve(const double* x, double* out) {
    forward(x);
    std::complex<double>* spectrum = fft.spectrum();
    const std::vector<double>& kernel = kernels.front();
    detail::parallelFor(kernel.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        spectrum[i] *= kernel[i];
    });
    inverse(out);
  }

  // The linear spectrum's block convolution: out_low = P_ll * x_low + P_lh * x_high,
  // out_high = P_lh * x_low + P_hh * x_high (x and out: two planes of nx ny).
  void convolvePair(const double* x, double* out) {
    const std::size_t np = std::size_t(nx) * std::size_t(ny), ns = fft.spectrumSize();
    forward(x);
    low.assign(fft.spectrum(), fft.spectrum() + ns);
    forward(x + np);
    high.assign(fft.spectrum(), fft.spectrum() + ns);
    for (int plane = 0; plane < 2; ++plane) {
      const std::vector<double>& a = kernels[std::size_t(plane)];      // P_ll, then P_lh
      const std::vector<double>& b = kernels[std::size_t(plane) + 1];  // P_lh, then P_hh
      std::complex<double>* spectrum = fft.spectrum();
      detail::parallelFor(ns, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
          spectrum[i] = a[i] * low[i] + b[i] * high[i];
      });
      inverse(out + std::size_t(plane) * np);
    }
  }
};

PsfChi2Term::PsfChi2Term(std::shared_ptr<DataTerm> exact, int nx, int ny,
                         const std::vector<double>& psf2, int threads)
    : PsfChi2Term(std::move(exact), nx, ny, std::vector<std::vector<double>>{psf2}, threads) {}

PsfChi2Term::PsfChi2Term(std::shared_ptr<DataTerm> exact, int nx, int ny,
                         const std::vector<std::vector<double>>& psf2_blocks, int threads)
    : exact_(std::move(exact)),
      fft_(std::make_unique<Fft>(nx, ny, psf2_blocks, threads)),
      planes_(psf2_blocks.size() == 3 ? 2 : 1),
      delta_(std::size_t(planes_) * std::size_t(nx) * std::size_t(ny)),
      conv_(delta_.size()) {
  if ((psf2_blocks.size() != 1 && psf2_blocks.size() != 3) || exact_->numPixels() != delta_.size())
    throw std::invalid_argument("psf chi2: one PSF for an image, three for two planes");
  const std::vector<double> zero(delta_.size(), 0.0);
  anchor(zero.data());
}

PsfChi2Term::~PsfChi2Term() = default;

void PsfChi2Term::anchor(const double* image) {
  if (!anchor_gradient_.empty() && std::equal(anchor_image_.begin(), anchor_image_.end(), image))
    return;  // anchored there already
  anchor_image_.assign(image, image + delta_.size());
  anchor_gradient_.assign(delta_.size(), 0.0);
  anchor_value_ = exact_->evaluate(image, anchor_gradient_.data(), 1.0);
  for (const StageTime& t : exact_->takeStageTimes())
    times_.push_back(t);
}

void PsfChi2Term::convolve(const double* x, double* out) {
  fft_->convolve(x, out);
}

double PsfChi2Term::evaluate(const double* image, double* gradient, double scale) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t np = delta_.size();
  detail::parallelFor(np, [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p)
      delta_[p] = image[p] - anchor_image_[p];
  });
  if (planes_ == 2)
    fft_->convolvePair(delta_.data(), conv_.data());
  else
    fft_->convolve(delta_.data(), conv_.data());
  // g0 . d + d . P d, both summed in a fixed order (the same for any number of threads).
  const double change = detail::blockedSum(np, [&](std::size_t begin, std::size_t end) {
    double s = 0.0;
    for (std::size_t p = begin; p < end; ++p)
      s += delta_[p] * (anchor_gradient_[p] + conv_[p]);
    return s;
  });
  if (gradient != nullptr) {
    detail::parallelFor(np, [&](std::size_t begin, std::size_t end) {
      for (std::size_t p = begin; p < end; ++p)
        gradient[p] += scale * (anchor_gradient_[p] + 2.0 * conv_[p]);
    });
  }
  times_.push_back(
      {"psf convolution",
       std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
  return anchor_value_ + change;
}

std::vector<StageTime> PsfChi2Term::takeStageTimes() {
  std::vector<StageTime> t;
  t.swap(times_);
  return t;
}

}  // namespace apertura::rml
