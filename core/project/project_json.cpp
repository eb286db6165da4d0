// JSON mapping of ProjectSettings. Reading goes through ObjectReader, which knows the path of
// every field it reads (for error messages) and rejects keys nobody asked for (typos must not be
// silently ignored).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "core/project/project_file.h"
#include "core/util/input_error.h"

namespace apertura::project {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* typeName(const json& j) {
  return j.type_name();
}

class ObjectReader {
 public:
  ObjectReader(const json& j, std::string at, std::string source)
      : j_(j), at_(std::move(at)), source_(std::move(source)) {
    if (!j_.is_object())
      fail(at_.empty() ? "(top level)" : at_, "expected an object");
  }

  template <typename T>
  void get(const char* key, T& out) {
    const json* v = find(key);
    if (v)
      out = convert<T>(*v, field(key));
  }
  template <typename T>
  void get(const char* key, std::optional<T>& out) {
    const json* v = find(key);
    if (!v)
      return;
    if (v->is_string() && v->get<std::string>() == "auto") {
      out.reset();
    } else {
      out = convert<T>(*v, field(key));
    }
  }
  template <typename T>
  void getList(const char* key, std::vector<T>& out) {
    const json* v = find(key);
    if (!v)
      return;
    if (!v->is_array())
      fail(field(key), std::string("expected an array, got ") + typeName(*v));
    out.clear();
    for (std::size_t i = 0; i < v->size(); ++i) {
      out.push_back(convert<T>((*v)[i], field(key) + "[" + std::to_string(i) + "]"));
    }
  }
  const json* child(const char* key) { return find(key); }
  std::string field(const std::string& key) const { return at_.empty() ? key : at_ + "." + key; }
  const std::string& source() const { return source_; }

  // Called once every known key was read.
  void finish() const {
    for (const auto& [key, value] : j_.items()) {
      if (!seen_.count(key))
        fail(field(key), "unknown key");
    }
  }

  [[noreturn]] void fail(const std::string& at, const std::string& problem) const {
    throw InputError(source_, at + ": " + problem);
  }

 private:
  const json* find(const char* key) {
    seen_.insert(key);
    auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }

  template <typename T>
  T convert(const json& v, const std::string& at) const {
    if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean())
        fail(at, std::string("expected true or false, got ") + typeName(v));
    } else if constexpr (std::is_integral_v<T>) {
      if (!v.is_number_integer())
        fail(at, std::string("expected an integer, got ") + typeName(v));
      if constexpr (std::is_unsigned_v<T>) {
        if (v.get<long long>() < 0)
          fail(at, "expected a non-negative integer");
      }
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!v.is_number())
        fail(at, std::string("expected a number, got ") + typeName(v));
    } else {
      if (!v.is_string())
        fail(at, std::string("expected a string, got ") + typeName(v));
    }
    return v.get<T>();
  }

  const json& j_;
  std::string at_;
  std::string source_;
  std::set<std::string> seen_;
};

template <typename T>
json optionalJson(const std::optional<T>& v) {
  return v ? json(*v) : json("auto");
}

// On save: a path inside the project file's folder is written relative to it, so the folder can be
// moved as a whole; anything else stays absolute.
std::string relativeIfBelow(const std::string& path, const std::string& base_dir) {
  if (path.empty() || base_dir.empty())
    return path;
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(path, ec), ec);
  const fs::path base = fs::weakly_canonical(fs::absolute(base_dir, ec), ec);
  const fs::path rel = abs.lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..")
    return abs.string();
  return rel.string();
}

// The reverse of relativeIfBelow on load: a relative path in the file is relative to the project
// file's folder, never to the working directory.
std::string resolveRelative(const std::string& path, const std::string& base_dir) {
  if (path.empty() || base_dir.empty() || fs::path(path).is_absolute())
    return path;
  return (fs::path(base_dir) / path).lexically_normal().string();
}

void readData(ObjectReader r, DataSettings& d, const std::string& base_dir) {
  r.get("path", d.path);
  d.path = resolveRelative(d.path, base_dir);
  r.get("field_id", d.field_id);
  r.getList("spectral_windows", d.spectral_windows);
  r.get("channel_start", d.channel_start);
  r.get("channel_end", d.channel_end);
  r.get("product", d.product);
  r.get("column", d.column);
  r.get("chunk_rows", d.chunk_rows);
  r.get("memory_budget_gb", d.memory_budget_gb);
  r.get("mode", d.mode);
  r.finish();
}

void readWeighting(ObjectReader r, WeightingSettings& w) {
  r.get("scheme", w.scheme);
  r.get("robust", w.robust);
  r.get("taper_arcsec", w.taper_arcsec);
  r.get("super_uniform", w.super_uniform);
  r.finish();
}

void readImaging(ObjectReader r, ImagingSettings& i) {
  r.get("nx", i.nx);
  r.get("ny", i.ny);
  r.get("cell_arcsec", i.cell_arcsec);
  r.get("kernel", i.kernel);
  r.get("epsilon", i.epsilon);
  r.get("oversampling", i.oversampling);
  r.get("w_stacking", i.w_stacking);
  r.get("backend", i.backend);
  r.get("gpu_device", i.gpu_device);
  r.get("threads", i.threads);
  r.get("precision", i.precision);
  r.get("grid_accumulation", i.grid_accumulation);
  r.get("spectral_mode", i.spectral_mode);
  r.get("channels_per_plane", i.channels_per_plane);
  r.finish();
}

void readOptimizer(ObjectReader r, OptimizerSettings& o, const std::string& base_dir) {
  r.get("method", o.method);
  r.get("line_search", o.line_search);
  r.get("max_iterations", o.max_iterations);
  r.get("history", o.history);
  r.get("in_memory_limit", o.in_memory_limit);
  r.get("history_memory_gb", o.history_memory_gb);
  r.get("scratch_dir", o.scratch_dir);
  r.get("history_precision", o.history_precision);
  r.get("relative_tolerance", o.relative_tolerance);
  r.get("gradient_tolerance", o.gradient_tolerance);
  r.get("time_limit_s", o.time_limit_s);
  r.get("positivity", o.positivity);
  r.get("snapshot_every", o.snapshot_every);
  r.get("initial_model", o.initial_model);
  r.finish();
  o.initial_model = resolveRelative(o.initial_model, base_dir);
}

void readOutput(ObjectReader r, OutputSettings& o, const std::string& base_dir) {
  r.get("prefix", o.prefix);
  r.get("dirty", o.dirty);
  r.get("psf", o.psf);
  r.get("model", o.model);
  r.get("residual", o.residual);
  r.get("restored", o.restored);
  r.get("metrics_csv", o.metrics_csv);
  r.get("write_model_column", o.write_model_column);
  r.get("model_column", o.model_column);
  r.get("write_residual_column", o.write_residual_column);
  r.get("residual_column", o.residual_column);
  r.get("model_ms", o.model_ms);
  o.model_ms = resolveRelative(o.model_ms, base_dir);
  r.get("model_in_place", o.model_in_place);
  r.finish();
}

void readView(ObjectReader r, ViewSettings& v) {
  r.get("colormap", v.colormap);
  r.get("invert", v.invert);
  r.get("scaling", v.scaling);
  r.get("power_exponent", v.power_exponent);
  r.get("clip", v.clip);
  r.get("clip_percent", v.clip_percent);
  r.get("user_min", v.user_min);
  r.get("user_max", v.user_max);
  r.get("zoom", v.zoom);
  r.get("center_x", v.center_x);
  r.get("center_y", v.center_y);
  r.finish();
}

json viewJson(const ViewSettings& v) {
  return {{"colormap", v.colormap},
          {"invert", v.invert},
          {"scaling", v.scaling},
          {"power_exponent", v.power_exponent},
          {"clip", v.clip},
          {"clip_percent", v.clip_percent},
          {"user_min", v.user_min},
          {"user_max", v.user_max},
          {"zoom", optionalJson(v.zoom)},
          {"center_x", v.center_x},
          {"center_y", v.center_y}};
}

template <typename Fn>
void readArray(ObjectReader& top, const char* key, Fn&& read_one) {
  const json* a = top.child(key);
  if (!a)
    return;
  if (!a->is_array())
    top.fail(key, std::string("expected an array, got ") + typeName(*a));
  for (std::size_t i = 0; i < a->size(); ++i) {
    read_one(ObjectReader((*a)[i], std::string(key) + "[" + std::to_string(i) + "]", top.source()));
  }
}

}  // namespace

std::string projectToJson(const ProjectSettings& s, const std::string& base_dir) {
  json j;
  j["schema_version"] = ProjectSettings::kSchemaVersion;
  j["application"] = "apertura";
  const auto& d = s.data;
  j["data"] = {{"path", relativeIfBelow(d.path, base_dir)},
               {"field_id", optionalJson(d.field_id)},
               {"spectral_windows", d.spectral_windows},
               {"channel_start", d.channel_start},
               {"channel_end", optionalJson(d.channel_end)},
               {"product", d.product},
               {"column", d.column},
               {"chunk_rows", optionalJson(d.chunk_rows)},
               {"memory_budget_gb", optionalJson(d.memory_budget_gb)},
               {"mode", d.mode}};
  const auto& w = s.weighting;
  j["weighting"] = {{"scheme", w.scheme},
                    {"robust", w.robust},
                    {"taper_arcsec", optionalJson(w.taper_arcsec)},
                    {"super_uniform", w.super_uniform}};
  const auto& i = s.imaging;
  j["imaging"] = {{"nx", i.nx},
                  {"ny", i.ny},
                  {"cell_arcsec", optionalJson(i.cell_arcsec)},
                  {"kernel", i.kernel},
                  {"epsilon", i.epsilon},
                  {"oversampling", i.oversampling},
                  {"w_stacking", i.w_stacking},
                  {"backend", i.backend},
                  {"gpu_device", i.gpu_device},
                  {"threads", i.threads},
                  {"precision", i.precision},
                  {"grid_accumulation", i.grid_accumulation},
                  {"spectral_mode", i.spectral_mode},
                  {"channels_per_plane", i.channels_per_plane}};
  j["regularizers"] = json::array();
  for (const auto& r : s.regularizers) {
    json reg = {{"type", r.type},
                {"lambda", r.lambda},
                {"use_mask", r.use_mask},
                {"parameters", r.parameters}};
    if (!r.planes.empty())  // every plane: no key, so older files round-trip unchanged
      reg["planes"] = r.planes;
    j["regularizers"].push_back(std::move(reg));
  }
  const auto& o = s.optimizer;
  j["optimizer"] = {{"method", o.method},
                    {"line_search", o.line_search},
                    {"max_iterations", o.max_iterations},
                    {"history", o.history},
                    {"in_memory_limit", optionalJson(o.in_memory_limit)},
                    {"history_memory_gb", optionalJson(o.history_memory_gb)},
                    {"scratch_dir", o.scratch_dir},
                    {"history_precision", o.history_precision},
                    {"relative_tolerance", o.relative_tolerance},
                    {"gradient_tolerance", o.gradient_tolerance},
                    {"time_limit_s", optionalJson(o.time_limit_s)},
                    {"positivity", o.positivity},
                    {"snapshot_every", o.snapshot_every},
                    {"initial_model", relativeIfBelow(o.initial_model, base_dir)}};
  j["mask"] = json::array();
  for (const auto& m : s.mask) {
    j["mask"].push_back({{"shape", m.shape}, {"subtract", m.subtract}, {"values", m.values}});
  }
  const auto& out = s.output;
  j["output"] = {{"prefix", out.prefix},
                 {"dirty", out.dirty},
                 {"psf", out.psf},
                 {"model", out.model},
                 {"residual", out.residual},
                 {"restored", out.restored},
                 {"metrics_csv", out.metrics_csv},
                 {"write_model_column", out.write_model_column},
                 {"model_column", out.model_column},
                 {"write_residual_column", out.write_residual_column},
                 {"residual_column", out.residual_column},
                 {"model_ms", relativeIfBelow(out.model_ms, base_dir)},
                 {"model_in_place", out.model_in_place}};
  j["views"] = json::object();
  for (const auto& [name, view] : s.views)
    j["views"][name] = viewJson(view);
  return j.dump(2) + "\n";
}

ProjectSettings projectFromJson(const std::string& text, const std::string& base_dir,
                                const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(source, std::string("not valid JSON: ") + e.what());
  }
  ObjectReader top(j, "", source);
  int version = 0;
  top.get("schema_version", version);
  if (version < 1)
    top.fail("schema_version", "missing or not a positive integer");
  if (version > ProjectSettings::kSchemaVersion) {
    top.fail("schema_version", "version " + std::to_string(version) +
                                   " is newer than this Apertura understands (" +
                                   std::to_string(ProjectSettings::kSchemaVersion) + ")");
  }
  std::string application;
  top.get("application", application);

  ProjectSettings s;  // defaults fill what the file leaves out
  s.regularizers.clear();
  if (const json* d = top.child("data"))
    readData(ObjectReader(*d, "data", source), s.data, base_dir);
  if (const json* w = top.child("weighting"))
    readWeighting(ObjectReader(*w, "weighting", source), s.weighting);
  if (const json* i = top.child("imaging"))
    readImaging(ObjectReader(*i, "imaging", source), s.imaging);
  if (const json* o = top.child("optimizer"))
    readOptimizer(ObjectReader(*o, "optimizer", source), s.optimizer, base_dir);
  if (const json* o = top.child("output"))
    readOutput(ObjectReader(*o, "output", source), s.output, base_dir);
  readArray(top, "regularizers", [&](ObjectReader r) {
    RegularizerSettings reg;
    r.get("type", reg.type);
    r.get("lambda", reg.lambda);
    r.get("use_mask", reg.use_mask);
    r.getList("planes", reg.planes);
    if (const json* p = r.child("parameters")) {
      ObjectReader params(*p, r.field("parameters"), source);
      for (const auto& [key, value] : p->items())
        params.get(key.c_str(), reg.parameters[key]);
      params.finish();
    }
    r.finish();
    s.regularizers.push_back(std::move(reg));
  });
  readArray(top, "mask", [&](ObjectReader r) {
    MaskRegion m;
    r.get("shape", m.shape);
    r.get("subtract", m.subtract);
    r.getList("values", m.values);
    r.finish();
    s.mask.push_back(std::move(m));
  });
  if (const json* v = top.child("views")) {
    if (!v->is_object())
      top.fail("views", std::string("expected an object, got ") + typeName(*v));
    for (const auto& [name, view] : v->items())
      readView(ObjectReader(view, "views." + name, source), s.views[name]);
  }
  top.finish();
  try {
    validateProject(s);
  } catch (const InputError& e) {
    throw InputError(source, e.path() + ": " + e.problem());
  }
  return s;
}

}  // namespace apertura::project
