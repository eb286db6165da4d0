#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/ms_writer.h"
#include "core/sim/astrometry.h"

namespace apertura::sim {

// An interferometer: its antennas (ITRF positions) and the geodetic position of its centre.
struct ArrayLayout {
  std::string telescope_name;
  std::vector<MsAntennaInfo> antennas;
  double longitude = 0.0;  // rad, geodetic (WGS84), of the mean antenna position
  double latitude = 0.0;
  double height_m = 0.0;

  Vec3 position(std::size_t i) const {
    return {antennas[i].position_itrf_m[0], antennas[i].position_itrf_m[1],
            antennas[i].position_itrf_m[2]};
  }
  Vec3 centre() const;  // mean ITRF position
};

Vec3 geodeticToItrf(double longitude, double latitude, double height_m);
void itrfToGeodetic(const Vec3& itrf, double& longitude, double& latitude, double& height_m);

// Builds a layout from local east/north/up offsets (metres) around a geodetic site.
ArrayLayout layoutFromEnu(const std::string& telescope, double longitude, double latitude,
                          double height_m, const std::vector<Vec3>& enu_m, double dish_m,
                          const std::string& name_prefix);

// Generated layouts (the project's own; no real configuration files are copied):
// - ALMA-like compact: 32 x 12 m dishes on a sunflower (Vogel) spiral at Chajnantor, baselines
//   15-160 m;
// - VLA-like Y: 27 x 25 m dishes, 9 per arm at azimuths 5, 125, 245 deg, radii growing as
//   k^1.716 up to arm_length_m (600 m ~ D configuration);
// - random compact: n dishes uniformly inside a circle of diameter max_baseline_m at the ALMA
//   site, no two closer than 1.25 dish diameters (deterministic for a seed).
ArrayLayout almaCompactLayout();
ArrayLayout vlaYLayout(double arm_length_m = 600.0);
ArrayLayout randomCompactLayout(double max_baseline_m, int antennas, double dish_m,
                                std::uint64_t seed);

// Parses "alma-compact", "vla-y[:ARM_M]", "random:MAXBL_M:N:DISH_M" or "ms:PATH" (the ANTENNA
// table of a Measurement Set). Throws InputError naming the spec.
ArrayLayout arrayLayoutFromSpec(const std::string& spec, std::uint64_t seed);

}  // namespace apertura::sim
