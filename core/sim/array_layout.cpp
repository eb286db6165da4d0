#include "core/sim/array_layout.h"

#include <cmath>
#include <sstream>

#include "core/io/ms_antenna_reader.h"
#include "core/util/input_error.h"
#include "core/util/random.h"

namespace apertura::sim {
namespace {

constexpr double kDeg = M_PI / 180.0;
constexpr double kWgs84A = 6378137.0;
constexpr double kWgs84F = 1.0 / 298.257223563;

// Site coordinates (geodetic, WGS84) used only to place the generated arrays on the Earth.
constexpr double kAlmaLon = -67.7551 * kDeg, kAlmaLat = -23.0229 * kDeg, kAlmaHeight = 5060.0;
constexpr double kVlaLon = -107.6184 * kDeg, kVlaLat = 34.0784 * kDeg, kVlaHeight = 2124.0;

double parseNumber(const std::string& text, const std::string& spec) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v))
      return v;
  } catch (const std::exception&) {
  }
  throw InputError("--array " + spec, "'" + text + "' is not a number");
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, sep))
    parts.push_back(item);
  return parts;
}

}  // namespace

Vec3 ArrayLayout::centre() const {
  Vec3 c{0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < antennas.size(); ++i) {
    for (int k = 0; k < 3; ++k)
      c[k] += antennas[i].position_itrf_m[k];
  }
  for (double& x : c)
    x /= static_cast<double>(std::max<std::size_t>(1, antennas.size()));
  return c;
}

Vec3 geodeticToItrf(double lon, double lat, double h) {
  const double e2 = kWgs84F * (2.0 - kWgs84F);
  const double n = kWgs84A / std::sqrt(1.0 - e2 * std::sin(lat) * std::sin(lat));
  return {(n + h) * std::cos(lat) * std::cos(lon), (n + h) * std::cos(lat) * std::sin(lon),
          (n * (1.0 - e2) + h) * std::sin(lat)};
}

void itrfToGeodetic(const Vec3& p, double& lon, double& lat, double& h) {
  const double e2 = kWgs84F * (2.0 - kWgs84F);
  const double rho = std::hypot(p[0], p[1]);
  lon = std::atan2(p[1], p[0]);
  lat = std::atan2(p[2], rho * (1.0 - e2));
  for (int i = 0; i < 10; ++i) {
    const double n = kWgs84A / std::sqrt(1.0 - e2 * std::sin(lat) * std::sin(lat));
    h = rho / std::cos(lat) - n;
    lat = std::atan2(p[2], rho * (1.0 - e2 * n / (n + h)));
  }
}

ArrayLayout layoutFromEnu(const std::string& telescope, double lon, double lat, double height,
                          const std::vector<Vec3>& enu, double dish_m, const std::string& prefix) {
  ArrayLayout layout;
  layout.telescope_name = telescope;
  const Vec3 origin = geodeticToItrf(lon, lat, height);
  const double sl = std::sin(lon), cl = std::cos(lon), sp = std::sin(lat), cp = std::cos(lat);
  for (std::size_t i = 0; i < enu.size(); ++i) {
    const double e = enu[i][0], n = enu[i][1], u = enu[i][2];
    MsAntennaInfo a;
    a.position_itrf_m[0] = origin[0] - sl * e - sp * cl * n + cp * cl * u;
    a.position_itrf_m[1] = origin[1] + cl * e - sp * sl * n + cp * sl * u;
    a.position_itrf_m[2] = origin[2] + cp * n + sp * u;
    const std::string number = std::to_string(i + 1);
    a.name = prefix + (number.size() < 2 ? "0" : "") + number;
    a.station = "P" + a.name;
    a.dish_diameter_m = dish_m;
    layout.antennas.push_back(a);
  }
  itrfToGeodetic(layout.centre(), layout.longitude, layout.latitude, layout.height_m);
  return layout;
}

ArrayLayout almaCompactLayout() {
  constexpr int kAntennas = 32;
  constexpr double kRadius = 80.0;  // 160 m maximum baseline
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  std::vector<Vec3> enu;
  for (int k = 0; k < kAntennas; ++k) {
    const double r = kRadius * std::sqrt((k + 0.5) / kAntennas);
    enu.push_back({r * std::cos(k * golden), r * std::sin(k * golden), 0.0});
  }
  return layoutFromEnu("ALMA", kAlmaLon, kAlmaLat, kAlmaHeight, enu, 12.0, "CM");
}

ArrayLayout vlaYLayout(double arm_length_m) {
  if (!(arm_length_m > 50.0))
    throw InputError("--array vla-y", "arm length must exceed 50 m");
  std::vector<Vec3> enu;
  const double azimuths[3] = {5.0 * kDeg, 125.0 * kDeg, 245.0 * kDeg};
  for (double az : azimuths) {
    for (int k = 1; k <= 9; ++k) {
      const double r = arm_length_m * std::pow(k / 9.0, 1.716);
      enu.push_back({r * std::sin(az), r * std::cos(az), 0.0});
    }
  }
  return layoutFromEnu("VLA", kVlaLon, kVlaLat, kVlaHeight, enu, 25.0, "Y");
}

ArrayLayout randomCompactLayout(double max_baseline_m, int antennas, double dish_m,
                                std::uint64_t seed) {
  const std::string what = "--array random";
  if (antennas < 2 || antennas > 4096)
    throw InputError(what, "need 2 to 4096 antennas");
  if (!(dish_m > 0.0) || !(max_baseline_m > 2.0 * dish_m)) {
    throw InputError(what, "the maximum baseline must exceed two dish diameters");
  }
  const double radius = 0.5 * max_baseline_m;
  const double min_sep = 1.25 * dish_m;
  std::vector<Vec3> enu;
  std::uint64_t draw = 0;
  const std::uint64_t max_draws = 1000ULL * static_cast<std::uint64_t>(antennas);
  while (static_cast<int>(enu.size()) < antennas && draw < max_draws) {
    const double r = radius * std::sqrt(counterUniform(seed, draw++));
    const double phi = 2.0 * M_PI * counterUniform(seed, draw++);
    const Vec3 p{r * std::cos(phi), r * std::sin(phi), 0.0};
    bool ok = true;
    for (const auto& q : enu)
      ok = ok && std::hypot(p[0] - q[0], p[1] - q[1]) >= min_sep;
    if (ok)
      enu.push_back(p);
  }
  if (static_cast<int>(enu.size()) < antennas) {
    throw InputError(what, "cannot fit " + std::to_string(antennas) + " dishes of " +
                               std::to_string(dish_m) + " m inside " +
                               std::to_string(max_baseline_m) + " m");
  }
  return layoutFromEnu("RANDOM", kAlmaLon, kAlmaLat, kAlmaHeight, enu, dish_m, "R");
}

ArrayLayout arrayLayoutFromSpec(const std::string& spec, std::uint64_t seed) {
  if (spec == "alma-compact")
    return almaCompactLayout();
  if (spec == "vla-y")
    return vlaYLayout();
  if (spec.rfind("vla-y:", 0) == 0)
    return vlaYLayout(parseNumber(spec.substr(6), spec));
  if (spec.rfind("random:", 0) == 0) {
    const auto parts = split(spec.substr(7), ':');
    if (parts.size() != 3) {
      throw InputError("--array " + spec, "expected random:MAXBL_M:N:DISH_M");
    }
    return randomCompactLayout(parseNumber(parts[0], spec),
                               static_cast<int>(parseNumber(parts[1], spec)),
                               parseNumber(parts[2], spec), seed);
  }
  if (spec.rfind("ms:", 0) == 0) {
    const std::string path = spec.substr(3);
    const MsAntennaTable table = readMsAntennaTable(path);
    ArrayLayout layout;
    layout.telescope_name = table.telescope_name.empty() ? "UNKNOWN" : table.telescope_name;
    layout.antennas = table.antennas;
    itrfToGeodetic(layout.centre(), layout.longitude, layout.latitude, layout.height_m);
    return layout;
  }
  throw InputError("--array " + spec,
                   "expected alma-compact, vla-y[:ARM_M], random:MAXBL_M:N:DISH_M or ms:PATH");
}

}  // namespace apertura::sim
