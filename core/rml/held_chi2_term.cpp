#include "core/rml/held_chi2_term.h"

#include <chrono>

#include "core/rml/imaging_operator_adapter.h"
#include "core/rml/resident_process_sum.h"

namespace apertura::rml {
namespace {

template <typename T>
class HeldChi2Term final : public DataTerm {
 public:
  HeldChi2Term(imaging::ImagingOperator<T>& op, const std::vector<VisibilityChunk>& chunks,
               Chi2Options options)
      : op_(op), sum_(options.sum) {
    std::vector<imaging::UvwBlock> blocks;
    std::vector<VisibilityBlock> measured;
    for (const auto& c : chunks) {
      blocks.push_back(imaging::UvwBlock::of(c));
      measured.push_back(VisibilityBlock::of(c));
      vis_.push_back(c.visibilities.data());
      weights_.push_back(c.weights.data());
    }
    op_.setSamples(blocks);
    host_ = std::make_shared<Chi2Term>(std::make_shared<ImagingOperatorAdapter<T>>(op_, blocks),
                                       std::move(measured), std::move(options));
  }

  double evaluate(const double* image, double* gradient, double scale) override {
    return host_->evaluate(image, gradient, scale);
  }
  std::size_t numPixels() const override { return host_->numPixels(); }
  std::size_t numSamples() const override { return host_->numSamples(); }
  double sumWeights() const override { return host_->sumWeights(); }
  void forEachResidual(const double* image, const ResidualVisitor& visit) override {
    host_->forEachResidual(image, visit);
  }
  std::vector<StageTime> takeStageTimes() override {
    std::vector<StageTime> out = host_->takeStageTimes();
    out.insert(out.end(), times_.begin(), times_.end());
    times_.clear();
    return out;
  }

  // A distributed run adds the processes' values and partial gradients through the host.
  compute::VectorSpace* dataSpace() override { return resident() ? op_.vectorSpace() : nullptr; }
  bool residentIn(compute::VectorSpace& space) const override {
    return resident() && op_.vectorSpace() == &space;
  }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override {
    using Clock = std::chrono::steady_clock;
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
    times_.push_back({"residual", std::chrono::duration<double>(Clock::now() - start).count()});
    if (sum_) {
      start = Clock::now();
      chi2 = resident_sum_.finish(sum_, space, chi2, gradient, 2.0 * scale);
      times_.push_back({"reduce", std::chrono::duration<double>(Clock::now() - start).count()});
    }
    return chi2;
  }

 private:
  bool resident() const { return op_.formsHeldResiduals(); }

  imaging::ImagingOperator<T>& op_;
  SumOverProcesses sum_;             // a distributed run's (the host term holds it too)
  ResidentProcessSum resident_sum_;  // its buffers in resident passes
  std::shared_ptr<Chi2Term> host_;
  std::vector<const std::complex<float>*> vis_;
  std::vector<const float*> weights_;
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
