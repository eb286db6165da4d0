#include "core/rml/linear_spectrum_chi2_term.h"

#include <stdexcept>
#include <string>

#include "core/imaging/device_gridding.h"
#include "core/rml/detail/parallel_sum.h"
#include "core/rml/detail/stage_clock.h"

namespace apertura::rml {
namespace {

using Clock = detail::StageClock;
using detail::secondsSince;

template <typename T>
class LinearSpectrumChi2Term final : public DataTerm {
 public:
  LinearSpectrumChi2Term(imaging::ImagingOperator<T>& low, imaging::ImagingOperator<T>& high,
                         ChunkSequence& chunks, SpectrumBand band, DataTotals totals,
                         SumOverProcesses sum)
      : low_(low),
        high_(high),
        chunks_(chunks),
        band_(band),
        totals_(totals),
        sum_(std::move(sum)),
        npix_(low.geometry().numPixels()) {
    if (high.geometry().numPixels() != npix_)
      throw std::invalid_argument("linear spectrum chi2: the two operators' images differ");
    if (chunks.held()) {
      std::vector<imaging::UvwBlock> blocks;
      chunks.forEach([&](const VisibilityChunk& c, std::size_t) {
        blocks.push_back(imaging::UvwBlock::of(c));
      });
      low_plans_ = low_.planBlocks(blocks);
      high_plans_ = high_.planBlocks(blocks);
    }
  }

  std::size_t numPixels() const override { return 2 * npix_; }
  std::size_t numSamples() const override { return totals_.valid_samples; }
  double sumWeights() const override { return totals_.sum_weights; }

  double evaluate(const double* planes, double* gradient, double scale) override {
    auto t = Clock::now();
    prepareModels(planes);
    times_.degrid += secondsSince(t);
    const bool grid = gradient != nullptr;
    if (grid) {
      low_.beginGrid();
      high_.beginGrid();
    }
    double chi2 = 0.0;
    pass([&](const VisibilityChunk& c, const imaging::PlannedBlock& lp,
             const imaging::PlannedBlock& hp) {
      degridModel(c, lp, hp);
      t = Clock::now();
      const std::size_t channels = c.num_channels();
      low_residual_.resize(model_.size());
      high_residual_.resize(model_.size());
      for (std::size_t k = 0; k < model_.size(); ++k) {
        T rr, ri;
        chi2 +=
            imaging::chi2Residual<T>(model_[k].real(), model_[k].imag(), c.visibilities[k].real(),
                                     c.visibilities[k].imag(), c.weights[k], rr, ri);
        const T s = T(position_[k % channels]);
        high_residual_[k] = std::complex<T>(s * rr, s * ri);
        low_residual_[k] = std::complex<T>(rr, ri) - high_residual_[k];
      }
      times_.residual += secondsSince(t);
      if (grid) {
        t = Clock::now();
        low_.gridBlock(lp, low_residual_.data(), nullptr);
        high_.gridBlock(hp, high_residual_.data(), nullptr);
        times_.grid += secondsSince(t);
      }
    });
    if (grid) {
      t = Clock::now();
      adjoint_.resize(2 * npix_);
      endGrid(low_, adjoint_.data());
      endGrid(high_, adjoint_.data() + npix_);
      times_.grid += secondsSince(t);
    }
    if (sum_) {
      t = Clock::now();
      sum_(&chi2, 1);
      if (grid)
        sum_(adjoint_.data(), adjoint_.size());
      times_.reduce += secondsSince(t);
    }
    if (grid) {
      detail::parallelFor(adjoint_.size(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t p = begin; p < end; ++p)
          gradient[p] += 2.0 * scale * adjoint_[p];
      });
    }
    return chi2;
  }

  void forEachResidual(const double* planes, const ResidualVisitor& visit) override {
    prepareModels(planes);
    Residual residual, model;
    std::size_t index = 0;
    pass([&](const VisibilityChunk& c, const imaging::PlannedBlock& lp,
             const imaging::PlannedBlock& hp) {
      degridModel(c, lp, hp);
      model.assign(model_.begin(), model_.end());
      residual.resize(model.size());
      for (std::size_t k = 0; k < model.size(); ++k)
        residual[k] = std::complex<double>(c.visibilities[k]) - model[k];
      visit(index++, residual, model);
    });
  }

  std::vector<StageTime> takeStageTimes() override {
    std::vector<StageTime> out = {{"degrid", times_.degrid},
                                  {"residual", times_.residual},
                                  {"grid", times_.grid},
                                  {"plan", times_.plan}};
    if (sum_)
      out.push_back({"reduce", times_.reduce});
    times_ = {};
    return out;
  }

 private:
  struct Times {
    double plan = 0.0, degrid = 0.0, residual = 0.0, grid = 0.0, reduce = 0.0;
  };

  // Both planes as the operators' model grids (one FFT each).
  void prepareModels(const double* planes) {
    image_.resize(npix_);
    for (int plane = 0; plane < 2; ++plane) {
      const double* src = planes + std::size_t(plane) * npix_;
      detail::parallelFor(npix_, [&](std::size_t begin, std::size_t end) {
        for (std::size_t p = begin; p < end; ++p)
          image_[p] = std::complex<T>(T(src[p]), T(0));
      });
      (plane == 0 ? low_ : high_).prepareDegrid(image_.data());
    }
  }

  // The chunk's model visibilities (1 - t) A I_low + t A I_high into model_, and position_
  // (t per channel).
  void degridModel(const VisibilityChunk& c, const imaging::PlannedBlock& lp,
                   const imaging::PlannedBlock& hp) {
    const auto t = Clock::now();
    position_.resize(c.num_channels());
    for (std::size_t ch = 0; ch < position_.size(); ++ch)
      position_[ch] = band_.position(c.frequencies_hz[ch]);
    model_.resize(c.num_samples());
    high_model_.resize(c.num_samples());
    low_.degridBlock(lp, model_.data());
    high_.degridBlock(hp, high_model_.data());
    const std::size_t channels = c.num_channels();
    for (std::size_t k = 0; k < model_.size(); ++k) {
      const T s = T(position_[k % channels]);
      model_[k] += s * (high_model_[k] - model_[k]);
    }
    times_.degrid += secondsSince(t);
  }

  template <typename F>
  void pass(F visit) {
    chunks_.forEach([&](const VisibilityChunk& c, std::size_t i) {
      const auto t = Clock::now();
      std::unique_ptr<imaging::PlannedBlock> own_low, own_high;
      const imaging::PlannedBlock* lp = nullptr;
      const imaging::PlannedBlock* hp = nullptr;
      if (!low_plans_.empty()) {
        if (i >= low_plans_.size())
          throw std::logic_error("chi2: a held chunk sequence changed length between passes");
        lp = low_plans_[i].get();
        hp = high_plans_[i].get();
      } else {
        own_low = low_.planBlock(imaging::UvwBlock::of(c));
        own_high = high_.planBlock(imaging::UvwBlock::of(c));
        lp = own_low.get();
        hp = own_high.get();
      }
      times_.plan += secondsSince(t);
      visit(c, *lp, *hp);
    });
  }

  // Re A^H of the operator's streaming grid into out (npix values), in double.
  void endGrid(imaging::ImagingOperator<T>& op, double* out) {
    adjoint_image_.resize(npix_);
    op.endGridDouble(adjoint_image_.data());
    for (std::size_t p = 0; p < npix_; ++p)
      out[p] = adjoint_image_[p].real();
  }

  imaging::ImagingOperator<T>& low_;
  imaging::ImagingOperator<T>& high_;
  ChunkSequence& chunks_;
  SpectrumBand band_;
  DataTotals totals_;
  SumOverProcesses sum_;
  std::size_t npix_;
  std::vector<std::unique_ptr<imaging::PlannedBlock>> low_plans_, high_plans_;  // held chunks
  std::vector<std::complex<T>> image_, model_, high_model_, low_residual_, high_residual_;
  std::vector<double> position_;
  std::vector<std::complex<double>> adjoint_image_;
  std::vector<double> adjoint_;  // [Re A^H (1 - t) W r, Re A^H t W r], summed over processes
  Times times_;
};

template <typename T>
std::shared_ptr<DataTerm> make(imaging::ImagingOperator<T>& low, imaging::ImagingOperator<T>& high,
                               ChunkSequence& chunks, SpectrumBand band, DataTotals totals,
                               SumOverProcesses sum) {
  return std::make_shared<LinearSpectrumChi2Term<T>>(low, high, chunks, band, totals,
                                                     std::move(sum));
}

}  // namespace

std::shared_ptr<DataTerm> makeLinearSpectrumChi2Term(imaging::ImagingOperator<float>& low,
                                                     imaging::ImagingOperator<float>& high,
                                                     ChunkSequence& chunks, SpectrumBand band,
                                                     DataTotals totals, SumOverProcesses sum) {
  return make(low, high, chunks, band, totals, std::move(sum));
}

std::shared_ptr<DataTerm> makeLinearSpectrumChi2Term(imaging::ImagingOperator<double>& low,
                                                     imaging::ImagingOperator<double>& high,
                                                     ChunkSequence& chunks, SpectrumBand band,
                                                     DataTotals totals, SumOverProcesses sum) {
  return make(low, high, chunks, band, totals, std::move(sum));
}

std::vector<double> linearSpectrumImage(const double* planes, std::size_t num_pixels,
                                        SpectrumBand band, double frequency_hz) {
  const double t = band.position(frequency_hz);
  std::vector<double> out(num_pixels);
  for (std::size_t p = 0; p < num_pixels; ++p)
    out[p] = (1.0 - t) * planes[p] + t * planes[num_pixels + p];
  return out;
}

}  // namespace apertura::rml
