#include "core/rml/chunk_chi2_term.h"

#include <chrono>

#include "core/util/input_error.h"

namespace apertura::rml {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <typename T>
class ChunkChi2Term final : public DataTerm {
 public:
  ChunkChi2Term(imaging::ImagingOperator<T>& op, ChunkSequence& chunks, DataTotals totals,
                SumOverProcesses sum)
      : op_(op),
        chunks_(chunks),
        totals_(totals),
        sum_(std::move(sum)),
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
    double plan_s = 0.0, degrid_s = 0.0, residual_s = 0.0, grid_s = 0.0;
    auto t = Clock::now();
    prepareModel(image);
    degrid_s += secondsSince(t);
    if (gradient != nullptr)
      op_.beginGrid();
    double chi2 = 0.0;
    chunks_.forEach([&](const VisibilityChunk& c, std::size_t i) {
      t = Clock::now();
      std::unique_ptr<imaging::PlannedBlock> own;
      const imaging::PlannedBlock& plan = planFor(c, i, own);
      plan_s += secondsSince(t);
      t = Clock::now();
      model_.resize(c.num_samples());
      op_.degridBlock(plan, model_.data());
      degrid_s += secondsSince(t);
      t = Clock::now();
      for (std::size_t k = 0; k < model_.size(); ++k) {
        const std::complex<double> r =
            std::complex<double>(model_[k]) - std::complex<double>(c.visibilities[k]);
        const double w = c.weights[k];
        chi2 += w * std::norm(r);
        model_[k] = std::complex<T>(w * r);  // W (A I - V), for the adjoint
      }
      residual_s += secondsSince(t);
      if (gradient != nullptr) {
        t = Clock::now();
        op_.gridBlock(plan, model_.data(), nullptr);
        grid_s += secondsSince(t);
      }
    });
    if (gradient != nullptr) {
      t = Clock::now();
      op_.endGrid(image_.data());
      adjoint_.resize(image_.size());
      for (std::size_t p = 0; p < image_.size(); ++p)
        adjoint_[p] = double(image_[p].real());
      grid_s += secondsSince(t);
    }
    if (sum_) {
      t = Clock::now();
      sum_(&chi2, 1);
      if (gradient != nullptr)
        sum_(adjoint_.data(), adjoint_.size());
      times_.push_back({"reduce", secondsSince(t)});
    }
    if (gradient != nullptr) {
      for (std::size_t p = 0; p < adjoint_.size(); ++p)
        gradient[p] += 2.0 * scale * adjoint_[p];
    }
    const double total = secondsSince(start);
    times_.push_back({"degrid", degrid_s});
    times_.push_back({"residual", residual_s});
    if (gradient != nullptr)
      times_.push_back({"grid", grid_s});
    times_.push_back({"plan", plan_s});
    if (!chunks_.held())  // what the pass spent waiting for chunks from disk
      times_.push_back({"read", std::max(0.0, total - plan_s - degrid_s - residual_s - grid_s)});
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
  void prepareModel(const double* image) {
    for (std::size_t p = 0; p < image_.size(); ++p)
      image_[p] = std::complex<T>(T(image[p]), T(0));
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
  std::vector<double> adjoint_;  // Re A^H W (A I - V), summed over processes
  std::vector<std::unique_ptr<imaging::PlannedBlock>> plans_;  // held chunks only
  std::vector<std::complex<T>> image_;
  std::vector<std::complex<T>> model_;
  std::vector<StageTime> times_;
};

template <typename T>
std::shared_ptr<DataTerm> make(imaging::ImagingOperator<T>& op, ChunkSequence& chunks,
                               std::optional<DataTotals> totals, SumOverProcesses sum) {
  return std::make_shared<ChunkChi2Term<T>>(op, chunks, totals ? *totals : countDataTotals(chunks),
                                            std::move(sum));
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
  return make(op, chunks, totals, std::move(sum));
}

std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<double>& op,
                                            ChunkSequence& chunks, std::optional<DataTotals> totals,
                                            SumOverProcesses sum) {
  return make(op, chunks, totals, std::move(sum));
}

}  // namespace apertura::rml
