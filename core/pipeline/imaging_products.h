#pragma once

#include <complex>
#include <string>
#include <vector>

#include "core/engine/run_observer.h"
#include "core/imaging/beam_fit.h"
#include "core/imaging/image_geometry.h"

namespace apertura::pipeline {

// Everything a finished (or partly finished) imaging run produced. Filled by the pipeline's
// stages on the worker thread; read by the caller after Engine::wait().
struct ImagingProducts {
  imaging::ImageGeometry geometry;
  double phase_centre_ra_rad = 0.0;
  double phase_centre_dec_rad = 0.0;
  double frequency_hz = 0.0;  // mean of the imaged channels
  double bandwidth_hz = 0.0;
  std::string object;
  std::string telescope;
  double start_time_mjd_s = 0.0;  // first imaged sample (MJD seconds, UTC)
  std::size_t rows = 0;
  std::size_t samples = 0;
  std::string data_mode;  // "resident" or "streaming": how the engine held the visibilities
  // "visibilities" or "psf": how the optimizer evaluated chi2 (imaging.operator); empty for runs
  // that did not optimize an MFS image.
  std::string data_operator;

  std::vector<float> dirty;  // Jy/beam
  std::vector<float> psf;    // peak 1
  imaging::CleanBeam beam;
  std::vector<double> model;     // Jy/pixel
  std::vector<double> residual;  // Jy/beam
  std::vector<double> restored;  // Jy/beam

  // A cube (imaging.spectral_mode cube): `planes` image planes, plane-major in dirty, psf, model,
  // residual and restored (plane k at [k * nx * ny, (k + 1) * nx * ny)), each with its own mean
  // frequency, width and clean beam (`beam` is plane 0's). Empty vectors for an MFS image.
  int planes = 1;
  std::vector<double> plane_frequencies_hz;
  std::vector<double> plane_bandwidths_hz;
  std::vector<imaging::CleanBeam> plane_beams;

  // A linear-spectrum MFS model (imaging.mfs_spectrum): the lowest and highest imaged channel
  // frequency, whose skies the optimizer's two planes are (empty: a flat spectrum). While the
  // optimizer runs `model` holds both planes; the restore stage leaves in it the sky at
  // frequency_hz and moves the two planes to `band_model` (Jy/pixel, low then high).
  std::vector<double> band_edges_hz;
  std::vector<double> band_model;
  // Its spectral index between the band's ends at the restoring beam (spectralIndexMap; NaN
  // where the emission is not significant). Empty for a flat spectrum.
  std::vector<double> spectral_index;

  // Per chunk, only when a project writes them back to a Measurement Set column.
  std::vector<std::vector<std::complex<float>>> model_visibilities;
  std::vector<std::vector<std::complex<float>>> residual_visibilities;
  std::vector<engine::IterationMetrics> metrics;  // one per optimizer iteration
  // The visibilities' scatter over what their weights claim (NoiseScatter; 1: absolute weights)
  // and the natural-weighted image noise it implies, Jy/beam.
  double weight_scale = 1.0;
  double image_noise = 0.0;
  // Automatic lambdas: each step of the path (normalised lambda, reduced chi-squared after the
  // step) and the lambda chosen (0: no automatic lambda). Cross-validation: the training fits'
  // mean reduced chi-squared, and the held-out reduced chi-squared per fold and its mean.
  struct LambdaStep {
    double lambda = 0.0;
    double chi2_reduced = 0.0;
    double validation = 0.0;  // 0 on a discrepancy path
    std::vector<double> fold_validation;
    // The model at this lambda (Jy/pixel, laid out as `model`): on a cv path the mean of the
    // folds' models (each fit on the other folds' samples), on a discrepancy path the path's own.
    // Empty for steps past the path's memory budget (lambda_path.h).
    std::vector<float> model;
  };
  std::vector<LambdaStep> lambda_path;
  double auto_lambda = 0.0;
  int iterations = 0;
  std::string stop_reason;
  double chi2_per_dof = 0.0;  // with the weights rescaled by weight_scale
  double residual_rms = 0.0;  // Jy/beam
  std::vector<std::string> written_files;
  std::vector<std::string> warnings;
  // What looks wrong with the result and what to try next (run_diagnosis.h); also in warnings.
  std::vector<std::string> diagnoses;
};

}  // namespace apertura::pipeline
