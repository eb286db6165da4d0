#pragma once

// A test double of an accelerator backend on the host: the CPU operator, with chi2 residuals
// formed by the operator (as the CUDA backend does) and resident images in a HostVectorSpace, so
// the CPU tests run the resident RML path end to end (ChunkChi2Term::evaluateIn, w-stacking's
// HeldChi2Term::evaluateIn, the objective, the mapping, the resident L-BFGS) on real gridding.
#include <complex>
#include <memory>
#include <vector>

#include "core/imaging/device_gridding.h"
#include "core/imaging/imaging_operator.h"
#include "core/rml/host_vector_space.h"

namespace apertura::rml::test {

template <typename T>
class HostResidentOperator final : public imaging::ImagingOperator<T> {
 public:
  using Complex = std::complex<T>;
  // resident = false: residuals formed by the operator, images on the host (the reference the
  // resident path is compared with).
  HostResidentOperator(std::unique_ptr<imaging::ImagingOperator<T>> inner, bool resident)
      : inner_(std::move(inner)), resident_(resident) {}

  void setSamples(const std::vector<imaging::UvwBlock>& blocks) override {
    inner_->setSamples(blocks);
    sizes_.clear();
    for (const auto& b : blocks)
      sizes_.push_back(b.numSamples());
  }
  void degrid(const Complex* image, const std::vector<Complex*>& vis) override {
    inner_->degrid(image, vis);
  }
  void grid(const std::vector<const Complex*>& vis, const std::vector<const float*>& weights,
            Complex* image) override {
    inner_->grid(vis, weights, image);
  }
  std::unique_ptr<imaging::PlannedBlock> planBlock(const imaging::UvwBlock& block) override {
    return std::make_unique<Plan>(inner_->planBlock(block), block.numSamples());
  }
  std::vector<std::unique_ptr<imaging::PlannedBlock>> planBlocks(
      const std::vector<imaging::UvwBlock>& blocks) override {
    auto inner = inner_->planBlocks(blocks);
    std::vector<std::unique_ptr<imaging::PlannedBlock>> out;
    for (std::size_t b = 0; b < blocks.size(); ++b)
      out.push_back(std::make_unique<Plan>(std::move(inner[b]), blocks[b].numSamples()));
    return out;
  }
  void prepareDegrid(const Complex* image) override { inner_->prepareDegrid(image); }
  void degridBlock(const imaging::PlannedBlock& block, Complex* vis) override {
    inner_->degridBlock(inner(block), vis);
  }
  void beginGrid() override { inner_->beginGrid(); }
  void gridBlock(const imaging::PlannedBlock& block, const Complex* vis,
                 const float* weights) override {
    inner_->gridBlock(inner(block), vis, weights);
  }
  void endGrid(Complex* image) override { inner_->endGrid(image); }
  void endGridDouble(std::complex<double>* image) override { inner_->endGridDouble(image); }
  const imaging::ImageGeometry& geometry() const override { return inner_->geometry(); }
  const imaging::KernelShape& kernel() const override { return inner_->kernel(); }
  int gridCellsX() const override { return inner_->gridCellsX(); }
  int gridCellsY() const override { return inner_->gridCellsY(); }
  std::string describe() const override { return "host-resident " + inner_->describe(); }

  bool formsResiduals() const override { return true; }
  double residualBlock(const imaging::PlannedBlock& block, const std::complex<float>* vis,
                       const float* weights, bool grid) override {
    const std::size_t n = static_cast<const Plan&>(block).samples;
    model_.resize(n);
    inner_->degridBlock(inner(block), model_.data());
    double chi2 = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      T rr, ri;
      chi2 += imaging::chi2Residual<T>(model_[k].real(), model_[k].imag(), T(vis[k].real()),
                                       T(vis[k].imag()), weights[k], rr, ri);
      model_[k] = Complex(rr, ri);
    }
    if (grid)
      inner_->gridBlock(inner(block), model_.data(), nullptr);
    return chi2;
  }

  compute::VectorSpace* vectorSpace() override { return resident_ ? &space_ : nullptr; }
  void prepareDegridResident(const compute::SpaceVector& image) override {
    ++resident_calls;
    const auto& x = HostVectorSpace::of(image);
    image_.assign(x.begin(), x.end());
    inner_->prepareDegrid(image_.data());
  }
  void endGridResident(double scale, compute::SpaceVector& image) override {
    adjoint_.resize(geometry().numPixels());
    inner_->endGridDouble(adjoint_.data());
    auto& g = HostVectorSpace::of(image);
    for (std::size_t p = 0; p < g.size(); ++p)
      g[p] += scale * adjoint_[p].real();
  }

  // With w-stacking (the inner operator's whole calls), as the CUDA backend forms them.
  bool formsHeldResiduals() const override { return resident_; }
  double heldResiduals(const std::vector<const std::complex<float>*>& vis,
                       const std::vector<const float*>& weights, const compute::SpaceVector& image,
                       compute::SpaceVector* gradient, double scale) override {
    ++resident_calls;
    const auto& x = HostVectorSpace::of(image);
    image_.assign(x.begin(), x.end());
    std::vector<std::vector<Complex>> model(vis.size());
    std::vector<Complex*> out;
    std::vector<const Complex*> in;
    for (std::size_t b = 0; b < vis.size(); ++b) {
      model[b].resize(sizes_.at(b));
      out.push_back(model[b].data());
      in.push_back(model[b].data());
    }
    inner_->degrid(image_.data(), out);
    double chi2 = 0.0;
    for (std::size_t b = 0; b < vis.size(); ++b) {
      for (std::size_t k = 0; k < model[b].size(); ++k) {
        T rr, ri;
        chi2 +=
            imaging::chi2Residual<T>(model[b][k].real(), model[b][k].imag(), T(vis[b][k].real()),
                                     T(vis[b][k].imag()), weights[b][k], rr, ri);
        model[b][k] = Complex(rr, ri);
      }
    }
    if (gradient) {
      adjoint_.resize(geometry().numPixels());
      inner_->gridDouble(in, std::vector<const float*>(vis.size(), nullptr), adjoint_.data());
      auto& g = HostVectorSpace::of(*gradient);
      for (std::size_t p = 0; p < g.size(); ++p)
        g[p] += scale * adjoint_[p].real();
    }
    return chi2;
  }

  int resident_calls = 0;

 private:
  // The inner operator's plan and the block's number of samples (residualBlock needs it).
  struct Plan final : imaging::PlannedBlock {
    Plan(std::unique_ptr<imaging::PlannedBlock> p, std::size_t n)
        : plan(std::move(p)), samples(n) {}
    std::unique_ptr<imaging::PlannedBlock> plan;
    std::size_t samples;
  };
  static const imaging::PlannedBlock& inner(const imaging::PlannedBlock& block) {
    return *static_cast<const Plan&>(block).plan;
  }

  std::unique_ptr<imaging::ImagingOperator<T>> inner_;
  bool resident_;
  HostVectorSpace space_;
  std::vector<Complex> model_, image_;
  std::vector<std::complex<double>> adjoint_;
  std::vector<std::size_t> sizes_;  // setSamples(): each block's samples
};

}  // namespace apertura::rml::test
