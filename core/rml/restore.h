#pragma once

#include <vector>

#include "core/imaging/beam_fit.h"
#include "core/imaging/image_geometry.h"

namespace apertura::rml {

// The clean beam (peak 1) at an offset of (dx, dy) pixels, with the beam's position angle east of
// north (from +m towards +l) and the geometry's signed cell sizes.
double cleanBeamValue(const imaging::CleanBeam& beam, const imaging::ImageGeometry& geometry,
                      double dx_pixels, double dy_pixels);

// model (Jy/pixel) convolved with the clean beam, in Jy/beam: a linear convolution by FFT on a
// grid zero-padded by the beam's reach (no wrap-around).
std::vector<double> convolveWithCleanBeam(const std::vector<double>& model,
                                          const imaging::ImageGeometry& geometry,
                                          const imaging::CleanBeam& beam);

// The restored image: model convolved with the clean beam plus the residual image (Jy/beam).
std::vector<double> restoredImage(const std::vector<double>& model,
                                  const std::vector<double>& residual_image,
                                  const imaging::ImageGeometry& geometry,
                                  const imaging::CleanBeam& beam);

}  // namespace apertura::rml
