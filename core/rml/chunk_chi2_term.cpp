#include "core/rml/chunk_chi2_term.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data/exact_sum.h"
#include "core/imaging/device_gridding.h"
#include "core/rml/detail/parallel_sum.h"
#include "core/rml/detail/stage_clock.h"
#include "core/rml/resident_process_sum.h"
#include "core/util/input_error.h"

namespace apertura::rml {
namespace {

using Clock = detail::StageClock;
using detail::secondsSince;

// Headroom of the exact sums' range over the largest partial seen so far: a later evaluation
// whose partials grow by more than 2^16 makes the pass start again with a wider range.
constexpr int kExactHeadroom = 16;

template <typename T>
class ChunkChi2Term final : public DataTerm {
 public:
  ChunkChi2Term(imaging::ImagingOperator<T>& op, ChunkSequence& chunks, DataTotals totals,
                const ChunkChi2Options& options)
      : op_(op),
        chunks_(chunks),
        totals_(totals),
        sum_(options.sum),
        exact_(options.exact_chunk_sums),
        image_(op.geometry().numPixels()) {
    if (chunks.held()) {
      std::vector<imaging::UvwBlock> blocks;
      chunks.forEach([&](const VisibilityChunk& c, std::size_t) {
        blocks.push_back(imaging::UvwBlock::of(c));
      });
      plans_ = op_.planBlocks(blocks);
    }
  }

  std::size_t numPixels() const override { return image_.size(); }
  std::size_t numSamples() const override { return totals_.valid_samples; }
  double sumWeights() const override { return totals_.sum_weights; }

  double evaluate(const double* image, double* gradient, double scale) override {
    const auto start = Clock::now();
    auto t = Clock::now();
    prepareModel(image);
    pass_.degrid += secondsSince(t);
    double chi2 = exact_ ? evaluateExact(gradient != nullptr) : evaluateSummed(gradient != nullptr);
    if (gradient != nullptr) {
      detail::parallelFor(adjoint_.size(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t p = begin; p < end; ++p)
          gradient[p] += 2.0 * scale * adjoint_[p];
      });
    }
    recordPass(gradient != nullptr, secondsSince(start));
    return chi2;
  }

  // Resident: the operator's own space, for the plain sum of the chunks, over processes too
  // (the partial gradient comes to the host for the allreduce only); the exact sums reduce on
  // the host.
  compute::VectorSpace* dataSpace() override { return residentSum() ? op_.vectorSpace() : nullptr; }
  bool residentIn(compute::VectorSpace& space) const override {
    return residentSum() && op_.vectorSpace() == &space;
  }
  double evaluateIn(compute::VectorSpace& space, const compute::SpaceVector& image,
                    compute::SpaceVector* gradient, double scale) override {
    const auto start = Clock::now();
    auto t = Clock::now();
    op_.prepareDegridResident(image);
    pass_.degrid += secondsSince(t);
    if (gradient != nullptr)
      op_.beginGrid();
    double chi2 = 0.0;
    pass([&](const VisibilityChunk& c, const imaging::PlannedBlock& plan) {
      chi2 += chunkChi2(c, plan, gradient != nullptr);
    });
    if (gradient != nullptr) {
      t = Clock::now();
      if (sum_)
        op_.endGridResident(1.0, resident_sum_.partial(space, image.size()));
      else
        op_.endGridResident(2.0 * scale, *gradient);
      pass_.grid += secondsSince(t);
    }
    if (sum_) {
      t = Clock::now();
      chi2 = resident_sum_.finish(sum_, space, chi2, gradient, 2.0 * scale);
      pass_.reduce += secondsSince(t);
    }
    recordPass(gradient != nullptr, secondsSince(start));
    return chi2;
  }

  void forEachResidual(const double* image, const ResidualVisitor& visit) override {
    prepareModel(image);
    Residual residual, model;
    chunks_.forEach([&](const VisibilityChunk& c, std::size_t i) {
      std::unique_ptr<imaging::PlannedBlock> own;
      const imaging::PlannedBlock& plan = planFor(c, i, own);
      model_.resize(c.num_samples());
      op_.degridBlock(plan, model_.data());
      model.assign(model_.begin(), model_.end());
      residual.resize(model.size());
      for (std::size_t k = 0; k < model.size(); ++k)
        residual[k] = std::complex<double>(c.visibilities[k]) - model[k];
      visit(i, residual, model);
    });
  }

  std::vector<StageTime> takeStageTimes() override {
    std::vector<StageTime> out;
    out.swap(times_);
    return out;
  }

 private:
  struct PassTimes {
    double plan = 0.0, degrid = 0.0, residual = 0.0, grid = 0.0, reduce = 0.0;
  };

  // The plain sum of the chunks by an operator that forms residuals: the sums that can stay
  // where the operator keeps its data.
  bool residentSum() const { return !exact_ && op_.formsResiduals(); }

  // The pass's stage times (`total` seconds in all) into times_, and a fresh pass_.
  void recordPass(bool gradient, double total) {
    if (pass_.reduce > 0.0 || sum_)
      times_.push_back({"reduce", pass_.reduce});
    times_.push_back({"degrid", pass_.degrid});
    times_.push_back({"residual", pass_.residual});
    if (gradient)
      times_.push_back({"grid", pass_.grid});
    times_.push_back({"plan", pass_.plan});
    if (!chunks_.held()) {  // what the pass spent waiting for chunks from disk
      const double busy = pass_.plan + pass_.degrid + pass_.residual + pass_.grid + pass_.reduce;
      times_.push_back({"read", std::max(0.0, total - busy)});
    }
    pass_ = {};
  }

  // One pass over the chunks: chi2 (summed over processes) and, with `gradient`, adjoint_.
  double evaluateSummed(bool gradient) {
    if (gradient)
      op_.beginGrid();
    double chi2 = 0.0;
    pass([&](const VisibilityChunk& c, const imaging::PlannedBlock& plan) {
      chi2 += chunkChi2(c, plan, gradient);
    });
    if (gradient) {
      const auto t = Clock::now();
      endGrid(adjoint_);
      pass_.grid += secondsSince(t);
    }
    if (sum_) {
      const auto t = Clock::now();
      sum_(&chi2, 1);
      if (gradient)
        sum_(adjoint_.data(), adjoint_.size());
      pass_.reduce += secondsSince(t);
    }
    return chi2;
  }

  // The deterministic reduction: each chunk's partial image on its own, all of them (and the
  // per-chunk chi2 values) added exactly. The first pass, or one whose partials outgrow the
  // range, only finds the range every process agrees on, and the pass is made again.
  double evaluateExact(bool gradient) {
    std::vector<double> chunk_chi2, part;
    if (gradient && image_sum_.size() != image_.size())
      image_sum_.resize(image_.size());
    for (int attempt = 0;; ++attempt) {
      if (attempt == 2)
        throw std::logic_error("chi2: the exact sum's range did not settle");
      chunk_chi2.clear();
      image_sum_.clear();
      int local_exponent = ExactSum::kZero;
      bool refused = gradient && !image_sum_.hasRange();
      pass([&](const VisibilityChunk& c, const imaging::PlannedBlock& plan) {
        if (gradient)
          op_.beginGrid();
        chunk_chi2.push_back(chunkChi2(c, plan, gradient));
        if (!gradient)
          return;
        const auto t = Clock::now();
        endGrid(part);
        local_exponent =
            std::max(local_exponent, ExactSum::exponentBound(part.data(), part.size()));
        if (!refused && !image_sum_.add(part.data()))
          refused = true;
        pass_.grid += secondsSince(t);
      });
      const auto t = Clock::now();
      double counts[2] = {double(refused), double(chunk_chi2.size())};
      if (sum_)
        sum_(counts, 2);
      chunks_total_ = std::uint64_t(counts[1]);
      const double chi2 = ExactSum::total(chunk_chi2, sum_);
      if (!gradient) {
        pass_.reduce += secondsSince(t);
        return chi2;
      }
      const int exponent = ExactSum::maxOverProcesses(local_exponent, sum_);
      if (exponent >= ExactSum::kNonFinite) {  // a NaN or infinite partial: no sum exists
        adjoint_.assign(image_.size(), std::numeric_limits<double>::quiet_NaN());
        pass_.reduce += secondsSince(t);
        return chi2;
      }
      // A range far wider than the partials would waste resolution: follow them down, too.
      const bool too_wide =
          image_sum_.hasRange() && exponent + 2 * kExactHeadroom < image_sum_.maxExponent();
      if (counts[0] > 0.0) {  // some partial was not added: the pass again, in the agreed range
        image_sum_.setRange(exponent + kExactHeadroom, chunks_total_);
        pass_.reduce += secondsSince(t);
        continue;
      }
      adjoint_.resize(image_.size());
      image_sum_.reduce(sum_, adjoint_.data());
      if (too_wide)  // for the next evaluation
        image_sum_.setRange(exponent + kExactHeadroom, chunks_total_);
      pass_.reduce += secondsSince(t);
      return chi2;
    }
  }

  // Plans every chunk (held chunks were planned once) and calls visit(chunk, plan).
  template <typename F>
  void pass(F visit) {
    chunks_.forEach([&](const VisibilityChunk& c, std::size_t i) {
      const auto t = Clock::now();
      std::unique_ptr<imaging::PlannedBlock> own;
      const imaging::PlannedBlock& plan = planFor(c, i, own);
      pass_.plan += secondsSince(t);
      visit(c, plan);
    });
  }

  // The chunk's chi2 and, with `grid`, its weighted residuals W (A I - V) added into the
  // operator's streaming grid. A backend that forms residuals does all of it where the data are
  // (its time counts as "residual"); otherwise the model comes to the host and the residuals go
  // back.
  double chunkChi2(const VisibilityChunk& c, const imaging::PlannedBlock& plan, bool grid) {
    if (op_.formsResiduals()) {
      const auto t = Clock::now();
      const double chi2 = op_.residualBlock(plan, c.visibilities.data(), c.weights.data(), grid);
      pass_.residual += secondsSince(t);
      return chi2;
    }
    auto t = Clock::now();
    model_.resize(c.num_samples());
    op_.degridBlock(plan, model_.data());
    pass_.degrid += secondsSince(t);
    t = Clock::now();
    residual_.resize(model_.size());
    double chi2 = 0.0;
    for (std::size_t k = 0; k < model_.size(); ++k) {
      T rr, ri;
      chi2 += imaging::chi2Residual<T>(model_[k].real(), model_[k].imag(), c.visibilities[k].real(),
                                       c.visibilities[k].imag(), c.weights[k], rr, ri);
      residual_[k] = std::complex<T>(rr, ri);
    }
    pass_.residual += secondsSince(t);
    if (grid) {
      t = Clock::now();
      op_.gridBlock(plan, residual_.data(), nullptr);
      pass_.grid += secondsSince(t);
    }
    return chi2;
  }

  // Re A^H of the gridded residuals into out, in double: with the operator's double
  // accumulation the sum over chunks is never rounded to float before processes add theirs.
  void endGrid(std::vector<double>& out) {
    adjoint_image_.resize(image_.size());
    op_.endGridDouble(adjoint_image_.data());
    out.resize(image_.size());
    detail::parallelFor(image_.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t p = begin; p < end; ++p)
        out[p] = adjoint_image_[p].real();
    });
  }

  void prepareModel(const double* image) {
    detail::parallelFor(image_.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t p = begin; p < end; ++p)
        image_[p] = std::complex<T>(T(image[p]), T(0));
    });
    op_.prepareDegrid(image_.data());
  }

  const imaging::PlannedBlock& planFor(const VisibilityChunk& c, std::size_t index,
                                       std::unique_ptr<imaging::PlannedBlock>& own) {
    if (!plans_.empty()) {
      if (index >= plans_.size())
        throw std::logic_error("chi2: a held chunk sequence changed length between passes");
      return *plans_[index];
    }
    own = op_.planBlock(imaging::UvwBlock::of(c));
    return *own;
  }

  imaging::ImagingOperator<T>& op_;
  ChunkSequence& chunks_;
  DataTotals totals_;
  SumOverProcesses sum_;
  ResidentProcessSum resident_sum_;  // sum_'s buffers in resident passes
  bool exact_ = false;
  std::vector<std::complex<T>> residual_;            // W (A I - V) of one chunk
  std::vector<std::complex<double>> adjoint_image_;  // A^H of the residuals, before Re
  std::vector<double> adjoint_;                      // Re A^H W (A I - V), summed over processes
  std::vector<std::unique_ptr<imaging::PlannedBlock>> plans_;  // held chunks only
  std::vector<std::complex<T>> image_;
  std::vector<std::complex<T>> model_;
  ExactSum image_sum_;              // deterministic reduction: the partial images
  std::uint64_t chunks_total_ = 0;  // chunks over all processes (learnt in the first pass)
  PassTimes pass_;
  std::vector<StageTime> times_;
};

template <typename T>
std::shared_ptr<DataTerm> make(imaging::ImagingOperator<T>& op, ChunkSequence& chunks,
                               const ChunkChi2Options& options) {
  return std::make_shared<ChunkChi2Term<T>>(
      op, chunks, options.totals ? *options.totals : countDataTotals(chunks), options);
}

ChunkChi2Options plainOptions(std::optional<DataTotals> totals, SumOverProcesses sum) {
  ChunkChi2Options o;
  o.totals = totals;
  o.sum = std::move(sum);
  return o;
}

}  // namespace

DataTotals countDataTotals(ChunkSequence& chunks) {
  DataTotals totals;
  chunks.forEach([&](const VisibilityChunk& c, std::size_t i) {
    if (c.weights.size() != c.num_samples() || c.num_samples() != c.num_rows() * c.num_channels())
      throw std::invalid_argument("chi2: chunk " + std::to_string(i) +
                                  " has inconsistent array sizes");
    for (float w : c.weights) {
      if (!(w >= 0.0f))
        throw InputError("weights", "chunk " + std::to_string(i) +
                                        " holds a negative or NaN weight; expected w >= 0");
      if (w > 0.0f)
        ++totals.valid_samples;
      totals.sum_weights += w;
    }
  });
  return totals;
}

std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<float>& op,
                                            ChunkSequence& chunks, std::optional<DataTotals> totals,
                                            SumOverProcesses sum) {
  return make(op, chunks, plainOptions(totals, std::move(sum)));
}

std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<double>& op,
                                            ChunkSequence& chunks, std::optional<DataTotals> totals,
                                            SumOverProcesses sum) {
  return make(op, chunks, plainOptions(totals, std::move(sum)));
}

std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<float>& op,
                                            ChunkSequence& chunks,
                                            const ChunkChi2Options& options) {
  return make(op, chunks, options);
}

std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<double>& op,
                                            ChunkSequence& chunks,
                                            const ChunkChi2Options& options) {
  return make(op, chunks, options);
}

}  // namespace apertura::rml
