// JSON mapping of ProjectSettings. Reading goes through ObjectReader, which knows the path of
// every field it reads (for error messages) and rejects keys nobody asked for (typos must not be
// silently ignored).
#include <cstdint>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "core/project/json_error_location.h"
#include "core/project/project_file.h"
#include "core/project/settings_fields.h"
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
  static bool fitsIn(const json& v) {
    if (v.is_number_unsigned())
      return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    const auto x = v.get<std::int64_t>();
    if constexpr (std::is_unsigned_v<T>)
      return x >= 0 && static_cast<std::uint64_t>(x) <= std::numeric_limits<T>::max();
    else
      return x >= std::numeric_limits<T>::min() && x <= std::numeric_limits<T>::max();
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
        if (!v.is_number_unsigned() && v.get<std::int64_t>() < 0)
          fail(at, "expected a non-negative integer");
      }
      // Range-checked as 64-bit values before narrowing: 4294967424 must not become 128.
      if (!fitsIn<T>(v)) {
        fail(at, "the integer " + v.dump() + " is out of range (" +
                     std::to_string(std::numeric_limits<T>::min()) + " to " +
                     std::to_string(std::numeric_limits<T>::max()) + ")");
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

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

// Reads every field of a section's table (settings_fields.h); defaults stay where the file is
// silent.
class FieldReader {
 public:
  FieldReader(ObjectReader& r, const std::string& base_dir) : r_(r), base_dir_(base_dir) {}

  template <typename T>
  void operator()(const Field& f, T& value) {
    if constexpr (std::is_enum_v<T>) {
      std::string name = choiceName(value);
      r_.get(f.key, name);
      const auto choice = parseChoice<T>(name);
      if (!choice)
        r_.fail(r_.field(f.key), "'" + name + "' is not one of: " + choiceList<T>());
      value = *choice;
    } else if constexpr (IsVector<T>::value) {
      r_.getList(f.key, value);
    } else if constexpr (std::is_same_v<T, std::map<std::string, double>>) {
      if (const json* p = r_.child(f.key)) {
        ObjectReader params(*p, r_.field(f.key), r_.source());
        for (const auto& [key, v] : p->items())
          params.get(key.c_str(), value[key]);
        params.finish();
      }
    } else {
      r_.get(f.key, value);
      if constexpr (std::is_same_v<T, std::string>) {
        if (f.path)
          value = resolveRelative(value, base_dir_);
      }
    }
  }

  void operator()(const Field& f, MethodField<OptimizerSettings>& method) {
    std::string name = method.settings.methodName();
    r_.get(f.key, name);
    method.settings.setMethod(name);
  }

 private:
  ObjectReader& r_;
  const std::string& base_dir_;
};

// Writes every field of a section's table.
class FieldWriter {
 public:
  FieldWriter(json& j, const std::string& base_dir) : j_(j), base_dir_(base_dir) {}

  template <typename T>
  void operator()(const Field& f, const T& value) {
    if constexpr (std::is_enum_v<T>) {
      j_[f.key] = choiceName(value);
    } else if constexpr (IsOptional<T>::value) {
      j_[f.key] = optionalJson(value);
    } else if constexpr (std::is_same_v<T, std::string>) {
      j_[f.key] = f.path ? relativeIfBelow(value, base_dir_) : value;
    } else if constexpr (IsVector<T>::value) {
      if (!(f.omit_when_empty && value.empty()))
        j_[f.key] = value;
    } else {
      j_[f.key] = value;
    }
  }

  void operator()(const Field& f, const MethodField<const OptimizerSettings>& method) {
    j_[f.key] = method.settings.methodName();
  }

 private:
  json& j_;
  const std::string& base_dir_;
};

template <typename Section>
void readSection(ObjectReader r, Section& section, const std::string& base_dir) {
  visitFields(section, FieldReader(r, base_dir));
  r.finish();
}

template <typename Section>
json sectionJson(const Section& section, const std::string& base_dir) {
  json j = json::object();
  visitFields(section, FieldWriter(j, base_dir));
  return j;
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

template <typename Section>
void readList(ObjectReader& top, const char* key, std::vector<Section>& out,
              const std::string& base_dir) {
  readArray(top, key, [&](ObjectReader r) {
    Section one;
    readSection(std::move(r), one, base_dir);
    out.push_back(std::move(one));
  });
}

template <typename Section>
json listJson(const std::vector<Section>& list, const std::string& base_dir) {
  json a = json::array();
  for (const auto& one : list)
    a.push_back(sectionJson(one, base_dir));
  return a;
}

}  // namespace

std::string projectToJson(const ProjectSettings& s, const std::string& base_dir) {
  json j;
  j["schema_version"] = ProjectSettings::kSchemaVersion;
  j["application"] = "apertura";
  j["data"] = sectionJson(s.data, base_dir);
  j["weighting"] = sectionJson(s.weighting, base_dir);
  j["imaging"] = sectionJson(s.imaging, base_dir);
  j["regularizers"] = listJson(s.regularizers, base_dir);
  j["regularization"] = sectionJson(s.regularization, base_dir);
  j["optimizer"] = sectionJson(s.optimizer, base_dir);
  j["mask"] = listJson(s.mask, base_dir);
  j["output"] = sectionJson(s.output, base_dir);
  j["views"] = json::object();
  for (const auto& [name, view] : s.views)
    j["views"][name] = sectionJson(view, base_dir);
  return j.dump(2) + "\n";
}

ProjectSettings projectFromJson(const std::string& text, const std::string& base_dir,
                                const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception&) {
    // Parse errors and numbers beyond a double's range (out_of_range) alike: name the setting.
    const JsonErrorLocation at = locateJsonError(text);
    throw InputError(source, (at.path.empty() ? std::string() : at.path + ": ") +
                                 "not valid JSON: " + at.problem);
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
  if (version == 1) {
    // Schema 1 had only the unscaled objective: the file keeps exactly its meaning.
    s.regularization.scaling = ObjectiveScaling::None;
    s.migration_note = source +
                       ": project schema 1, read as schema 2 with regularization.scaling \"none\" "
                       "(the objective chi2 + sum lambda R it was written for; its images are "
                       "unchanged). Saving writes schema 2; set scaling to \"normalised\" for "
                       "dimensionless lambdas (docs/regularization.md).";
  }
  const auto section = [&](const char* key, auto& settings) {
    if (const json* section_json = top.child(key))
      readSection(ObjectReader(*section_json, key, source), settings, base_dir);
  };
  section("data", s.data);
  section("weighting", s.weighting);
  section("imaging", s.imaging);
  section("optimizer", s.optimizer);
  if (version >= 2)
    section("regularization", s.regularization);
  section("output", s.output);
  readList(top, "regularizers", s.regularizers, base_dir);
  readList(top, "mask", s.mask, base_dir);
  if (const json* v = top.child("views")) {
    if (!v->is_object())
      top.fail("views", std::string("expected an object, got ") + typeName(*v));
    for (const auto& [name, view] : v->items())
      readSection(ObjectReader(view, "views." + name, source), s.views[name], base_dir);
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
