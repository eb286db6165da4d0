#include "core/sim/sky_spec.h"

#include <cmath>
#include <sstream>
#include <vector>

#include "core/util/input_error.h"

namespace apertura::sim {
namespace {

constexpr double kArcsec = M_PI / (180.0 * 3600.0);
constexpr double kDeg = M_PI / 180.0;

double number(const std::string& text, const std::string& option, const std::string& whole) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v))
      return v;
  } catch (const std::exception&) {
  }
  throw InputError(option + " " + whole, "'" + text + "' is not a number");
}

std::vector<double> numbers(const std::string& text, const std::string& option,
                            std::size_t min_count, std::size_t max_count, const char* form) {
  std::vector<double> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    out.push_back(number(item, option, text));
  if (out.size() < min_count || out.size() > max_count) {
    throw InputError(option + " " + text, std::string("expected ") + form);
  }
  return out;
}

// "a:b:c", "a b c" or "AhBmCs"/"AdBmCs" -> a + b/60 + c/3600 with the sign of a.
double sexagesimal(std::string text, const std::string& option) {
  for (char& c : text) {
    if (c == 'h' || c == 'd' || c == 'm' || c == 's' || c == ':' || c == '\'' || c == '"')
      c = ' ';
  }
  std::stringstream in(text);
  std::vector<std::string> parts;
  std::string p;
  while (in >> p)
    parts.push_back(p);
  if (parts.empty() || parts.size() > 3)
    throw InputError(option + " " + text, "not an angle");
  const bool negative = parts[0].find('-') != std::string::npos;
  double value = 0.0, scale = 1.0;
  for (const auto& part : parts) {
    value += std::fabs(number(part, option, text)) * scale;
    scale /= 60.0;
  }
  return negative ? -value : value;
}

bool isSexagesimal(const std::string& t) {
  return t.find_first_of(":hdms' ") != std::string::npos;
}

}  // namespace

PointSource parsePointSpec(const std::string& text) {
  const auto v = numbers(text, "--point", 3, 4, "FLUX,DRA_ARCSEC,DDEC_ARCSEC[,SPECTRAL_INDEX]");
  return {v[0], v[1] * kArcsec, v[2] * kArcsec, v.size() > 3 ? v[3] : 0.0};
}

GaussianSource parseGaussianSpec(const std::string& text) {
  const auto v = numbers(text, "--gaussian", 6, 7,
                         "FLUX,DRA,DDEC,MAJ_ARCSEC,MIN_ARCSEC,PA_DEG[,SPECTRAL_INDEX]");
  if (!(v[3] > 0.0 && v[4] > 0.0 && v[4] <= v[3])) {
    throw InputError("--gaussian " + text, "need MAJ >= MIN > 0");
  }
  GaussianSource g;
  g.flux_jy = v[0];
  g.l = v[1] * kArcsec;
  g.m = v[2] * kArcsec;
  g.major_fwhm = v[3] * kArcsec;
  g.minor_fwhm = v[4] * kArcsec;
  g.position_angle = v[5] * kDeg;
  g.spectral_index = v.size() > 6 ? v[6] : 0.0;
  return g;
}

RingDiskSource parseDiskSpec(const std::string& text) {
  const auto v =
      numbers(text, "--disk", 9, 11,
              "FLUX,DRA,DDEC,R_IN,GAP_IN,GAP_OUT,R_OUT,INC_DEG,PA_DEG[,GAP_DEPTH[,POWER]]");
  RingDiskSource d;
  d.flux_jy = v[0];
  d.l = v[1] * kArcsec;
  d.m = v[2] * kArcsec;
  d.inner_radius = v[3] * kArcsec;
  d.gap_inner = v[4] * kArcsec;
  d.gap_outer = v[5] * kArcsec;
  d.outer_radius = v[6] * kArcsec;
  d.inclination = v[7] * kDeg;
  d.position_angle = v[8] * kDeg;
  d.gap_depth = v.size() > 9 ? v[9] : 0.0;
  d.power_index = v.size() > 10 ? v[10] : 1.0;
  return d;
}

SpectralWindowSpec parseSpectralWindowSpec(const std::string& text) {
  const auto v = numbers(text, "--spw", 3, 3, "FIRST_FREQ_HZ,NCHAN,CHAN_WIDTH_HZ");
  if (!(v[0] > 0.0) || v[1] < 1.0 || v[1] != std::floor(v[1]) || v[2] == 0.0) {
    throw InputError("--spw " + text, "need a frequency > 0, an integer NCHAN >= 1, width != 0");
  }
  return {v[0], v[2], static_cast<int>(v[1])};
}

double parseRightAscension(const std::string& text) {
  const double ra =
      isSexagesimal(text) ? sexagesimal(text, "--ra") * 15.0 : number(text, "--ra", text);
  if (ra < 0.0 || ra >= 360.0)
    throw InputError("--ra " + text, "must be in [0, 24h)");
  return ra * kDeg;
}

double parseDeclination(const std::string& text) {
  const double dec = isSexagesimal(text) ? sexagesimal(text, "--dec") : number(text, "--dec", text);
  if (dec < -90.0 || dec > 90.0)
    throw InputError("--dec " + text, "must be within +-90 degrees");
  return dec * kDeg;
}

}  // namespace apertura::sim
