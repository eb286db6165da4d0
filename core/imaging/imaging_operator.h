#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/compute/vector_space.h"
#include "core/imaging/image_geometry.h"
#include "core/imaging/kernel.h"
#include "core/imaging/uv_samples.h"

namespace apertura::imaging {

struct OperatorSettings {
  double epsilon = 1e-4;      // requested accuracy (L2 relative error against the direct DFT)
  double oversampling = 2.0;  // sigma: grid size / image size, 1.2 .. 2.5
  KernelType kernel = KernelType::ExpSemicircle;
  int threads = 0;          // 0: all hardware threads
  bool w_stacking = false;  // include the w-term exp(-2 pi i w (n - 1)); else it is dropped
  // Float operators: the streaming gridding (beginGrid .. endGrid) adds every block's tiles into
  // a double grid and transforms it in double. A float grid rounds each block's contribution as
  // it is added, so the adjoint would depend on how the samples are cut into blocks (and split
  // between processes) at the 1e-7 level; a double grid leaves only the rounding inside each
  // block. Costs a double grid instead of a float one and a double FFT per endGrid.
  bool double_accumulation = false;
  // w-stacking: the w range (wavelengths) the planes must cover besides the samples given to
  // setSamples. A distributed run passes every process's range, so that all processes use the
  // same planes (the same operator) whatever w their own rows have. min > max: none.
  double w_cover_min = 1.0, w_cover_max = -1.0;
};

// A block planned for the streaming calls of ImagingOperator (backend-specific: the samples'
// order and grid scales). It borrows the block's arrays, like UvwBlock.
class PlannedBlock {
 public:
  virtual ~PlannedBlock() = default;
};

// The measurement operator pair of the imaging model:
//   A   (degrid): V_k = sum_pixels I(l, m) exp(-2 pi i (u_k l + v_k m + w_k (n - 1)))
//   A^H (grid):   I'(l, m) = sum_k y_k exp(+2 pi i (u_k l + v_k m + w_k (n - 1)))
// with n = sqrt(1 - l^2 - m^2) (the w-term only with w_stacking). A and A^H are exact adjoints of
// each other (same kernel, same correction) and both approximate the direct sums to `epsilon`.
// Images are nx * ny, ix fastest. The sample positions are set once (setSamples sorts them into
// grid tiles) and reused by every later call, as an RML loop does.
template <typename T>
class ImagingOperator {
 public:
  using Complex = std::complex<T>;
  virtual ~ImagingOperator() = default;

  virtual void setSamples(const std::vector<UvwBlock>& blocks) = 0;
  // vis[b] receives numSamples() of blocks[b] (layout row-major: r * num_channels + c).
  virtual void degrid(const Complex* image, const std::vector<Complex*>& vis) = 0;
  // image = A^H (weights .* vis); weights[b] may be null (all ones) or hold one weight per sample.
  virtual void grid(const std::vector<const Complex*>& vis,
                    const std::vector<const float*>& weights, Complex* image) = 0;

  // Streaming, for data that are not all held at once (read again from disk on every pass):
  //   prepareDegrid(image);  degridBlock(plan, vis) for each block
  //   beginGrid();           gridBlock(plan, vis, weights) for each block;  endGrid(image)
  // Degridding reads the model grid prepareDegrid left and gridding adds into a second grid, so a
  // data term can degrid, form residuals and grid each block in a single pass. Results equal
  // those of degrid()/grid() on the same blocks bit for bit. w-stacking needs one pass per w
  // plane, so it is not offered here (InputError).
  virtual std::unique_ptr<PlannedBlock> planBlock(const UvwBlock& block) = 0;
  // Blocks held in memory: planned together, in parallel.
  virtual std::vector<std::unique_ptr<PlannedBlock>> planBlocks(
      const std::vector<UvwBlock>& blocks) = 0;
  virtual void prepareDegrid(const Complex* image) = 0;
  virtual void degridBlock(const PlannedBlock& block, Complex* vis) = 0;
  virtual void beginGrid() = 0;
  virtual void gridBlock(const PlannedBlock& block, const Complex* vis, const float* weights) = 0;
  virtual void endGrid(Complex* image) = 0;

  virtual const ImageGeometry& geometry() const = 0;
  virtual const KernelShape& kernel() const = 0;
  virtual int gridCellsX() const = 0;
  virtual int gridCellsY() const = 0;
  virtual std::string describe() const = 0;  // for logs and FITS HISTORY
  // Accelerator memory this operator holds now (grids, staged samples, FFT work area), for the
  // engine's telemetry; 0 for host backends. Called from the telemetry thread: must be a cheap,
  // thread-safe read. Declared last so the vtable of older entries keeps its layout.
  virtual std::uint64_t deviceBytes() const { return 0; }
  // endGrid() into a double image: with double_accumulation the sum is not rounded to float on
  // the way out (a distributed run adds the processes' partial images after this call). By
  // default the image in T, widened.
  virtual void endGridDouble(std::complex<double>* image) {
    std::vector<Complex> narrow(geometry().numPixels());
    endGrid(narrow.data());
    for (std::size_t p = 0; p < narrow.size(); ++p)
      image[p] = std::complex<double>(narrow[p]);
  }
  // A chi2 pass over one block where the backend keeps its data (an accelerator; visibilities
  // are float in every precision, as chunks hold them): the model
  // A I from the grid prepareDegrid left, r = A I - vis, returns sum_k w_k |r_k|^2, and with
  // `grid` adds W r into the streaming grid as gridBlock(block, W r, nullptr) would. Only for
  // backends whose formsResiduals() is true; the others leave the residuals to the caller
  // (degridBlock, chi2Residual on the host, gridBlock), which costs them nothing extra. A block
  // planned with planBlocks may keep a copy of vis and weights with its plan: they must not
  // change while the plan lives.
  virtual bool formsResiduals() const { return false; }
  virtual double residualBlock(const PlannedBlock& /*block*/, const std::complex<float>* /*vis*/,
                               const float* /*weights*/, bool /*grid*/) {
    throw std::logic_error("residualBlock: this backend forms no residuals");
  }
  // Resident images, for backends that keep them in an accelerator's memory: the space they live
  // in (null: none), prepareDegrid() from a real image held there, and endGrid() adding
  // scale * Re A^H (the streaming grid) to a real image held there (in double, from the double
  // grid with double_accumulation).
  virtual compute::VectorSpace* vectorSpace() { return nullptr; }
  virtual void prepareDegridResident(const compute::SpaceVector& /*image*/) {
    throw std::logic_error("prepareDegridResident: this backend keeps no resident images");
  }
  virtual void endGridResident(double /*scale*/, compute::SpaceVector& /*image*/) {
    throw std::logic_error("endGridResident: this backend keeps no resident images");
  }
  // grid() into a double image: with double_accumulation every w plane is gridded into a double
  // grid and the planes are summed in double (w-stacking grids all blocks at once, here). By
  // default grid() widened.
  virtual void gridDouble(const std::vector<const Complex*>& vis,
                          const std::vector<const float*>& weights, std::complex<double>* image) {
    std::vector<Complex> narrow(geometry().numPixels());
    grid(vis, weights, narrow.data());
    for (std::size_t p = 0; p < narrow.size(); ++p)
      image[p] = std::complex<double>(narrow[p]);
  }
  // A chi2 pass over the blocks given to setSamples where the backend keeps its resident images
  // (w-stacking's whole calls on an accelerator: one pass per w plane over every block), for
  // backends whose formsHeldResiduals() is true: returns sum_k w_k |(A I)_k - V_k|^2 and, when
  // `gradient` is not null, adds scale * Re A^H W (A I - V) to it (image and gradient in
  // vectorSpace()). vis[b] and weights[b] hold one value per sample of block b; the backend may
  // keep a copy of them until the next setSamples(), so they must not change in between.
  virtual bool formsHeldResiduals() const { return false; }
  virtual double heldResiduals(const std::vector<const std::complex<float>*>& /*vis*/,
                               const std::vector<const float*>& /*weights*/,
                               const compute::SpaceVector& /*image*/,
                               compute::SpaceVector* /*gradient*/, double /*scale*/) {
    throw std::logic_error("heldResiduals: this backend forms no residuals of held blocks");
  }
};

// The CPU backend (threaded over grid tiles, FFTW).
template <typename T>
std::unique_ptr<ImagingOperator<T>> makeCpuOperator(const ImageGeometry& geometry,
                                                    const OperatorSettings& settings);

}  // namespace apertura::imaging
