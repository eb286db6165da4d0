#include "core/imaging/dirty_mapper.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace apertura::imaging {

namespace {

template <typename T>
void gridDirtyAndPsf(const std::vector<const VisibilityChunk*>& chunks,
                     const std::vector<UvwBlock>& blocks,
                     const std::vector<std::vector<float>>& weights, const DirtyImageSettings& s,
                     DirtyImageResult& out) {
  auto op = makeCpuOperator<T>(s.geometry, s.op);
  op->setSamples(blocks);
  out.operator_description = op->describe();
  std::vector<const float*> w;
  std::vector<const std::complex<T>*> vis;
  std::vector<std::vector<std::complex<T>>> converted, ones(chunks.size());
  for (std::size_t b = 0; b < chunks.size(); ++b) {
    w.push_back(weights[b].data());
    if constexpr (std::is_same_v<T, float>) {
      vis.push_back(chunks[b]->visibilities.data());
    } else {
      converted.emplace_back(chunks[b]->visibilities.begin(), chunks[b]->visibilities.end());
      vis.push_back(converted.back().data());
    }
  }
  const std::size_t npix = s.geometry.numPixels();
  std::vector<std::complex<T>> image(npix);
  op->grid(vis, w, image.data());
  out.dirty.resize(npix);
  const double norm = out.sum_weights > 0.0 ? 1.0 / out.sum_weights : 0.0;
  for (std::size_t p = 0; p < npix; ++p)
    out.dirty[p] = float(image[p].real() * norm);

  std::vector<const std::complex<T>*> unit;
  for (std::size_t b = 0; b < chunks.size(); ++b) {
    ones[b].assign(blocks[b].numSamples(), std::complex<T>(1));
    unit.push_back(ones[b].data());
  }
  op->grid(unit, w, image.data());
  out.psf.resize(npix);
  double peak = 0.0;
  for (std::size_t p = 0; p < npix; ++p)
    peak = std::max(peak, double(image[p].real()));
  for (std::size_t p = 0; p < npix; ++p)
    out.psf[p] = peak > 0.0 ? float(image[p].real() / peak) : 0.0f;
}

}  // namespace

DirtyImageResult makeDirtyImage(const std::vector<const VisibilityChunk*>& chunks,
                                const DirtyImageSettings& s) {
  std::vector<UvwBlock> blocks;
  std::vector<const float*> data_weights;
  DirtyImageResult out;
  double fmin = std::numeric_limits<double>::max(), fmax = 0.0;
  for (const VisibilityChunk* c : chunks) {
    if (c->visibilities.size() != c->num_rows() * c->num_channels() ||
        c->weights.size() != c->visibilities.size())
      throw std::invalid_argument("visibility chunk with inconsistent array sizes");
    blocks.push_back(UvwBlock::of(*c));
    data_weights.push_back(c->weights.data());
    for (double f : c->frequencies_hz) {
      fmin = std::min(fmin, f);
      fmax = std::max(fmax, f);
    }
  }
  if (fmax > 0.0)
    out.frequencies_hz = {fmin, fmax};
  const auto weights = imagingWeights(blocks, data_weights, s.geometry, s.weighting);
  for (const auto& wb : weights)
    for (float w : wb) {
      out.sum_weights += w;
      if (w != 0.0f)
        ++out.samples;
    }
  if (out.samples == 0)
    throw std::runtime_error("no unflagged visibilities to image");
  if (s.op.epsilon < 1e-6)
    gridDirtyAndPsf<double>(chunks, blocks, weights, s, out);
  else
    gridDirtyAndPsf<float>(chunks, blocks, weights, s, out);
  out.beam = fitCleanBeam(out.psf, s.geometry);
  return out;
}

}  // namespace apertura::imaging
