#pragma once

#include <cstddef>
#include <vector>

namespace apertura_wavelet {

// The isotropic undecimated wavelet ("starlet") transform of Starck, Fadili & Murtagh (2007):
// the B3-spline a trous algorithm. With c_0 = x and the separable kernel h = [1, 4, 6, 4, 1] / 16
// dilated by 2^j (holes),
//   c_{j+1} = h_j * c_j,   w_{j+1} = c_j - c_{j+1},   j = 0 .. J-1,
// so x = c_J + sum_j w_j exactly. Borders are mirrored (symmetric, edge not repeated). The
// analysis operator W: x -> (w_1, ..., w_J, c_J) is linear but not orthogonal; adjoint() is its
// exact transpose (the mirrored convolutions are transposed by scattering, not re-applied), which
// gradients and the prox need.
class StarletTransform {
 public:
  StarletTransform(int nx, int ny, int scales);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  int scales() const { return scales_; }
  std::size_t pixels() const { return std::size_t(nx_) * std::size_t(ny_); }
  // Coefficients: scales() detail planes then the coarse plane, each pixels() values.
  std::size_t coefficients() const { return (std::size_t(scales_) + 1) * pixels(); }

  void forward(const double* image, double* coeffs) const;
  void adjoint(const double* coeffs, double* image) const;
  // x = c_J + sum_j w_j (the inverse of forward() on its range).
  void reconstruct(const double* coeffs, double* image) const;

 private:
  // out = h_j * in (gather), or out += h_j^T in (scatter); along x then y.
  void smooth(const double* in, double* out, int scale) const;
  void smoothTransposed(const double* in, double* out, int scale) const;
  int nx_, ny_, scales_;
  mutable std::vector<double> tmp_;
};

}  // namespace apertura_wavelet
