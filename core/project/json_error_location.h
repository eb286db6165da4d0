#pragma once

#include <string>

namespace apertura::project {

// Where a JSON text stops parsing: the key path of the value being read ("regularizers[0].lambda";
// empty at the top level) and the parser's own description, which gives the line and column.
// Called after nlohmann::json::parse failed, so that the error can name the setting as well as
// the file (a number beyond a double's range fails inside the parser, before any setting is read).
struct JsonErrorLocation {
  std::string path;
  std::string problem;
};
JsonErrorLocation locateJsonError(const std::string& text);

}  // namespace apertura::project
