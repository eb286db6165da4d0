// Gridding / degridding throughput of the CPU operator (float), and its error against a direct DFT
// on a subset. Usage: bench_gridding [image_size=2048] [visibilities=1e7] [max_threads=2]
// Prints medians of 3 runs per configuration: 1 and 64 channels per row, epsilon 1e-4 and 1e-6.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "core/imaging/imaging_operator.h"

using namespace apertura::imaging;
using cf = std::complex<float>;
using cd = std::complex<double>;

namespace {

double seconds(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

double median3(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Data {
  std::vector<double> uvw, freq;
  UvwBlock block() const { return {uvw.data(), uvw.size() / 3, freq.data(), freq.size()}; }
};

// Random baselines filling 90% of the uv range the image supports; channels spread over +-10%.
Data makeData(const ImageGeometry& g, std::size_t nvis, int channels, unsigned seed) {
  Data d;
  for (int c = 0; c < channels; ++c)
    d.freq.push_back(1.0e9 * (0.9 + 0.2 * (channels > 1 ? double(c) / (channels - 1) : 0.5)));
  const double umax = 0.9 / (2.0 * std::abs(g.cell_l)) * kSpeedOfLight / 1.1e9;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::size_t rows = nvis / channels;
  d.uvw.resize(3 * rows);
  for (std::size_t r = 0; r < rows; ++r) {
    d.uvw[3 * r] = u(rng) * umax;
    d.uvw[3 * r + 1] = u(rng) * umax;
    d.uvw[3 * r + 2] = 0.0;
  }
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  const std::size_t nvis = argc > 2 ? std::size_t(std::atof(argv[2])) : 10000000;
  const int max_threads = argc > 3 ? std::atoi(argv[3]) : 2;
  const auto g = ImageGeometry::fromCell(n, n, 1.0 / 3600.0 * M_PI / 180.0);
  std::printf("image %dx%d, %zu visibilities, float, medians of 3 runs\n", n, n, nvis);
  std::printf("%-4s %-6s %-7s %4s %-9s %9s %9s %12s %12s %10s %10s\n", "thr", "chan", "eps", "W",
              "grid", "plan[s]", "grid[s]", "grid Mvis/s", "degrid Mv/s", "err_degr", "err_grid");

  // A sparse model (64 point sources) so the DFT of a subset of visibilities stays cheap.
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> pix(0, n - 1);
  std::normal_distribution<float> flux;
  std::vector<cf> image(g.numPixels(), cf(0));
  std::vector<std::pair<int, int>> sources;
  for (int k = 0; k < 64; ++k) {
    const int ix = pix(rng), iy = pix(rng);
    image[std::size_t(iy) * n + ix] = cf(flux(rng), 0);
    sources.emplace_back(ix, iy);
  }

  for (int channels : {1, 64}) {
    const Data data = makeData(g, nvis, channels, 7);
    const std::size_t ns = data.block().numSamples();
    std::vector<cf> vis(ns);
    for (double eps : {1e-4, 1e-6}) {
      for (int threads = 1; threads <= max_threads; threads *= 2) {
        OperatorSettings s;
        s.epsilon = eps;
        s.threads = threads;
        auto op = makeCpuOperator<float>(g, s);
        std::vector<double> tp, tg, td;
        std::vector<cf> out(g.numPixels());
        for (int run = 0; run < 3; ++run) {
          auto t0 = std::chrono::steady_clock::now();
          op->setSamples({data.block()});
          tp.push_back(seconds(t0));
          t0 = std::chrono::steady_clock::now();
          op->degrid(image.data(), {vis.data()});
          td.push_back(seconds(t0));
          t0 = std::chrono::steady_clock::now();
          op->grid({vis.data()}, {nullptr}, out.data());
          tg.push_back(seconds(t0));
        }
        // Degrid error on 500 samples against the direct sum over the 64 sources.
        double num = 0, den = 0;
        for (std::size_t k = 0; k < 500; ++k) {
          const std::size_t sidx = (k * 2654435761u) % ns;
          const std::size_t r = sidx / channels, c = sidx % channels;
          const double f = data.freq[c] / kSpeedOfLight;
          const double u = data.uvw[3 * r] * f, v = data.uvw[3 * r + 1] * f;
          cd exact = 0;
          for (auto [ix, iy] : sources)
            exact += cd(image[std::size_t(iy) * n + ix]) *
                     std::polar(1.0, -2.0 * M_PI * (u * g.l(ix) + v * g.m(iy)));
          num += std::norm(cd(vis[sidx]) - exact);
          den += std::norm(exact);
        }
        const double err_degrid = std::sqrt(num / den);
        // Grid error: 2000 samples gridded alone, 32 pixels against the direct sum.
        Data small = makeData(g, 2000, 1, 11);
        std::vector<cf> svis(2000);
        std::normal_distribution<float> nd;
        for (auto& x : svis)
          x = cf(nd(rng), nd(rng));
        op->setSamples({small.block()});
        op->grid({svis.data()}, {nullptr}, out.data());
        num = den = 0;
        for (int k = 0; k < 32; ++k) {
          const int ix = pix(rng), iy = pix(rng);
          cd exact = 0;
          for (std::size_t s2 = 0; s2 < 2000; ++s2) {
            const double f = small.freq[0] / kSpeedOfLight;
            exact += cd(svis[s2]) * std::polar(1.0, 2.0 * M_PI *
                                                        (small.uvw[3 * s2] * f * g.l(ix) +
                                                         small.uvw[3 * s2 + 1] * f * g.m(iy)));
          }
          num += std::norm(cd(out[std::size_t(iy) * n + ix]) - exact);
          den += std::norm(exact);
        }
        const double err_grid = std::sqrt(num / den);
        char grid[32];
        std::snprintf(grid, sizeof grid, "%dx%d", op->gridCellsX(), op->gridCellsY());
        std::printf("%-4d %-6d %-7.0e %4d %-9s %9.3f %9.3f %12.2f %12.2f %10.2e %10.2e\n", threads,
                    channels, eps, op->kernel().support, grid, median3(tp), median3(tg),
                    ns / median3(tg) / 1e6, ns / median3(td) / 1e6, err_degrid, err_grid);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
