#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/project/setting_choices.h"

namespace apertura::project {

// One settings structure is the project-file schema (`.apertura`, JSON). Every field has a
// default; std::optional marks "auto" (the engine decides from the data). Units are the ones
// astronomers type: arcsec, GB, seconds.

struct DataSettings {
  std::string path;                   // Measurement Set directory or UVFITS file
  std::optional<int> field_id;        // auto: the first field that has data
  std::vector<int> spectral_windows;  // empty: all
  int channel_start = 0;
  std::optional<int> channel_end;  // inclusive; auto: last channel
  std::string product = "I";       // I, Q, U, V, XX, YY, RR, LL, ...
  std::string column =
      "auto";  // auto (CORRECTED_DATA, else DATA), DATA, CORRECTED_DATA, MODEL_DATA
  std::optional<std::size_t> chunk_rows;   // auto: from the memory budget
  std::optional<double> memory_budget_gb;  // auto: half the machine's RAM
  // auto: the engine keeps the visibilities in RAM when its memory estimate fits the budget and
  // streams them from disk on every pass otherwise; resident or streaming force one.
  ReadMode mode = ReadMode::kAuto;
};

struct WeightingSettings {
  imaging::WeightingScheme scheme = imaging::WeightingScheme::Briggs;
  double robust = 0.5;                 // Briggs robust parameter, -2 .. 2
  std::optional<double> taper_arcsec;  // Gaussian uv taper, FWHM on the sky
  double super_uniform = 1.0;  // weighting field of view relative to the image (uniform/briggs)
};

struct ImagingSettings {
  int nx = 512;
  int ny = 512;
  std::optional<double> cell_arcsec;  // auto: from the longest baseline
  imaging::KernelType kernel = imaging::KernelType::ExpSemicircle;
  double epsilon = 1e-5;  // requested operator accuracy
  double oversampling = 2.0;
  bool w_stacking = false;
  Backend backend = Backend::Auto;
  int gpu_device = 0;
  int threads = 0;  // 0: all cores
  Precision precision = Precision::Float;
  // With float precision: the grid the residuals of all chunks are summed into. double: results
  // do not depend on the chunking or the number of MPI processes (beyond the rounding inside a
  // chunk), at the cost of a double grid and a double FFT per gradient. float: half that grid.
  Precision grid_accumulation = Precision::Double;
  // mfs: one image of every selected channel (multi-frequency synthesis). cube: one image plane
  // per channels_per_plane adjacent selected channels, all planes imaged jointly (a plane never
  // mixes spectral windows; each plane has its own weighting, PSF and clean beam).
  SpectralMode spectral_mode = SpectralMode::Mfs;
  int channels_per_plane = 1;
  // MFS: the model's spectrum across the band (flat for files that do not say; a new project is
  // auto, defaultProject()).
  MfsSpectrum mfs_spectrum = MfsSpectrum::Flat;
  // The optimizer's chi2 (JSON "operator"): visibilities for files that do not say, so they keep
  // their images bit for bit; a new project is auto (defaultProject()).
  OperatorMode data_operator = OperatorMode::Visibilities;
};

struct RegularizerSettings {
  std::string type;  // a built-in regularizer (rml/builtin_regularizers.h) or a plugin's
  // Weight of the term; auto (no value): chosen by regularization.method.
  std::optional<double> lambda = 0.0;
  bool use_mask = false;                     // restrict the term to the project mask
  std::map<std::string, double> parameters;  // term-specific (e.g. "epsilon" for smoothed TV)
  // 0-based cube planes the term acts on (empty: every plane). A plane-wise term is zero on the
  // planes not listed; an across-channel term couples consecutive listed planes (sorted).
  std::vector<int> planes = {};
};

// How the objective is scaled and how automatic lambdas are found (rml/objective_scales.h).
struct RegularizationSettings {
  ObjectiveScaling scaling = ObjectiveScaling::Normalised;
  LambdaMethod method = LambdaMethod::Cv;
  // The path of automatic lambdas: from lambda_max down by path_factor per step, at most
  // path_steps steps of path_iterations iterations each, warm started from the previous step.
  // auto: the dirty image's peak over the image noise (above it L1 keeps every pixel at zero).
  std::optional<double> lambda_max;
  double path_factor = 4.0;
  int path_steps = 12;
  int path_iterations = 15;
  // discrepancy: the reduced chi-squared the fit must reach (1: the noise level).
  double target_chi2 = 1.0;
  // cv: the folds the samples are split into, by uv cell (docs/regularization.md).
  int folds = 4;
  // cv: the weakest lambda the path tries. 1: an L1 threshold at the image noise, below which
  // noise peaks pass as sources; held-out samples cannot show what a weaker lambda puts in the
  // coverage's holes.
  double lambda_min = 1.0;
};

struct OptimizerSettings {
  OptimizerMethod method = OptimizerMethod::Lbfgs;
  std::string plugin_method;  // the plugin optimizer's name, with method Plugin
  rml::LineSearchKind line_search = rml::LineSearchKind::StrongWolfe;
  int max_iterations = 100;
  int history = 10;  // L-BFGS correction pairs
  double relative_tolerance = 1e-7;
  int patience = 1;  // iterations in a row within relative_tolerance before stopping
  double gradient_tolerance = 1e-10;
  std::optional<double> time_limit_s;
  Positivity positivity = Positivity::Projection;
  // The mask regions are the model's support (pixels outside held at zero). false: drawn regions
  // that only the regularizers with use_mask read (the GUI's unchecked "Use mask" box).
  bool mask_support = true;
  int snapshot_every = 5;  // iterations between image snapshots
  // L-BFGS pairs kept in RAM; the older ones spill to disk (results identical). auto: all.
  std::optional<int> in_memory_limit;
  // Without in_memory_limit: the RAM (GiB) the L-BFGS pairs may use. All pairs stay in RAM when
  // they fit; otherwise as many as fit (one fewer, for the pair being read back) and the rest
  // spill, streamed one pair at a time. auto: no limit.
  std::optional<double> history_memory_gb;
  // Directory for the spilled pairs (a unique subdirectory, removed after the run).
  // Empty (auto): $TMPDIR, else the output directory.
  std::string scratch_dir;
  // Precision of the L-BFGS pairs and search direction: double, or float (half the RAM and spill).
  Precision history_precision = Precision::Double;
  // Start from this model (FITS, Jy/pixel, the image's size) instead of an empty image: resumes
  // an earlier run from its -model.fits. Empty: start from zero.
  std::string initial_model;

  // The method's name in project files: a built-in's, or the plugin optimizer's.
  std::string methodName() const;
  // A built-in's name selects it; any other name is a plugin's (validation checks it is loaded).
  void setMethod(const std::string& name);
};

// A mask region in image pixel coordinates (0-based, x then y). Regions are applied in order:
// "add" switches pixels on, "subtract" switches them off.
struct MaskRegion {
  std::string shape;  // rectangle (x0 y0 x1 y1), ellipse (cx cy a b angle_deg), polygon (x y ...)
  bool subtract = false;
  std::vector<double> values;
};

struct OutputSettings {
  std::string prefix;  // empty: beside the project file, named after it
  bool dirty = true;
  bool psf = true;
  bool model = true;
  bool residual = true;
  bool restored = true;
  bool metrics_csv = true;
  // Model visibilities of the final image written to a Measurement Set column, never implicitly:
  // into a copy (model_ms; empty: <prefix>-model.ms) or, with model_in_place, into the input.
  bool write_model_column = false;
  std::string model_column = "MODEL_DATA";
  bool write_residual_column = false;  // data minus model, beside the model
  std::string residual_column = "RESIDUAL_DATA";
  std::string model_ms;
  bool model_in_place = false;
};

// How one image view looked when the project was saved, so reopening shows the same picture.
// Plain strings (the names the view toolbar shows) keep core free of the GUI's enums.
struct ViewSettings {
  std::string colormap = "inferno";  // gray, viridis, inferno, magma, cubehelix, coolwarm
  bool invert = false;
  std::string scaling = "linear";   // linear, log, sqrt, asinh, power, histeq
  double power_exponent = 2.0;      // for scaling "power"
  std::string clip = "percentile";  // minmax, percentile, user
  double clip_percent = 99.5;       // central fraction kept, for clip "percentile"
  double user_min = 0.0;            // for clip "user"
  double user_max = 1.0;
  std::optional<double> zoom;  // screen pixels per image pixel; auto: fit to the window
  double center_x = 0.0;       // image pixel (0-based) at the view centre, used with a zoom
  double center_y = 0.0;
};

struct ProjectSettings {
  // 2: the normalised objective (regularization.scaling); files of schema 1 load with scaling
  // "none", their meaning unchanged.
  static constexpr int kSchemaVersion = 2;

  DataSettings data;
  WeightingSettings weighting;
  ImagingSettings imaging;
  std::vector<RegularizerSettings> regularizers;
  RegularizationSettings regularization;
  OptimizerSettings optimizer;
  std::vector<MaskRegion> mask;
  OutputSettings output;
  // Per image view (dirty, psf, model, residual, restored, ...); a view not listed keeps its
  // defaults, so files written before views were saved still load.
  std::map<std::string, ViewSettings> views;
  // Not saved: what loading an older schema changed (empty when nothing), for the user to read.
  std::string migration_note;
};

// A default project: Briggs 0.5, 512^2, L-BFGS, the normalised objective with L1 at an automatic
// (cross-validated) lambda.
ProjectSettings defaultProject();

// The smallest span of the imaged channels, relative to their mean frequency (fractionalSpan), at
// which imaging.mfs_spectrum auto fits a linear spectrum. A spectral index alpha changes the flux
// by about alpha times this across such a band: 5 % of the peak for alpha 1 (synchrotron), 12 % for
// dust's 2.5, far above the noise of an image with a dynamic range of a hundred or more, and a
// flat model puts that mismatch into rings (docs/regularization.md). CASA's guidance for nterms 2
// is of the same order (10 %, less at high dynamic range).
constexpr double kLinearSpectrumBand = 0.05;

// Whether an MFS model has a linear spectrum on a band of this fractional width (before what
// the run may rule out: linearSpectrumUnavailable).
inline bool wantsLinearSpectrum(const ImagingSettings& im, double fractional_band) {
  if (im.spectral_mode != SpectralMode::Mfs)
    return false;
  return im.mfs_spectrum == MfsSpectrum::Linear ||
         (im.mfs_spectrum == MfsSpectrum::Auto && fractional_band >= kLinearSpectrumBand);
}

// What rules the linear spectrum out for a run ("" when nothing does): w-stacking, or the
// deterministic reduction (its exact per-chunk sums are not written for two planes). The
// pipeline's choice and the memory estimate both ask here.
inline std::string linearSpectrumUnavailable(const ImagingSettings& im,
                                             bool deterministic_reduction) {
  if (im.w_stacking)
    return "imaging.w_stacking";
  if (deterministic_reduction)
    return "the deterministic reduction";
  return {};
}

// True when some regularizer's lambda is "auto": a lambda path (regularization.method) runs
// before the optimizer.max_iterations of the final run, and copies data for cross-validation.
inline bool hasAutomaticLambda(const ProjectSettings& s) {
  for (const RegularizerSettings& r : s.regularizers) {
    if (!r.lambda)
      return true;
  }
  return false;
}

// The iterations a run of `s` reports, when known before it starts: optimizer.max_iterations, or
// 0 when an automatic lambda's path adds iterations first.
inline int iterationsKnownInAdvance(const ProjectSettings& s) {
  return hasAutomaticLambda(s) ? 0 : s.optimizer.max_iterations;
}

}  // namespace apertura::project
