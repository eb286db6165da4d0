#pragma once

#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/project/project_settings.h"

namespace apertura::project {

// One entry of a settings section's field table: its JSON key, what it means, its unit and the
// values it accepts. The default is the settings struct's initialiser, read by visiting a
// default-constructed struct. The JSON reader and writer, validation (and so --set), the
// round-trip test and the reference (apertura-cli run --help, docs/project-file.md) all walk these
// tables: a field added to a struct and its table appears in all of them.
struct Field {
  const char* key = "";
  const char* help = "";
  const char* unit = "";
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;
  const char* problem = nullptr;     // replaces the range's own wording in errors
  std::vector<std::string> allowed;  // a string's vocabulary (empty: any text)
  bool even = false;                 // an integer that must be even
  bool path = false;                 // relative to the project file's folder
  bool omit_when_empty = false;      // not written while empty (older files round-trip unchanged)

  Field(const char* k, const char* h) : key(k), help(h) {}
  Field& inUnit(const char* u) {
    unit = u;
    return *this;
  }
  Field& atLeast(double v) {
    min = v;
    return *this;
  }
  Field& above(double v) {
    min = v;
    min_open = true;
    return *this;
  }
  Field& within(double lo, double hi) {
    min = lo;
    max = hi;
    return *this;
  }
  Field& says(const char* text) {
    problem = text;
    return *this;
  }
  Field& oneOf(std::vector<std::string> names) {
    allowed = std::move(names);
    return *this;
  }
  Field& isEven() {
    even = true;
    return *this;
  }
  Field& isPath() {
    path = true;
    return *this;
  }
  Field& omittedWhenEmpty() {
    omit_when_empty = true;
    return *this;
  }
};

// optimizer.method: a built-in's name or a plugin optimizer's (OptimizerSettings::setMethod).
// Settings is OptimizerSettings, const when the visit only reads.
template <typename Settings>
struct MethodField {
  Settings& settings;
};

// The tables take a section const (writer, validation, reference) or not (reader).
template <typename S, typename Section>
using IfSection = std::enable_if_t<std::is_same_v<std::remove_const_t<S>, Section>>;

// Each section's table: f(const Field&, T& value) for every field, in reference order (T const
// when the section is).
template <typename S, typename F>
IfSection<S, DataSettings> visitFields(S& d, F&& f) {
  f(Field("path", "Measurement Set directory or UVFITS file").isPath(), d.path);
  f(Field("field_id", "field to image; auto: the first field that has data").atLeast(0),
    d.field_id);
  f(Field("spectral_windows", "spectral windows to image; empty: all").atLeast(0),
    d.spectral_windows);
  f(Field("channel_start", "first channel of each spectral window").atLeast(0), d.channel_start);
  f(Field("channel_end", "last channel (inclusive); auto: the last"), d.channel_end);
  f(Field("product", "polarization product imaged")
        .oneOf({"I", "Q", "U", "V", "XX", "YY", "XY", "YX", "RR", "LL", "RL", "LR"}),
    d.product);
  f(Field("column", "visibility column; auto: CORRECTED_DATA, else DATA")
        .oneOf({"auto", "DATA", "CORRECTED_DATA", "MODEL_DATA"}),
    d.column);
  f(Field("chunk_rows", "rows per chunk; auto: from the memory budget").above(0), d.chunk_rows);
  f(Field("memory_budget_gb", "memory the run may use; auto: half the machine's RAM")
        .inUnit("GB")
        .above(0)
        .says("must be a positive number of GB"),
    d.memory_budget_gb);
  f(Field("mode",
          "auto: visibilities stay in RAM when the memory estimate fits the budget, else they "
          "stream from disk on every pass; resident or streaming force one"),
    d.mode);
}

template <typename S, typename F>
IfSection<S, WeightingSettings> visitFields(S& w, F&& f) {
  f(Field("scheme", "imaging weights"), w.scheme);
  f(Field("robust", "Briggs robust parameter (-2: ~uniform, 2: ~natural)").within(-2, 2), w.robust);
  f(Field("taper_arcsec", "Gaussian uv taper, FWHM on the sky; auto: none")
        .inUnit("arcsec")
        .above(0),
    w.taper_arcsec);
  f(Field("super_uniform",
          "weighting field of view relative to the image, inverted (uniform and briggs)")
        .above(0),
    w.super_uniform);
}

template <typename S, typename F>
IfSection<S, ImagingSettings> visitFields(S& i, F&& f) {
  f(Field("nx", "image width").inUnit("pixels").within(8, 65536).isEven(), i.nx);
  f(Field("ny", "image height").inUnit("pixels").within(8, 65536).isEven(), i.ny);
  f(Field("cell_arcsec",
          "pixel size; auto: a fifth of the finest fringe (1 / (5 x longest baseline))")
        .inUnit("arcsec")
        .above(0),
    i.cell_arcsec);
  f(Field("kernel", "gridding kernel"), i.kernel);
  f(Field("epsilon", "requested accuracy of the gridding operator").within(1e-14, 0.1), i.epsilon);
  f(Field("oversampling", "grid size relative to the image").within(1.2, 2.5), i.oversampling);
  f(Field("w_stacking", "correct the w term by w-stacking"), i.w_stacking);
  f(Field("backend", "where the operator runs; auto: a CUDA GPU when one is found"), i.backend);
  f(Field("gpu_device", "CUDA device index").atLeast(0), i.gpu_device);
  f(Field("threads", "CPU threads; 0: all cores")
        .within(0, 4096)
        .says("must be 0 (all cores) .. 4096"),
    i.threads);
  f(Field("precision", "arithmetic of the gridding operator"), i.precision);
  f(Field("grid_accumulation",
          "with float precision, the grid all chunks' residuals are summed into; double makes "
          "results independent of chunking and MPI processes"),
    i.grid_accumulation);
  f(Field("spectral_mode",
          "mfs: one image of every selected channel; cube: one plane per channels_per_plane "
          "channels, imaged jointly"),
    i.spectral_mode);
  f(Field("channels_per_plane", "adjacent channels per cube plane").atLeast(1),
    i.channels_per_plane);
  f(Field("mfs_spectrum",
          "mfs: the model's spectrum; flat: one image for every channel; linear: the sky at "
          "the band's lowest and highest imaged frequency, interpolated linearly between them "
          "(as nterms 2; twice the work per iteration); auto (a new project's): linear when the "
          "imaged channels span at least 5 % of their mean frequency"),
    i.mfs_spectrum);
  f(Field("operator",
          "how the optimizer evaluates chi2; visibilities: a pass over every sample per "
          "evaluation; psf: chi2's Hessian as a convolution with the PSF, two FFTs of an image "
          "twice the size per evaluation whatever the data volume (exact at the start of each "
          "solve, no w-term; mfs only); auto (a new project's): psf wherever it applies (mfs, "
          "no w-stacking, images on the host) and its memory fits the budget"),
    i.data_operator);
}

template <typename S, typename F>
IfSection<S, RegularizerSettings> visitFields(S& r, F&& f) {
  f(Field("type", "a built-in regularizer or a loaded plugin's"), r.type);
  f(Field("lambda",
          "weight of the term; with regularization.scaling normalised, dimensionless (L1: a "
          "threshold in units of the image noise); auto: chosen by regularization.method")
        .atLeast(0),
    r.lambda);
  f(Field("use_mask", "restrict the term to the project mask"), r.use_mask);
  f(Field("parameters", "term-specific parameters, e.g. epsilon of smoothed TV"), r.parameters);
  f(Field("planes", "0-based cube planes the term acts on; empty: every plane").omittedWhenEmpty(),
    r.planes);
}

template <typename S, typename F>
IfSection<S, RegularizationSettings> visitFields(S& r, F&& f) {
  f(Field("scaling",
          "normalised: reduced chi-squared plus dimensionless lambdas (docs/regularization.md); "
          "none: chi2 + sum lambda R as in schema 1"),
    r.scaling);
  f(Field("method",
          "how auto lambdas are chosen: cv, the lambda whose fits best predict held-out "
          "visibilities (k-fold cross-validation on uv cells); discrepancy, the strongest "
          "lambda whose reduced chi-squared reaches target_chi2"),
    r.method);
  f(Field("lambda_max", "first lambda of the path; auto: the dirty image's peak over its noise")
        .above(0),
    r.lambda_max);
  f(Field("path_factor", "ratio of consecutive lambdas on the path").above(1), r.path_factor);
  f(Field("path_steps", "most lambdas tried on the path").within(1, 1000), r.path_steps);
  f(Field("path_iterations", "optimizer iterations per lambda on the path").within(1, 100000),
    r.path_iterations);
  f(Field("target_chi2", "reduced chi-squared the discrepancy method aims for").above(0),
    r.target_chi2);
  f(Field("folds",
          "cross-validation folds (cv): each holds out the samples of 1/folds of the "
          "uv cells")
        .within(2, 20),
    r.folds);
  f(Field("lambda_min", "cv: the weakest lambda tried; 1: an L1 threshold at the image noise")
        .above(0),
    r.lambda_min);
}

template <typename S, typename F>
IfSection<S, OptimizerSettings> visitFields(S& o, F&& f) {
  MethodField<S> method{o};
  f(Field("method", "optimizer: a built-in one or a loaded plugin's"), method);
  f(Field("line_search", "line search of L-BFGS and nonlinear CG"), o.line_search);
  f(Field("max_iterations", "iterations at most").atLeast(0), o.max_iterations);
  f(Field("history", "L-BFGS correction pairs").within(1, 1000), o.history);
  f(Field("in_memory_limit",
          "L-BFGS pairs kept in RAM, the older ones spill to disk; auto: by history_memory_gb"),
    o.in_memory_limit);
  f(Field("history_memory_gb", "RAM the L-BFGS pairs may use; auto: no limit")
        .inUnit("GB")
        .above(0)
        .says("must be > 0 (auto: no limit)"),
    o.history_memory_gb);
  f(Field("scratch_dir", "directory for spilled pairs; empty: $TMPDIR, else the output folder"),
    o.scratch_dir);
  f(Field("history_precision", "precision of the L-BFGS pairs and search direction"),
    o.history_precision);
  f(Field("relative_tolerance", "stop when the objective's relative change is below this")
        .atLeast(0),
    o.relative_tolerance);
  f(Field("patience",
          "iterations in a row whose relative change is below relative_tolerance before "
          "stopping (more: fewer stops on one short step)")
        .within(1, 1000),
    o.patience);
  f(Field("gradient_tolerance", "stop when the gradient's norm is below this").atLeast(0),
    o.gradient_tolerance);
  f(Field("time_limit_s", "stop after this long; auto: no limit").inUnit("s").above(0),
    o.time_limit_s);
  f(Field("positivity", "how the model is kept non-negative"), o.positivity);
  f(Field("mask_support",
          "hold model pixels outside the project's mask regions at zero (when it has any); "
          "false keeps the regions for the regularizers that use_mask only"),
    o.mask_support);
  f(Field("snapshot_every", "iterations between image snapshots").atLeast(1), o.snapshot_every);
  f(Field("initial_model", "FITS model (Jy/pixel) to start from; empty: zero").isPath(),
    o.initial_model);
}

template <typename S, typename F>
IfSection<S, MaskRegion> visitFields(S& m, F&& f) {
  f(Field("shape",
          "rectangle (x0 y0 x1 y1), ellipse (cx cy a b angle_deg) or polygon (x y ...), in "
          "0-based image pixels")
        .oneOf({"rectangle", "ellipse", "polygon"}),
    m.shape);
  f(Field("subtract", "switch the region's pixels off instead of on"), m.subtract);
  f(Field("values", "the shape's numbers").says("must be finite numbers"), m.values);
}

template <typename S, typename F>
IfSection<S, OutputSettings> visitFields(S& o, F&& f) {
  f(Field("prefix", "output file prefix; empty: beside the project file, named after it"),
    o.prefix);
  f(Field("dirty", "write the dirty image"), o.dirty);
  f(Field("psf", "write the PSF"), o.psf);
  f(Field("model", "write the model"), o.model);
  f(Field("residual", "write the residual image"), o.residual);
  f(Field("restored",
          "write the restored image (and, for a linear-spectrum MFS model, its spectral index "
          "map -alpha.fits)"),
    o.restored);
  f(Field("metrics_csv",
          "write the convergence metrics (PREFIX-metrics.csv) and, with an automatic lambda, "
          "its path (PREFIX-lambda-path.csv)"),
    o.metrics_csv);
  f(Field("write_model_column", "write the final model visibilities to a Measurement Set"),
    o.write_model_column);
  f(Field("model_column", "column for the model visibilities"), o.model_column);
  f(Field("write_residual_column", "write data minus model beside the model"),
    o.write_residual_column);
  f(Field("residual_column", "column for the residual visibilities"), o.residual_column);
  f(Field("model_ms", "copy of the input that receives the columns; empty: <prefix>-model.ms")
        .isPath(),
    o.model_ms);
  f(Field("model_in_place", "write the columns into the input Measurement Set itself"),
    o.model_in_place);
}

template <typename S, typename F>
IfSection<S, ViewSettings> visitFields(S& v, F&& f) {
  f(Field("colormap", "colour map")
        .oneOf({"gray", "viridis", "inferno", "magma", "cubehelix", "coolwarm"}),
    v.colormap);
  f(Field("invert", "invert the colour map"), v.invert);
  f(Field("scaling", "intensity stretch")
        .oneOf({"linear", "log", "sqrt", "asinh", "power", "histeq"}),
    v.scaling);
  f(Field("power_exponent", "exponent of the power stretch").above(0), v.power_exponent);
  f(Field("clip", "intensity range").oneOf({"minmax", "percentile", "user"}), v.clip);
  f(Field("clip_percent", "central fraction kept by clip percentile")
        .inUnit("%")
        .within(0, 100)
        .above(0),
    v.clip_percent);
  f(Field("user_min", "lower end of clip user"), v.user_min);
  f(Field("user_max", "upper end of clip user"), v.user_max);
  f(Field("zoom", "screen pixels per image pixel; auto: fit to the window")
        .within(1.0 / 64.0, 256.0)
        .says("must lie in [1/64, 256] or be \"auto\""),
    v.zoom);
  f(Field("center_x", "image pixel (0-based) at the view centre, with a zoom"), v.center_x);
  f(Field("center_y", "image pixel (0-based) at the view centre, with a zoom"), v.center_y);
}

// The accepted range as text: "[8, 65536], even", ">= 0", "> 0" ("" without bounds).
std::string rangeText(const Field& field);
// The problem with a number against its field's range ("" when it is fine; non-finite numbers
// are never fine).
std::string rangeProblem(const Field& field, double value);

}  // namespace apertura::project
