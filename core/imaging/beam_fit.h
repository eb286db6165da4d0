#pragma once

#include <vector>

#include "core/imaging/image_geometry.h"

namespace apertura::imaging {

// Elliptical Gaussian clean beam: full widths at half maximum and position angle of the major
// axis, east of north (from +m towards +l), all in radians; bpa in (-pi/2, pi/2].
struct CleanBeam {
  double bmaj = 0.0;
  double bmin = 0.0;
  double bpa = 0.0;
};

// Fits a clean beam to the main lobe of a PSF (peak-normalised or not). Method: the pixels above
// half the peak that are connected to the peak (the main lobe; at least the peak's 3 x 3
// neighbourhood) are fitted by weighted linear least squares of -2 ln(P / P_peak) to the
// quadratic form a l^2 + 2 b l m + c m^2 (weights P^2, which approximates the least-squares fit of
// the Gaussian itself and is exact for a Gaussian main lobe); BMAJ/BMIN/BPA follow from the
// eigen-decomposition of [[a, b], [b, c]]. Throws std::runtime_error if the lobe is degenerate.
CleanBeam fitCleanBeam(const std::vector<float>& psf, const ImageGeometry& geometry);

// The elliptical Gaussian of the beam, peak 1, centred on pixel (nx/2, ny/2) (for tests and
// restoring).
std::vector<float> gaussianBeamImage(const CleanBeam& beam, const ImageGeometry& geometry);

}  // namespace apertura::imaging
