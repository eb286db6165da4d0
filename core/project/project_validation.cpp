#include <algorithm>
#include <cmath>
#include <set>

#include "core/plugin/plugin_registry.h"
#include "core/project/project_file.h"
#include "core/util/input_error.h"

namespace apertura::project {
namespace {

void require(bool ok, const std::string& field, const std::string& problem) {
  if (!ok)
    throw InputError(field, problem);
}

void oneOf(const std::string& value, const std::vector<std::string>& allowed,
           const std::string& field) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end())
    return;
  std::string list;
  for (const auto& a : allowed)
    list += (list.empty() ? "" : ", ") + a;
  throw InputError(field, "'" + value + "' is not one of: " + list);
}

bool finite(double v) {
  return std::isfinite(v);
}

// A regularizer's plane list: indices >= 0, each once (any order). An MFS image is one plane, so
// there only [0] (or every plane) makes sense. Indices past the cube's last plane are refused
// once the data say how many planes there are (the cube stages).
void validatePlanes(const std::vector<int>& planes, bool cube, const std::string& field) {
  std::set<int> seen;
  for (int k : planes) {
    require(k >= 0, field, "plane index " + std::to_string(k) + " is negative (0 is the first)");
    require(seen.insert(k).second, field, "plane " + std::to_string(k) + " is listed twice");
  }
  require(cube || planes.empty() || planes == std::vector<int>{0}, field,
          "an MFS image has a single plane: leave the list empty (or [0]), or set "
          "imaging.spectral_mode to cube");
}

}  // namespace

void validateProject(const ProjectSettings& s) {
  const auto& d = s.data;
  require(!d.field_id || *d.field_id >= 0, "data.field_id", "must be >= 0");
  for (std::size_t i = 0; i < d.spectral_windows.size(); ++i) {
    require(d.spectral_windows[i] >= 0, "data.spectral_windows[" + std::to_string(i) + "]",
            "must be >= 0");
  }
  require(d.channel_start >= 0, "data.channel_start", "must be >= 0");
  require(!d.channel_end || *d.channel_end >= d.channel_start, "data.channel_end",
          "must be >= data.channel_start");
  oneOf(d.product, {"I", "Q", "U", "V", "XX", "YY", "XY", "YX", "RR", "LL", "RL", "LR"},
        "data.product");
  oneOf(d.column, {"auto", "DATA", "CORRECTED_DATA", "MODEL_DATA"}, "data.column");
  require(!d.chunk_rows || *d.chunk_rows > 0, "data.chunk_rows", "must be > 0");
  require(!d.memory_budget_gb || (finite(*d.memory_budget_gb) && *d.memory_budget_gb > 0.0),
          "data.memory_budget_gb", "must be a positive number of GB");
  oneOf(d.mode, {"auto", "resident", "streaming"}, "data.mode");
  require(!(d.mode == "streaming" && s.imaging.w_stacking), "data.mode",
          "streaming cannot be combined with imaging.w_stacking (one pass per w plane needs the "
          "visibilities in memory)");

  const auto& w = s.weighting;
  oneOf(w.scheme, {"natural", "uniform", "briggs", "radial"}, "weighting.scheme");
  require(finite(w.robust) && w.robust >= -2.0 && w.robust <= 2.0, "weighting.robust",
          "must lie in [-2, 2]");
  require(!w.taper_arcsec || (finite(*w.taper_arcsec) && *w.taper_arcsec > 0.0),
          "weighting.taper_arcsec", "must be > 0");
  require(finite(w.super_uniform) && w.super_uniform > 0.0, "weighting.super_uniform",
          "must be > 0");

  const auto& im = s.imaging;
  require(im.nx >= 8 && im.nx <= 65536, "imaging.nx", "must lie in [8, 65536]");
  require(im.ny >= 8 && im.ny <= 65536, "imaging.ny", "must lie in [8, 65536]");
  require(!im.cell_arcsec || (finite(*im.cell_arcsec) && *im.cell_arcsec > 0.0),
          "imaging.cell_arcsec", "must be > 0");
  oneOf(im.kernel, {"es", "kaiser-bessel", "pswf", "pillbox"}, "imaging.kernel");
  require(finite(im.epsilon) && im.epsilon >= 1e-14 && im.epsilon <= 0.1, "imaging.epsilon",
          "must lie in [1e-14, 0.1]");
  require(finite(im.oversampling) && im.oversampling >= 1.2 && im.oversampling <= 2.5,
          "imaging.oversampling", "must lie in [1.2, 2.5]");
  oneOf(im.backend, {"auto", "cpu", "cuda"}, "imaging.backend");
  require(im.gpu_device >= 0, "imaging.gpu_device", "must be >= 0");
  require(im.threads >= 0, "imaging.threads", "must be >= 0 (0: all cores)");
  oneOf(im.precision, {"float", "double"}, "imaging.precision");
  oneOf(im.grid_accumulation, {"double", "float"}, "imaging.grid_accumulation");
  oneOf(im.spectral_mode, {"mfs", "cube"}, "imaging.spectral_mode");
  require(im.channels_per_plane >= 1, "imaging.channels_per_plane", "must be >= 1");
  if (im.spectral_mode == "cube") {
    require(!im.w_stacking, "imaging.spectral_mode",
            "cube cannot be combined with imaging.w_stacking (use spectral_mode mfs)");
    require(
        !s.output.write_model_column && !s.output.write_residual_column,
        s.output.write_model_column ? "output.write_model_column" : "output.write_residual_column",
        "writing visibilities back is not available for imaging.spectral_mode cube");
  }

  for (std::size_t i = 0; i < s.regularizers.size(); ++i) {
    const auto& r = s.regularizers[i];
    const std::string at = "regularizers[" + std::to_string(i) + "]";
    require(!r.type.empty(), at + ".type", "must name a regularizer");
    // Built in, or provided by a loaded plugin: a project naming a missing plugin says so here.
    // (Plugins are discovered only when a project names a type that is not built in.)
    if (!plugin::isBuiltinRegularizer(r.type)) {
      const std::string problem =
          plugin::regularizerTypeProblem(plugin::PluginRegistry::global(), r.type);
      require(problem.empty(), at + ".type", problem);
    }
    require(finite(r.lambda) && r.lambda >= 0.0, at + ".lambda", "must be >= 0");
    for (const auto& [key, value] : r.parameters) {
      require(finite(value), at + ".parameters." + key, "must be a finite number");
    }
    validatePlanes(r.planes, im.spectral_mode == "cube", at + ".planes");
  }

  const auto& o = s.optimizer;
  const auto& methods = plugin::builtinOptimizerNames();
  if (std::find(methods.begin(), methods.end(), o.method) == methods.end() &&
      !plugin::PluginRegistry::global().findOptimizer(o.method).api) {
    // Neither built in nor provided by a loaded plugin.
    std::string list;
    for (const auto& m : methods)
      list += (list.empty() ? "" : ", ") + m;
    throw InputError("optimizer.method", "'" + o.method + "' is not one of: " + list +
                                             ", nor an optimizer of a loaded "
                                             "plugin (searched: " +
                                             plugin::PluginRegistry::global().searchPathText() +
                                             ")");
  }
  oneOf(o.line_search, {"armijo", "wolfe", "more-thuente", "brent"}, "optimizer.line_search");
  require(o.max_iterations >= 0, "optimizer.max_iterations", "must be >= 0");
  require(o.history >= 1 && o.history <= 1000, "optimizer.history", "must lie in [1, 1000]");
  require(!o.in_memory_limit || (*o.in_memory_limit >= 1 && *o.in_memory_limit <= o.history),
          "optimizer.in_memory_limit", "must lie in [1, optimizer.history]");
  require(!o.history_memory_gb || *o.history_memory_gb > 0.0, "optimizer.history_memory_gb",
          "must be > 0 (auto: no limit)");
  oneOf(o.history_precision, {"double", "float"}, "optimizer.history_precision");
  require(finite(o.relative_tolerance) && o.relative_tolerance >= 0.0,
          "optimizer.relative_tolerance", "must be >= 0");
  require(finite(o.gradient_tolerance) && o.gradient_tolerance >= 0.0,
          "optimizer.gradient_tolerance", "must be >= 0");
  require(!o.time_limit_s || (finite(*o.time_limit_s) && *o.time_limit_s > 0.0),
          "optimizer.time_limit_s", "must be > 0");
  oneOf(o.positivity, {"none", "projection", "softplus", "log"}, "optimizer.positivity");
  require(o.snapshot_every >= 1, "optimizer.snapshot_every", "must be >= 1");

  if (s.output.write_model_column) {
    require(!s.output.model_column.empty(), "output.model_column", "must name a column");
    require(s.output.model_column != "DATA" && s.output.model_column != "CORRECTED_DATA",
            "output.model_column", "DATA and CORRECTED_DATA are never overwritten");
  }
  if (s.output.write_residual_column) {
    require(s.output.residual_column != "DATA" && s.output.residual_column != "CORRECTED_DATA" &&
                !s.output.residual_column.empty(),
            "output.residual_column", "must name a new column (never DATA or CORRECTED_DATA)");
    require(!s.output.write_model_column || s.output.residual_column != s.output.model_column,
            "output.residual_column", "must differ from output.model_column");
  }

  for (const auto& [name, v] : s.views) {
    const std::string at = "views." + name;
    require(!name.empty(), "views", "a view needs a name");
    oneOf(v.colormap, {"gray", "viridis", "inferno", "magma", "cubehelix", "coolwarm"},
          at + ".colormap");
    oneOf(v.scaling, {"linear", "log", "sqrt", "asinh", "power", "histeq"}, at + ".scaling");
    require(finite(v.power_exponent) && v.power_exponent > 0.0, at + ".power_exponent",
            "must be > 0");
    oneOf(v.clip, {"minmax", "percentile", "user"}, at + ".clip");
    require(finite(v.clip_percent) && v.clip_percent > 0.0 && v.clip_percent <= 100.0,
            at + ".clip_percent", "must lie in (0, 100]");
    require(finite(v.user_min) && finite(v.user_max), at + ".user_min",
            "user_min and user_max must be finite");
    require(v.clip != "user" || v.user_max > v.user_min, at + ".user_max",
            "must be above user_min when clip is \"user\"");
    // The range the image view accepts (1/64 .. 256 screen pixels per image pixel).
    require(!v.zoom || (finite(*v.zoom) && *v.zoom >= 1.0 / 64.0 && *v.zoom <= 256.0), at + ".zoom",
            "must lie in [1/64, 256] or be \"auto\"");
    require(finite(v.center_x) && finite(v.center_y), at + ".center_x",
            "center_x and center_y must be finite");
  }

  for (std::size_t i = 0; i < s.mask.size(); ++i) {
    const auto& m = s.mask[i];
    const std::string at = "mask[" + std::to_string(i) + "]";
    oneOf(m.shape, {"rectangle", "ellipse", "polygon"}, at + ".shape");
    const std::size_t n = m.values.size();
    const bool ok = m.shape == "rectangle" ? n == 4
                    : m.shape == "ellipse" ? n == 5
                                           : (n >= 6 && n % 2 == 0);
    require(ok, at + ".values",
            m.shape == "rectangle" ? "a rectangle needs 4 values (x0 y0 x1 y1)"
            : m.shape == "ellipse" ? "an ellipse needs 5 values (cx cy a b angle_deg)"
                                   : "a polygon needs at least 3 (x, y) vertices");
    for (double v : m.values)
      require(finite(v), at + ".values", "must be finite numbers");
  }
}

}  // namespace apertura::project
