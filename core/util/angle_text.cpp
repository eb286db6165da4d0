#include "core/util/angle_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/util/number_text.h"

namespace apertura {
namespace {

std::string trimmed(const std::string& s) {
  std::size_t begin = 0, end = s.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(s[begin])))
    ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(s[end - 1])))
    --end;
  return s.substr(begin, end - begin);
}

std::string lower(std::string s) {
  for (char& c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Arcsec per unit as (times, over), by the names a user may type (lower case; "µ" in UTF-8, the
// micro sign and the Greek letter). Sub-arcsec units divide, so that "50 mas" is the double
// nearest 0.05, as typing "0.05" would be.
struct Unit {
  const char* name;
  double times, over;
};

const Unit* findUnit(const std::string& name) {
  static const Unit kUnits[] = {{"", 1, 1},
                                {"\"", 1, 1},
                                {"as", 1, 1},
                                {"asec", 1, 1},
                                {"arcsec", 1, 1},
                                {"mas", 1, 1e3},
                                {"uas", 1, 1e6},
                                {"\xc2\xb5"
                                 "as",
                                 1, 1e6},
                                {"\xce\xbc"
                                 "as",
                                 1, 1e6},
                                {"'", 60, 1},
                                {"amin", 60, 1},
                                {"arcmin", 60, 1},
                                {"deg", 3600, 1},
                                {"\xc2\xb0", 3600, 1}};
  for (const Unit& u : kUnits) {
    if (name == u.name)
      return &u;
  }
  return nullptr;
}

}  // namespace

std::optional<double> parseAngleArcsec(const std::string& text) {
  const std::string t = trimmed(text);
  if (t.empty())
    return std::nullopt;
  const char* begin = t.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value))
    return std::nullopt;
  const Unit* unit = findUnit(lower(trimmed(std::string(end))));
  if (unit == nullptr)
    return std::nullopt;
  return value * unit->times / unit->over;
}

std::string formatAngleArcsec(double arcsec, int digits) {
  const double a = std::fabs(arcsec);
  if (a == 0.0)
    return "0 arcsec";
  if (a < 1e-3)
    return significantDigits(arcsec * 1e6, digits) +
           " \xc2\xb5"
           "as";
  if (a < 1.0)
    return significantDigits(arcsec * 1e3, digits) + " mas";
  return significantDigits(arcsec, digits) + " arcsec";
}

}  // namespace apertura
