#include "core/imaging/dirty_mapper.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace apertura::imaging {

namespace {

void checkChunk(const VisibilityChunk& c) {
  if (c.visibilities.size() != c.num_rows() * c.num_channels() ||
      c.weights.size() != c.visibilities.size())
    throw std::invalid_argument("visibility chunk with inconsistent array sizes");
}

// Grids every chunk (with its imaging weights) into one image: the visibilities, or ones for the
// PSF. Held chunks reuse the plans of the first pass.
template <typename T>
class ChunkGridder {
 public:
  ChunkGridder(ChunkSequence& chunks, const ImagingWeighter& weighter, const DirtyImageSettings& s)
      : chunks_(chunks),
        weighter_(weighter),
        backend_(),
        op_(makeOperator<T>(s.geometry, s.op, s.backend, &backend_)) {
    if (chunks.held()) {
      chunks.forEach([&](const VisibilityChunk& c, std::size_t) {
        checkChunk(c);
        blocks_.push_back(UvwBlock::of(c));
      });
      if (s.op.w_stacking)
        op_->setSamples(blocks_);  // one pass per w plane over the held blocks
      else
        plans_ = op_->planBlocks(blocks_);
    }
  }

  std::string describe() const { return backend_ + "; " + op_->describe(); }

  // Re(A^H (w x)) with x the visibilities (or 1 when `psf`); `per_chunk` sees each chunk's
  // imaging weights.
  template <typename F>
  std::vector<double> image(bool psf, F per_chunk) {
    if (plans_.empty() && !blocks_.empty())
      return imageAllPlanes(psf, per_chunk);
    op_->beginGrid();
    chunks_.forEach([&](const VisibilityChunk& c, std::size_t i) {
      checkChunk(c);
      const UvwBlock block = UvwBlock::of(c);
      weights_.resize(c.num_samples());
      weighter_.weights(block, c.weights.data(), weights_.data());
      per_chunk(c, weights_);
      std::unique_ptr<PlannedBlock> own = plans_.empty() ? op_->planBlock(block) : nullptr;
      const PlannedBlock& plan = own ? *own : *plans_.at(i);
      const std::complex<T>* vis = nullptr;
      if (psf) {
        values_.assign(c.num_samples(), std::complex<T>(1));
        vis = values_.data();
      } else if constexpr (std::is_same_v<T, float>) {
        vis = c.visibilities.data();
      } else {
        values_.assign(c.visibilities.begin(), c.visibilities.end());
        vis = values_.data();
      }
      op_->gridBlock(plan, vis, weights_.data());
    });
    // In double: a distributed run adds the processes' images after this (with the operator's
    // double accumulation nothing is then rounded to float).
    std::vector<std::complex<double>> pixels(op_->geometry().numPixels());
    op_->endGridDouble(pixels.data());
    return realPart(pixels);
  }

 private:
  template <typename U>
  static std::vector<double> realPart(const std::vector<std::complex<U>>& pixels) {
    std::vector<double> real(pixels.size());
    for (std::size_t p = 0; p < pixels.size(); ++p)
      real[p] = pixels[p].real();
    return real;
  }

  // w-stacking: every block is gridded in one call (a pass per w plane over all of them).
  template <typename F>
  std::vector<double> imageAllPlanes(bool psf, F per_chunk) {
    std::vector<std::vector<float>> weights(blocks_.size());
    std::vector<std::vector<std::complex<T>>> values(blocks_.size());
    std::vector<const float*> w;
    std::vector<const std::complex<T>*> vis;
    chunks_.forEach([&](const VisibilityChunk& c, std::size_t i) {
      weights[i].resize(c.num_samples());
      weighter_.weights(blocks_[i], c.weights.data(), weights[i].data());
      per_chunk(c, weights[i]);
      if (psf)
        values[i].assign(c.num_samples(), std::complex<T>(1));
      else
        values[i].assign(c.visibilities.begin(), c.visibilities.end());
      w.push_back(weights[i].data());
      vis.push_back(values[i].data());
    });
    std::vector<std::complex<double>> pixels(op_->geometry().numPixels());
    op_->gridDouble(vis, w, pixels.data());
    return realPart(pixels);
  }

  ChunkSequence& chunks_;
  const ImagingWeighter& weighter_;
  std::string backend_;  // the factory's line; declared before op_, whose initializer fills it
  std::unique_ptr<ImagingOperator<T>> op_;
  std::vector<UvwBlock> blocks_;  // held chunks only
  std::vector<std::unique_ptr<PlannedBlock>> plans_;
  std::vector<float> weights_;
  std::vector<std::complex<T>> values_;
};

template <typename T>
void gridDirtyAndPsf(ChunkSequence& chunks, const ImagingWeighter& weighter,
                     const DirtyImageSettings& s, DirtyImageResult& out) {
  ChunkGridder<T> gridder(chunks, weighter, s);
  out.operator_description = gridder.describe();
  double fmin = std::numeric_limits<double>::max(), fmax = 0.0;
  std::vector<double> dirty =
      gridder.image(false, [&](const VisibilityChunk& c, const std::vector<float>& w) {
        for (float x : w) {
          out.sum_weights += x;
          if (x != 0.0f)
            ++out.samples;
        }
        for (double f : c.frequencies_hz) {
          fmin = std::min(fmin, f);
          fmax = std::max(fmax, f);
        }
      });
  if (s.sum_over_processes) {
    double totals[2] = {out.sum_weights, double(out.samples)};
    s.sum_over_processes(totals, 2);
    out.sum_weights = totals[0];
    out.samples = std::size_t(totals[1]);
    s.sum_over_processes(dirty.data(), dirty.size());
  }
  if (out.samples == 0)
    throw std::runtime_error("no unflagged visibilities to image");
  if (fmax > 0.0)
    out.frequencies_hz = {fmin, fmax};
  const double norm = 1.0 / out.sum_weights;
  out.dirty.resize(dirty.size());
  for (std::size_t p = 0; p < dirty.size(); ++p)
    out.dirty[p] = float(dirty[p] * norm);

  std::vector<double> psf = gridder.image(true, [](const VisibilityChunk&, const auto&) {});
  if (s.sum_over_processes)
    s.sum_over_processes(psf.data(), psf.size());
  double peak = 0.0;
  for (double v : psf)
    peak = std::max(peak, double(v));
  out.psf.resize(psf.size());
  for (std::size_t p = 0; p < psf.size(); ++p)
    out.psf[p] = peak > 0.0 ? float(psf[p] / peak) : 0.0f;
}

}  // namespace

DirtyImageResult makeDirtyImage(const std::vector<const VisibilityChunk*>& chunks,
                                const DirtyImageSettings& s) {
  HeldChunks held(chunks);
  return makeDirtyImage(held, s);
}

DirtyImageResult makeDirtyImage(ChunkSequence& chunks, const DirtyImageSettings& s) {
  ImagingWeighter weighter(s.geometry, s.weighting);
  if (weighter.needsDensity()) {
    chunks.forEach([&](const VisibilityChunk& c, std::size_t) {
      checkChunk(c);
      weighter.addDensity(UvwBlock::of(c), c.weights.data());
    });
  }
  if (weighter.needsDensity() && s.sum_over_processes)
    s.sum_over_processes(weighter.density().data(), weighter.density().size());
  weighter.finishDensity();
  DirtyImageResult out;
  if (s.op.epsilon < 1e-6)
    gridDirtyAndPsf<double>(chunks, weighter, s, out);
  else
    gridDirtyAndPsf<float>(chunks, weighter, s, out);
  out.beam = fitCleanBeam(out.psf, s.geometry);
  return out;
}

}  // namespace apertura::imaging
