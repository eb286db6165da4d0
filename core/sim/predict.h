#pragma once

#include <complex>
#include <cstddef>
#include <vector>

#include "core/sim/sky_model.h"

namespace apertura::sim {

// Sign convention (the one casacore, CASA and WSClean use with the MS UVW = X_ant2 - X_ant1):
//   V(u, v, w) = integral I(l, m) exp(-2 pi i (u l + v m + w (n - 1))) dl dm / n,
// with u, v, w in wavelengths and n = sqrt(1 - l^2 - m^2). A point source of flux S at (l, m)
// therefore contributes S exp(-2 pi i (u l + v m + w (n - 1))) exactly; Gaussians and disks use
// their analytic Fourier transforms times the phase of their centre (the w-term across their
// small extent is neglected).
//
// Evaluates the model for `rows` rows of uvw (metres, 3 per row) at every frequency and writes
// out[row * nchan + chan] (Stokes I; an unpolarised sky gives XX = YY = RR = LL = I).
// Parallel over rows (oneTBB); the result does not depend on the number of threads. A fast image
// (SkyModel::fast_image) is added through the gridding operator, to its epsilon.
void predictVisibilities(const SkyModel& sky, const double* uvw_m, std::size_t rows,
                         const std::vector<double>& frequencies_hz, std::complex<double>* out);

}  // namespace apertura::sim
