#pragma once

#include <QString>
#include <string>

#include "core/project/project_file.h"
#include "core/util/input_error.h"

namespace apertura::project::test {

// The message of the InputError that loading `json` (relative paths resolved against `base`)
// throws, or an empty string when it loads.
inline QString loadError(const std::string& json, const std::string& base = "/tmp") {
  try {
    projectFromJson(json, base, "p.apertura");
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace apertura::project::test
