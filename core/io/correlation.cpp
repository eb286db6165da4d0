#include "core/io/correlation.h"

namespace apertura {

bool isKnownCorrelationCode(int code) {
  return code >= 1 && code <= 12;
}

std::string correlationName(Correlation c) {
  static const char* const names[] = {"I",  "Q",  "U",  "V",  "RR", "RL",
                                      "LR", "LL", "XX", "XY", "YX", "YY"};
  const int code = static_cast<int>(c);
  return isKnownCorrelationCode(code) ? names[code - 1] : "?" + std::to_string(code);
}

bool correlationFromUvfitsStokes(int stokes, Correlation& out) {
  static const Correlation negative[] = {Correlation::RR, Correlation::LL, Correlation::RL,
                                         Correlation::LR, Correlation::XX, Correlation::YY,
                                         Correlation::XY, Correlation::YX};
  if (stokes >= 1 && stokes <= 4) {
    out = static_cast<Correlation>(stokes);
    return true;
  }
  if (stokes <= -1 && stokes >= -8) {
    out = negative[-stokes - 1];
    return true;
  }
  return false;
}

}  // namespace apertura
