#include "core/rml/held_chi2_term.h"

#include "core/data/chunk_sequence.h"
#include "core/rml/chunk_chi2_term.h"
#include "core/rml/detail/stage_clock.h"
#include "core/rml/resident_process_sum.h"

namespace apertura::rml {
namespace {

using Clock = detail::StageClock;
using detail::secondsSince;

// The host evaluation reads the chunks' float data where they are and keeps one model buffer in
// the operator's precision: w-stacking holds every sample at once, so a double copy of the data
// (as Chi2Term keeps) would triple the data's memory. Its arithmetic is Chi2Term's, over
// ImagingOperatorAdapter, to the bit: the residual in double, W r rounded to T for the gridder.
template <typename T>
class HeldChi2Term final : public DataTerm {
 public:
  HeldChi2Term(imaging::ImagingOperator<T>& op, const std::vector<VisibilityChunk>& chunks,
               Chi2Options options)
      : op_(op), sum_(options.sum) {
    // The weights checked (InputError for a negative or NaN one) and counted as everywhere else.
    HeldChunks held(chunks);
    const DataTotals own = countDataTotals(held);
    num_valid_ = options.totals ? options.totals->valid_samples : own.valid_samples;
    sum_weights_ = options.totals ? options.totals->sum_weights : own.sum_weights;
    std::vector<imaging::UvwBlock> blocks;
    for (const VisibilityChunk& c : chunks) {
      blocks.push_back(imaging::UvwBlock::of(c));
      vis_.push_back(c.visibilities.data());
      weights_.push_back(c.weights.data());
      sizes_.push_back(c.num_samples());
    }
    op_.setSamples(blocks);
  }

  double evaluate(const double* image, double* gradient, double scale) override {
    auto start = Clock::now();
    degridModel(image);
    times_.push_back({"degrid", secondsSince(start)});
    start = Clock::now();
    double chi2 = 0.0;
    for (std::size_t b = 0; b < model_.size(); ++b) {
      std::complex<T>* m = model_[b].data();
      for (std::size_t k = 0; k < sizes_[b]; ++k) {
        const double w = weights_[b][k];
        const std::complex<double> r =
            std::complex<double>(m[k]) - std::complex<double>(vis_[b][k]);
        chi2 += w * std::norm(r);
        m[k] = std::complex<T>(w * r);  // W (A I - V) for the adjoint pass
      }
    }
    times_.push_back({"residual", secondsSince(start)});
    if (gradient != nullptr) {
      start = Clock::now();
      std::vector<const std::complex<T>*> in(model_.size());
      for (std::size_t b = 0; b < model_.size(); ++b)
        in[b] = model_[b].data();
      // In double: a distributed run adds the processes' images after this.
      adjoint_.resize(op_.geometry().numPixels());
      op_.gridDouble(in, std::vector<const float*>(in.size(), nullptr), adjoint_.data());
      gradient_.resize(adjoint_.size());
      for (std::size_t p = 0; p < adjoint_.size(); ++p)
        gradient_[p] = adjoint_[p].real();
      times_.push_back({"grid", secondsSince(start)});
    }
    if (sum_) {
      start = Clock::now();
      sum_(&chi2, 1);
      if (gradient != nullptr)
        sum_(gradient_.data(), gradient_.size());
      times_.push_back({"reduce", secondsSince(start)});
    }
    if (gradient != nullptr) {
      for (std::size_t p = 0; p < gradient_.size(); ++p)
        gradient[p] += 2.0 * scale * gradient_[p];
    }
    return chi2;
  }

  std::size_t numPixels() const override { return op_.geometry().numPixels(); }
  std::size_t numSamples() const override { return num_valid_; }
  double sumWeights() const override { return sum_weights_; }

  // One block's residual and model in double at a time.
  void forEachResidual(const double* image, const ResidualVisitor& visit) override {
    degridModel(image);
    Residual residual, model;
    for (std::size_t b = 0; b < model_.size(); ++b) {
      model.assign(model_[b].begin(), model_[b].end());
      residual.resize(model.size());
      for (std::size_t k = 0; k < model.size(); ++k)
        residual[k] = std::complex<double>(vis_[b][k]) - model[k];
      visit(b, residual, model);
    }
  }

  std::vector<StageTime> takeStageTimes() override {
    std::vector<StageTime> out;
    out.swap(times_);
    return out;
  }

  // A distributed run adds the processes' values and partial gradients through the host.
  compute::VectorSpace* dataSpace() override { return resident() ? op_.vectorSpace() : nullptr; }
  bool residentIn(compute::VectorSpace& space) const override {
    return resident() && op_.vectorSpace() == &space;
  }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override {
    auto start = Clock::now();
    double chi2 = 0.0;
    if (sum_) {
      compute::SpaceVector* partial =
          gradient != nullptr ? &resident_sum_.partial(space, image.size()) : nullptr;
      chi2 = op_.heldResiduals(vis_, weights_, image, partial, 1.0);
    } else {
      chi2 = op_.heldResiduals(vis_, weights_, image, gradient, 2.0 * scale);
    }
    // One stage: the planes' degridding, the residuals and the planes' gridding run as one pass.
    times_.push_back({"residual", secondsSince(start)});
    if (sum_) {
      start = Clock::now();
      chi2 = resident_sum_.finish(sum_, space, chi2, gradient, 2.0 * scale);
      times_.push_back({"reduce", secondsSince(start)});
    }
    return chi2;
  }

 private:
  bool resident() const { return op_.formsHeldResiduals(); }

  // model_[b] = A I for every block (allocated on first use: a resident run never needs it).
  void degridModel(const double* image) {
    image_.resize(op_.geometry().numPixels());
    for (std::size_t p = 0; p < image_.size(); ++p)
      image_[p] = std::complex<T>(T(image[p]), T(0));
    model_.resize(sizes_.size());
    std::vector<std::complex<T>*> out(sizes_.size());
    for (std::size_t b = 0; b < sizes_.size(); ++b) {
      model_[b].resize(sizes_[b]);
      out[b] = model_[b].data();
    }
    op_.degrid(image_.data(), out);
  }

  imaging::ImagingOperator<T>& op_;
  SumOverProcesses sum_;             // a distributed run's
  ResidentProcessSum resident_sum_;  // its buffers in resident passes
  std::vector<const std::complex<float>*> vis_;
  std::vector<const float*> weights_;
  std::vector<std::size_t> sizes_;
  std::size_t num_valid_ = 0;
  double sum_weights_ = 0.0;
  std::vector<std::complex<T>> image_;
  std::vector<std::vector<std::complex<T>>> model_;
  std::vector<std::complex<double>> adjoint_;
  std::vector<double> gradient_;
  std::vector<StageTime> times_;
};

}  // namespace

std::shared_ptr<DataTerm> makeHeldChi2Term(imaging::ImagingOperator<float>& op,
                                           const std::vector<VisibilityChunk>& chunks,
                                           Chi2Options options) {
  return std::make_shared<HeldChi2Term<float>>(op, chunks, std::move(options));
}

std::shared_ptr<DataTerm> makeHeldChi2Term(imaging::ImagingOperator<double>& op,
                                           const std::vector<VisibilityChunk>& chunks,
                                           Chi2Options options) {
  return std::make_shared<HeldChi2Term<double>>(op, chunks, std::move(options));
}

}  // namespace apertura::rml
