#pragma once

#include <memory>
#include <vector>

#include "core/rml/data_term.h"

namespace apertura::rml {

// The data term evaluated through the PSF, without a pass over the visibilities. Without a
// w-term, chi2 is a quadratic whose Hessian is a convolution with the (natural-weight, unscaled)
// PSF P(d) = Re sum_k w_k exp(2 pi i u_k . d):
//   chi2(I) = chi2(I0) + g0 . (I - I0) + (I - I0) . P * (I - I0),   grad = g0 + 2 P * (I - I0),
// exact at the anchor I0 (chi2 and g0 come from one pass of the visibility-domain term there) and
// quadratic around it, so cancellation against sum w |V|^2 never enters the value. An evaluation
// is two FFTs of an image twice the size in each axis. The exact term also answers everything
// that needs the visibilities themselves (residuals, totals).
//
// A linear-spectrum model (rml/linear_spectrum_chi2_term.h, parameters [I_low, I_high]) has a
// 2 x 2 block Hessian: with d = (d_low, d_high) the quadratic part is
//   d_low . P_ll * d_low + 2 d_low . P_lh * d_high + d_high . P_hh * d_high,
// P_ll, P_lh and P_hh the PSFs of the weights times (1 - t)^2, t (1 - t) and t^2. An evaluation
// is then four FFTs (two forward, two back).
class PsfChi2Term final : public DataTerm {
 public:
  // `psf2`: P on an image of 2 nx x 2 ny pixels with the image's cell, zero lag at pixel
  // (nx, ny). Anchored at the zero image.
  PsfChi2Term(std::shared_ptr<DataTerm> exact, int nx, int ny, const std::vector<double>& psf2,
              int threads);
  // The linear-spectrum term: psf2_blocks = {P_ll, P_lh, P_hh}, each as psf2 above; `exact` has
  // 2 nx ny parameters.
  PsfChi2Term(std::shared_ptr<DataTerm> exact, int nx, int ny,
              const std::vector<std::vector<double>>& psf2_blocks, int threads);
  ~PsfChi2Term() override;

  double evaluate(const double* image, double* gradient, double scale) override;
  // One pass of the exact term at `image`, which becomes the anchor.
  void anchor(const double* image);
  std::size_t numPixels() const override { return exact_->numPixels(); }
  std::size_t numSamples() const override { return exact_->numSamples(); }
  double sumWeights() const override { return exact_->sumWeights(); }
  void forEachResidual(const double* image, const ResidualVisitor& visit) override {
    exact_->forEachResidual(image, visit);
  }
  std::vector<StageTime> takeStageTimes() override;

  // (P * x) on an image (nx * ny), for tests and the accuracy check (the first block's P).
  void convolve(const double* x, double* out);

 private:
  struct Fft;
  std::shared_ptr<DataTerm> exact_;
  std::unique_ptr<Fft> fft_;
  int planes_ = 1;
  std::vector<double> anchor_image_, anchor_gradient_;
  double anchor_value_ = 0.0;
  std::vector<double> delta_, conv_;
  std::vector<StageTime> times_;
};

}  // namespace apertura::rml
