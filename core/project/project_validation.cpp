#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/plugin/plugin_registry.h"
#include "core/project/project_file.h"
#include "core/project/settings_fields.h"
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

// Checks each field of a section against its table entry (settings_fields.h).
class FieldValidator {
 public:
  explicit FieldValidator(std::string at) : at_(std::move(at)) {}

  template <typename T>
  void operator()(const Field& f, const T& value) const {
    const std::string at = at_ + "." + f.key;
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      number(f, double(value), at);
    } else if constexpr (std::is_same_v<T, std::optional<int>> ||
                         std::is_same_v<T, std::optional<std::size_t>> ||
                         std::is_same_v<T, std::optional<double>>) {
      if (value)
        number(f, double(*value), at);
    } else if constexpr (std::is_same_v<T, std::vector<int>> ||
                         std::is_same_v<T, std::vector<double>>) {
      for (std::size_t i = 0; i < value.size(); ++i)
        number(f, double(value[i]), at + "[" + std::to_string(i) + "]");
    } else if constexpr (std::is_same_v<T, std::map<std::string, double>>) {
      for (const auto& [key, v] : value)
        require(finite(v), at + "." + key, "must be a finite number");
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!f.allowed.empty())
        oneOf(value, f.allowed, at);
    }
    // Enums and the method hold only valid values (checked when text became an enum).
  }

 private:
  static void number(const Field& f, double value, const std::string& at) {
    const std::string problem = rangeProblem(f, value);
    require(problem.empty(), at, problem);
  }

  std::string at_;
};

template <typename Section>
void validateSection(const Section& section, const std::string& at) {
  visitFields(section, FieldValidator(at));
}

}  // namespace

void validateProject(const ProjectSettings& s) {
  validateSection(s.data, "data");
  validateSection(s.weighting, "weighting");
  validateSection(s.imaging, "imaging");
  for (std::size_t i = 0; i < s.regularizers.size(); ++i)
    validateSection(s.regularizers[i], "regularizers[" + std::to_string(i) + "]");
  validateSection(s.regularization, "regularization");
  validateSection(s.optimizer, "optimizer");
  for (std::size_t i = 0; i < s.mask.size(); ++i)
    validateSection(s.mask[i], "mask[" + std::to_string(i) + "]");
  validateSection(s.output, "output");
  for (const auto& [name, v] : s.views) {
    require(!name.empty(), "views", "a view needs a name");
    validateSection(v, "views." + name);
  }

  // What no single field can say.
  const auto& d = s.data;
  require(!d.channel_end || *d.channel_end >= d.channel_start, "data.channel_end",
          "must be >= data.channel_start");
  require(!(d.mode == ReadMode::kStreaming && s.imaging.w_stacking), "data.mode",
          "streaming cannot be combined with imaging.w_stacking (one pass per w plane needs the "
          "visibilities in memory)");

  const auto& im = s.imaging;
  const bool cube = im.spectral_mode == SpectralMode::Cube;
  if (cube) {
    require(!im.w_stacking, "imaging.spectral_mode",
            "cube cannot be combined with imaging.w_stacking (use spectral_mode mfs)");
    require(
        !s.output.write_model_column && !s.output.write_residual_column,
        s.output.write_model_column ? "output.write_model_column" : "output.write_residual_column",
        "writing visibilities back is not available for imaging.spectral_mode cube");
  }
  if (im.data_operator == OperatorMode::Psf) {
    require(!cube, "imaging.operator",
            "psf is not available with imaging.spectral_mode cube yet (use auto or "
            "visibilities)");
    require(!im.w_stacking, "imaging.operator",
            "psf has no w-term and cannot be combined with imaging.w_stacking (use auto or "
            "visibilities)");
  }
  if (im.mfs_spectrum == MfsSpectrum::Linear) {
    require(!cube, "imaging.mfs_spectrum",
            "linear is a spectrum of an MFS model; a cube has a plane per channel group (use "
            "flat or auto with spectral_mode cube)");
    require(!im.w_stacking, "imaging.mfs_spectrum",
            "linear cannot be combined with imaging.w_stacking yet (use flat)");
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
    validatePlanes(r.planes, cube, at + ".planes");
  }

  const auto& o = s.optimizer;
  if (o.method == OptimizerMethod::Plugin &&
      !plugin::PluginRegistry::global().findOptimizer(o.plugin_method).api) {
    // Neither built in nor provided by a loaded plugin.
    throw InputError("optimizer.method",
                     "'" + o.plugin_method + "' is not one of: " + choiceList<OptimizerMethod>() +
                         ", nor an optimizer of a loaded "
                         "plugin (searched: " +
                         plugin::PluginRegistry::global().searchPathText() + ")");
  }
  require(!o.in_memory_limit || (*o.in_memory_limit >= 1 && *o.in_memory_limit <= o.history),
          "optimizer.in_memory_limit", "must lie in [1, optimizer.history]");

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
    require(v.clip != "user" || v.user_max > v.user_min, "views." + name + ".user_max",
            "must be above user_min when clip is \"user\"");
  }

  for (std::size_t i = 0; i < s.mask.size(); ++i) {
    const auto& m = s.mask[i];
    const std::string at = "mask[" + std::to_string(i) + "]";
    const std::size_t n = m.values.size();
    const bool ok = m.shape == "rectangle" ? n == 4
                    : m.shape == "ellipse" ? n == 5
                                           : (n >= 6 && n % 2 == 0);
    require(ok, at + ".values",
            m.shape == "rectangle" ? "a rectangle needs 4 values (x0 y0 x1 y1)"
            : m.shape == "ellipse" ? "an ellipse needs 5 values (cx cy a b angle_deg)"
                                   : "a polygon needs at least 3 (x, y) vertices");
  }
}

namespace {

std::string boundsText(const Field& field) {
  const auto text = [](double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v);
    return std::string(buffer);
  };
  const bool has_min = std::isfinite(field.min), has_max = std::isfinite(field.max);
  if (has_min && has_max)
    return std::string(field.min_open ? "(" : "[") + text(field.min) + ", " + text(field.max) + "]";
  if (has_min)
    return (field.min_open ? "> " : ">= ") + text(field.min);
  if (has_max)
    return "<= " + text(field.max);
  return {};
}

}  // namespace

std::string rangeText(const Field& field) {
  std::string bounds = boundsText(field);
  if (!field.even)
    return bounds;
  return bounds.empty() ? "even" : bounds + ", even";
}

std::string rangeProblem(const Field& field, double value) {
  const bool low_ok = field.min_open ? value > field.min : value >= field.min;
  if (std::isfinite(value) && low_ok && value <= field.max) {
    // The FFT grid and the image centre need an even size (the operator refuses odd ones).
    if (field.even && std::fmod(value, 2.0) != 0.0)
      return "must be even";
    return {};
  }
  if (field.problem != nullptr)
    return field.problem;
  const std::string bounds = boundsText(field);
  if (bounds.empty())
    return "must be a finite number";
  return (bounds[0] == '[' || bounds[0] == '(' ? "must lie in " : "must be ") + bounds;
}

}  // namespace apertura::project
