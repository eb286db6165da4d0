#pragma once

#include <cstdio>
#include <string>

namespace apertura {

// `v` with `digits` significant digits, as printf's %g: the messages' and summaries' numbers.
inline std::string significantDigits(double v, int digits = 4) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
  return buffer;
}

}  // namespace apertura
