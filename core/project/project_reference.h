#pragma once

#include <string>
#include <vector>

namespace apertura::project {

// One key of the project file, as the reference documents it: read from the field tables
// (settings_fields.h) and the defaults of the settings structs, never written by hand.
struct ReferenceEntry {
  std::string key;       // "imaging.nx", "regularizers[].lambda", "views.NAME.zoom"
  std::string fallback;  // the default, as JSON text
  std::string accepted;  // "[8, 65536]", "natural, uniform, briggs, radial", ...
  std::string unit;
  std::string help;
};

std::vector<ReferenceEntry> projectReferenceEntries();

// The reference as Markdown tables (docs/project-file.md holds a copy; a test keeps them equal).
std::string projectReferenceMarkdown();

// The reference as plain text, one key a line, for `apertura-cli run --help`.
std::string projectReferenceText();

}  // namespace apertura::project
