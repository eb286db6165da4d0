#include "core/rml/fit_statistics.h"

#include <cmath>

namespace apertura::rml {

FitStatistics residualImage(DataTerm& chi2, const double* model,
                            std::vector<double>& residual_image) {
  FitStatistics s;
  residual_image.assign(chi2.numPixels(), 0.0);
  const double norm = chi2.sumWeights() > 0.0 ? -0.5 / chi2.sumWeights() : 0.0;
  s.chi2 = chi2.evaluate(model, residual_image.data(), norm);
  chi2.takeStageTimes();
  s.num_samples = chi2.numSamples();
  s.chi2_per_dof = s.num_samples > 0 ? s.chi2 / (2.0 * double(s.num_samples)) : 0.0;
  s.residual_vis_rms = chi2.sumWeights() > 0.0 ? std::sqrt(s.chi2 / chi2.sumWeights()) : 0.0;
  double sum2 = 0.0;
  for (double v : residual_image)
    sum2 += v * v;
  s.residual_image_rms =
      residual_image.empty() ? 0.0 : std::sqrt(sum2 / double(residual_image.size()));
  return s;
}

}  // namespace apertura::rml
