#include "core/util/sky_format.h"

#include <cmath>
#include <cstdio>

namespace apertura {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Splits a non-negative value into units, minutes and seconds after rounding to `decimals` in the
// seconds so that 59.9999 never prints as "60".
void splitSexagesimal(double value, int decimals, long& units, int& minutes, double& seconds) {
  const double scale = std::pow(10.0, decimals);
  const double total = std::round(value * 3600.0 * scale) / scale;
  units = static_cast<long>(std::floor(total / 3600.0));
  const double rest = total - static_cast<double>(units) * 3600.0;
  minutes = static_cast<int>(std::floor(rest / 60.0));
  seconds = rest - minutes * 60.0;
  if (seconds < 0.0)
    seconds = 0.0;
}

struct CivilDate {
  long long year = 0;
  long long month = 0;
  long long day = 0;
};

// MJD 40587 is 1970-01-01, day 0 of civilFromDays().
constexpr double kUnixEpochMjd = 40587.0;

// The proleptic Gregorian date of a day counted from 1970-01-01, after Howard Hinnant's
// public-domain civil-from-days algorithm.
CivilDate civilFromDays(long long days) {
  days += 719468;
  const long long era = (days >= 0 ? days : days - 146096) / 146097;
  const long long doe = days - era * 146097;
  const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long long mp = (5 * doy + 2) / 153;
  const long long day = doy - (153 * mp + 2) / 5 + 1;
  const long long month = mp < 10 ? mp + 3 : mp - 9;
  const long long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return {year, month, day};
}

}  // namespace

double rightAscensionDegrees(double ra_rad) {
  double deg = std::fmod(ra_rad * 180.0 / kPi, 360.0);
  if (deg < 0.0)
    deg += 360.0;
  return deg >= 360.0 ? 0.0 : deg;  // -1e-15 + 360 rounds to 360
}

std::string formatRightAscension(double ra_rad) {
  const double hours = rightAscensionDegrees(ra_rad) / 15.0;
  long h = 0;
  int m = 0;
  double s = 0.0;
  splitSexagesimal(hours, 3, h, m, s);
  if (h >= 24)
    h -= 24;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02ld:%02d:%06.3f", h, m, s);
  return buf;
}

std::string formatDeclination(double dec_rad) {
  const double deg = dec_rad * 180.0 / kPi;
  long d = 0;
  int m = 0;
  double s = 0.0;
  splitSexagesimal(std::fabs(deg), 2, d, m, s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%c%02ld:%02d:%05.2f", deg < 0.0 ? '-' : '+', d, m, s);
  return buf;
}

std::string formatMjdSeconds(double mjd_s) {
  const double unix_s = mjd_s - kUnixEpochMjd * 86400.0;
  const double day_floor = std::floor(unix_s / 86400.0);
  long long days = static_cast<long long>(day_floor);
  double sec_of_day = unix_s - day_floor * 86400.0;
  long long ms = std::llround(sec_of_day * 1000.0);
  if (ms >= 86400000LL) {
    ms -= 86400000LL;
    ++days;
  }
  const CivilDate date = civilFromDays(days);
  char buf[160];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lld", date.year,
                date.month, date.day, ms / 3600000, (ms / 60000) % 60, (ms / 1000) % 60, ms % 1000);
  return buf;
}

std::string formatMjdDate(double mjd_s) {
  const auto mjd_day = static_cast<long long>(std::floor(mjd_s / 86400.0));
  const CivilDate date = civilFromDays(mjd_day - static_cast<long long>(kUnixEpochMjd));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld", date.year, date.month, date.day);
  return buf;
}

std::string formatFrequency(double hz) {
  const double a = std::fabs(hz);
  const char* unit = "Hz";
  double v = hz;
  if (a >= 1e9) {
    unit = "GHz";
    v = hz / 1e9;
  } else if (a >= 1e6) {
    unit = "MHz";
    v = hz / 1e6;
  } else if (a >= 1e3) {
    unit = "kHz";
    v = hz / 1e3;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.7g %s", v, unit);
  return buf;
}

}  // namespace apertura
