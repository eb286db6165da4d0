// Derives the (support W, beta) table of the ES kernel in core/imaging/kernel_table.cpp: for each
// oversampling factor sigma and support W it scans beta = gamma * pi * W * (1 - 1/(2 sigma)) and
// keeps the gamma with the smallest 1-D L2 relative error of a type-2 NUFFT (random image,
// random non-uniform points) against the direct sum. A program, not a test: run it and paste.
#include <complex>
#include <cstdio>
#include <random>
#include <vector>

#include "core/imaging/gridding_correction.h"
#include "core/imaging/kernel.h"

using namespace apertura::imaging;
using cd = std::complex<double>;

static double nufftError(const KernelShape& k, int n, int N, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<cd> img(n);
  for (auto& v : img)
    v = cd(u(rng), u(rng));
  const auto psi = kernelTransform(k, n, N);
  std::vector<cd> grid(N);
  for (int kk = 0; kk < N; ++kk) {
    cd s = 0;
    for (int ip = 0; ip < n; ++ip) {
      const int p = ip - n / 2;
      s += img[ip] / psi[ip] * std::polar(1.0, -2.0 * M_PI * double(kk) * p / N);
    }
    grid[kk] = s;
  }
  double num = 0, den = 0;
  const int W = k.support;
  for (int m = 0; m < 2000; ++m) {
    const double t = (u(rng) + 1.0) * 0.5 * N;
    cd exact = 0;
    for (int ip = 0; ip < n; ++ip)
      exact += img[ip] * std::polar(1.0, -2.0 * M_PI * t * (ip - n / 2) / N);
    const int i0 = int(std::ceil(t - 0.5 * W));
    cd approx = 0;
    for (int j = 0; j < W; ++j) {
      const double x = 2.0 * (i0 + j - t) / W;
      approx += k(x) * grid[((i0 + j) % N + N) % N];
    }
    num += std::norm(approx - exact);
    den += std::norm(exact);
  }
  return std::sqrt(num / den);
}

int main() {
  const int n = 256;
  const double sigmas[] = {1.2, 1.25, 1.5, 1.75, 2.0, 2.5};
  for (double sigma : sigmas) {
    const int N = int(sigma * n + 0.5);
    std::printf("  // sigma %.2f: {W, gamma, 1-D L2 error}\n", sigma);
    for (int W = 2; W <= kMaxSupport; ++W) {
      double best_err = 1e300, best_g = 1.0;
      for (double g = 0.80; g <= 1.101; g += 0.01) {
        KernelShape k{KernelType::ExpSemicircle, W, g * M_PI * W * (1.0 - 0.5 / sigma), sigma};
        std::mt19937 rng(1234 + W);
        double e = std::max(nufftError(k, n, N, rng), nufftError(k, n, N, rng));
        if (e < best_err)
          best_err = e, best_g = g;
      }
      std::printf("  {%.2f, %d, %.2f, %.2e},\n", sigma, W, best_g, best_err);
      std::fflush(stdout);
    }
  }
}
