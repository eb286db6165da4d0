#pragma once

#include <vector>

#include "core/rml/data_term.h"

namespace apertura::rml {

// How well a model fits the data.
struct FitStatistics {
  double chi2 = 0.0;
  std::size_t num_samples = 0;  // unflagged complex samples
  // chi2 / (2 N): two real degrees of freedom per complex sample; the pixel count is NOT
  // subtracted (a regularised model has far fewer effective parameters than pixels).
  double chi2_per_dof = 0.0;
  double residual_vis_rms = 0.0;    // sqrt(sum w |r|^2 / sum w) in Jy
  double residual_image_rms = 0.0;  // RMS of the residual image in Jy/beam
};

// The dirty image of the residual visibilities r = V - A model with the measured weights,
// Re A^H W r / sum w (Jy/beam), into residual_image, and the statistics. One evaluation of the
// data term: its gradient is -2 A^H W r.
FitStatistics residualImage(DataTerm& chi2, const double* model,
                            std::vector<double>& residual_image);

}  // namespace apertura::rml
