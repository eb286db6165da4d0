#include "core/project/project_reference.h"

#include <sstream>

#include "core/plugin/plugin_registry.h"
#include "core/project/settings_fields.h"
#include "core/rml/builtin_regularizers.h"
#include "core/util/number_text.h"

namespace apertura::project {
namespace {

std::string number(double v) {
  return significantDigits(v, 6);
}  // as %g

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names)
    list += (list.empty() ? "" : ", ") + n;
  return list;
}

template <typename T>
std::string valueText(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return "\"" + choiceName(v) + "\"";
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_arithmetic_v<T>) {
    return number(double(v));
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "\"" + v + "\"";
  } else if constexpr (std::is_same_v<T, std::map<std::string, double>>) {
    return v.empty() ? "{}" : "{...}";
  } else {
    std::string list;
    for (const auto& e : v)
      list += (list.empty() ? "" : ", ") + number(double(e));
    return "[" + list + "]";
  }
}

template <typename T>
std::string valueText(const std::optional<T>& v) {
  return v ? valueText(*v) : "\"auto\"";
}

class EntryCollector {
 public:
  EntryCollector(std::string prefix, std::vector<ReferenceEntry>& out)
      : prefix_(std::move(prefix)), out_(out) {}

  template <typename T>
  void operator()(const Field& f, const T& value) const {
    ReferenceEntry e = entry(f);
    e.fallback = valueText(value);
    if constexpr (std::is_enum_v<T>) {
      e.accepted = choiceList<T>();
    } else if constexpr (std::is_same_v<T, bool>) {
      e.accepted = "true, false";
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!f.allowed.empty())
        e.accepted = joined(f.allowed);
      else if (prefix_ == "regularizers[]" && std::string(f.key) == "type")
        e.accepted = joined(plugin::builtinRegularizerNames()) + ", or a loaded plugin's";
      else
        e.accepted = f.path ? "a path (relative: to the project file's folder)" : "text";
    } else if constexpr (std::is_same_v<T, std::map<std::string, double>>) {
      e.accepted = "names and numbers";
    } else {
      const std::string range = rangeText(f);
      constexpr bool integer = std::is_integral_v<T> || std::is_same_v<T, std::optional<int>> ||
                               std::is_same_v<T, std::optional<std::size_t>> ||
                               std::is_same_v<T, std::vector<int>>;
      constexpr bool list =
          std::is_same_v<T, std::vector<int>> || std::is_same_v<T, std::vector<double>>;
      e.accepted = std::string(list ? "list of " : "") + (integer ? "integer" : "number") +
                   (list ? "s" : "") + (range.empty() ? "" : " " + range);
      if constexpr (std::is_same_v<T, std::optional<int>> ||
                    std::is_same_v<T, std::optional<std::size_t>> ||
                    std::is_same_v<T, std::optional<double>>)
        e.accepted += ", or \"auto\"";
    }
    out_.push_back(std::move(e));
  }

  void operator()(const Field& f, const MethodField<const OptimizerSettings>& method) const {
    ReferenceEntry e = entry(f);
    e.fallback = "\"" + method.settings.methodName() + "\"";
    e.accepted = choiceList<OptimizerMethod>() + ", or a loaded plugin's";
    out_.push_back(std::move(e));
  }

 private:
  ReferenceEntry entry(const Field& f) const {
    ReferenceEntry e;
    e.key = prefix_ + "." + f.key;
    e.unit = f.unit;
    e.help = f.help;
    return e;
  }

  std::string prefix_;
  std::vector<ReferenceEntry>& out_;
};

template <typename Section>
void collect(const std::string& prefix, std::vector<ReferenceEntry>& out) {
  const Section defaults{};
  visitFields(defaults, EntryCollector(prefix, out));
}

const char* kindName(rml::TermKind kind) {
  switch (kind) {
    case rml::TermKind::Smooth:
      return "smooth";
    case rml::TermKind::NonSmooth:
      return "non-smooth (prox)";
    case rml::TermKind::Spectral:
      return "across cube planes";
  }
  return "";
}

std::string parameterText(const rml::ParameterSpec& p) {
  return p.name + " = " + number(p.default_value) + " (" + (p.min_open ? "> " : ">= ") +
         number(p.min_value) + "): " + p.description;
}

}  // namespace

std::vector<ReferenceEntry> projectReferenceEntries() {
  std::vector<ReferenceEntry> out;
  collect<DataSettings>("data", out);
  collect<WeightingSettings>("weighting", out);
  collect<ImagingSettings>("imaging", out);
  collect<RegularizerSettings>("regularizers[]", out);
  collect<RegularizationSettings>("regularization", out);
  collect<OptimizerSettings>("optimizer", out);
  collect<MaskRegion>("mask[]", out);
  collect<OutputSettings>("output", out);
  collect<ViewSettings>("views.NAME", out);
  return out;
}

std::string projectReferenceMarkdown() {
  std::ostringstream o;
  std::string section;
  for (const ReferenceEntry& e : projectReferenceEntries()) {
    const std::string head = e.key.substr(0, e.key.rfind('.'));
    if (head != section) {
      section = head;
      o << (o.tellp() > 0 ? "\n" : "") << "### `" << section << "`\n\n"
        << "| key | default | accepted | unit | meaning |\n|---|---|---|---|---|\n";
    }
    o << "| `" << e.key.substr(head.size() + 1) << "` | `" << e.fallback << "` | " << e.accepted
      << " | " << e.unit << " | " << e.help << " |\n";
  }
  o << "\n### Built-in regularizers (`regularizers[].type`)\n\n"
    << "| type | kind | parameters | meaning |\n|---|---|---|---|\n";
  for (const rml::RegularizerDescriptor& d : rml::builtinRegularizers()) {
    std::string params;
    for (const auto& p : d.parameters)
      params += (params.empty() ? "" : "; ") + parameterText(p);
    o << "| `" << d.name << "` | " << kindName(d.kind) << " | "
      << (params.empty() ? "none" : params) << " | " << d.description << " |\n";
  }
  return o.str();
}

std::string projectReferenceText() {
  std::ostringstream o;
  for (const ReferenceEntry& e : projectReferenceEntries()) {
    o << "  " << e.key << " = " << e.fallback;
    if (!e.unit.empty())
      o << " " << e.unit;
    o << "  (" << e.accepted << ")\n      " << e.help << "\n";
  }
  o << "\nBuilt-in regularizers (regularizers[].type; parameters in regularizers[].parameters):\n";
  for (const rml::RegularizerDescriptor& d : rml::builtinRegularizers()) {
    o << "  " << d.name << " (" << kindName(d.kind) << "): " << d.description << "\n";
    for (const auto& p : d.parameters)
      o << "      " << parameterText(p) << "\n";
  }
  return o.str();
}

}  // namespace apertura::project
