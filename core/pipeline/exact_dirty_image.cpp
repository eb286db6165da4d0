#include "core/pipeline/exact_dirty_image.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "core/data/exact_sum.h"

namespace apertura::pipeline {
namespace {

// Partial(chunk, out) fills `out` (size n) with one chunk's contribution; the exact sum of all
// chunks' contributions over all processes is written to `total`. Returns the number of chunks.
template <typename Partial>
std::uint64_t sumOverChunks(ChunkSequence& chunks, std::size_t n, const SumOverProcesses& sum,
                            Partial partial, std::vector<double>& total) {
  std::vector<double> part(n);
  int exponent = ExactSum::kZero;
  double count = 0.0;
  chunks.forEach([&](const VisibilityChunk& c, std::size_t) {
    partial(c, part);
    exponent = std::max(exponent, ExactSum::exponentBound(part.data(), n));
    count += 1.0;
  });
  if (sum)
    sum(&count, 1);
  exponent = ExactSum::maxOverProcesses(exponent, sum);
  if (exponent >= ExactSum::kNonFinite)
    throw std::runtime_error("dirty image: a visibility or weight is NaN or infinite");
  ExactSum exact(n);
  exact.setRange(exponent, std::uint64_t(count));
  chunks.forEach([&](const VisibilityChunk& c, std::size_t) {
    partial(c, part);
    if (!exact.add(part.data()))
      throw std::logic_error("dirty image: a chunk changed between two passes");
  });
  total.resize(n);
  exact.reduce(sum, total.data());
  return std::uint64_t(count);
}

template <typename T>
void gridExactly(ChunkSequence& chunks, const imaging::ImagingWeighter& weighter,
                 const imaging::DirtyImageSettings& s, imaging::DirtyImageResult& out) {
  auto op = imaging::makeCpuOperator<T>(s.geometry, s.op);
  out.operator_description = op->describe();
  const std::size_t npix = s.geometry.numPixels();
  std::vector<float> weights;
  std::vector<std::complex<T>> values, pixels(npix);
  // Re A^H (w x) of one chunk, x its visibilities or (psf) ones.
  const auto image = [&](bool psf) {
    return [&, psf](const VisibilityChunk& c, std::vector<double>& part) {
      const imaging::UvwBlock block = imaging::UvwBlock::of(c);
      weights.resize(c.num_samples());
      weighter.weights(block, c.weights.data(), weights.data());
      if (psf)
        values.assign(c.num_samples(), std::complex<T>(1));
      else
        values.assign(c.visibilities.begin(), c.visibilities.end());
      const auto plan = op->planBlock(block);
      op->beginGrid();
      op->gridBlock(*plan, values.data(), weights.data());
      op->endGrid(pixels.data());
      for (std::size_t p = 0; p < npix; ++p)
        part[p] = double(pixels[p].real());
    };
  };
  // Per chunk: the weight sum, the samples with non-zero weight (a count: exact in any order).
  std::vector<double> stats;
  double fmin = std::numeric_limits<double>::max(), fmax = 0.0;
  sumOverChunks(
      chunks, 2, s.sum_over_processes,
      [&](const VisibilityChunk& c, std::vector<double>& part) {
        weights.resize(c.num_samples());
        weighter.weights(imaging::UvwBlock::of(c), c.weights.data(), weights.data());
        part[0] = part[1] = 0.0;
        for (float w : weights) {
          part[0] += w;
          part[1] += w != 0.0f ? 1.0 : 0.0;
        }
        for (double f : c.frequencies_hz) {
          fmin = std::min(fmin, f);
          fmax = std::max(fmax, f);
        }
      },
      stats);
  out.sum_weights = stats[0];
  out.samples = std::size_t(stats[1]);
  if (out.samples == 0)
    throw std::runtime_error("no unflagged visibilities to image");
  if (fmax > 0.0)
    out.frequencies_hz = {fmin, fmax};

  std::vector<double> total;
  sumOverChunks(chunks, npix, s.sum_over_processes, image(false), total);
  const double norm = 1.0 / out.sum_weights;
  out.dirty.resize(npix);
  for (std::size_t p = 0; p < npix; ++p)
    out.dirty[p] = float(total[p] * norm);
  sumOverChunks(chunks, npix, s.sum_over_processes, image(true), total);
  double peak = 0.0;
  for (double v : total)
    peak = std::max(peak, v);
  out.psf.resize(npix);
  for (std::size_t p = 0; p < npix; ++p)
    out.psf[p] = peak > 0.0 ? float(total[p] / peak) : 0.0f;
}

}  // namespace

imaging::DirtyImageResult makeExactDirtyImage(ChunkSequence& chunks,
                                              const imaging::DirtyImageSettings& s) {
  imaging::ImagingWeighter weighter(s.geometry, s.weighting);
  if (weighter.needsDensity()) {
    // Each chunk's density on its own grid, then the exact sum in place of the gridded density.
    std::vector<double>& density = weighter.density();
    const std::size_t cells = density.size();
    std::vector<double> total;
    sumOverChunks(
        chunks, cells, s.sum_over_processes,
        [&](const VisibilityChunk& c, std::vector<double>& part) {
          std::fill(density.begin(), density.end(), 0.0);
          weighter.addDensity(imaging::UvwBlock::of(c), c.weights.data());
          part.assign(density.begin(), density.end());
        },
        total);
    density = std::move(total);
  }
  weighter.finishDensity();
  imaging::DirtyImageResult out;
  if (s.op.epsilon < 1e-6)
    gridExactly<double>(chunks, weighter, s, out);
  else
    gridExactly<float>(chunks, weighter, s, out);
  out.beam = imaging::fitCleanBeam(out.psf, s.geometry);
  return out;
}

}  // namespace apertura::pipeline
