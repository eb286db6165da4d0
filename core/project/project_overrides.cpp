#include "core/project/project_overrides.h"

#include <nlohmann/json.hpp>

#include "core/project/project_file.h"
#include "core/util/input_error.h"

namespace apertura::project {
namespace {

using nlohmann::json;

// Walks "a.b[2].c" into the JSON document, creating nothing: unknown keys are reported by the
// reader afterwards, but an index past the end of an array is reported here.
json& locate(json& root, const std::string& key, const std::string& override_text) {
  json* node = &root;
  std::size_t i = 0;
  while (i < key.size()) {
    std::size_t end = key.find_first_of(".[", i);
    const std::string name = key.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (!name.empty()) {
      const std::string parent = key.substr(0, i == 0 ? 0 : i - 1);
      if (!node->is_object()) {
        throw InputError("--set " + override_text,
                         parent + " is a single value, not a section: it has no key " + name);
      }
      const bool last = end == std::string::npos;
      if (!last && !node->contains(name)) {
        // The last key is checked by the reader (with the others); a missing section here.
        std::string known;
        for (const auto& item : node->items())
          known += (known.empty() ? "" : ", ") + item.key();
        throw InputError("--set " + override_text, (parent.empty() ? name : parent + "." + name) +
                                                       ": unknown key (expected one of: " + known +
                                                       ")");
      }
      node = &(*node)[name];
    }
    if (end == std::string::npos)
      break;
    if (key[end] == '[') {
      const std::size_t close = key.find(']', end);
      if (close == std::string::npos)
        throw InputError("--set " + override_text, "missing ']'");
      const std::string index_text = key.substr(end + 1, close - end - 1);
      std::size_t index = 0;
      try {
        index = std::stoul(index_text);
      } catch (const std::exception&) {
        throw InputError("--set " + override_text, "'" + index_text + "' is not an array index");
      }
      if (!node->is_array() || index >= node->size()) {
        throw InputError("--set " + override_text,
                         "index " + index_text + " is past the end of " + key.substr(0, end));
      }
      node = &(*node)[index];
      i = close + 1;
      if (i < key.size() && key[i] == '.')
        ++i;
    } else {
      i = end + 1;
    }
  }
  return *node;
}

}  // namespace

ProjectSettings applyOverrides(const ProjectSettings& settings,
                               const std::vector<std::string>& overrides,
                               const std::string& base_dir) {
  json doc = json::parse(projectToJson(settings, base_dir));
  for (const std::string& text : overrides) {
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError("--set " + text, "expected key=value, e.g. imaging.nx=1024");
    }
    const std::string key = text.substr(0, eq);
    const std::string value = text.substr(eq + 1);
    json parsed = json::parse(value, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded())
      parsed = value;
    locate(doc, key, text) = parsed;
  }
  return projectFromJson(doc.dump(), base_dir, "--set");
}

}  // namespace apertura::project
