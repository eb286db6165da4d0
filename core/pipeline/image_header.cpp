#include "core/pipeline/image_header.h"

#include <cctype>
#include <sstream>

#include "core/project/project_file.h"
#include "core/util/sky_format.h"
#include "core/version.h"

namespace apertura::pipeline {
namespace {

// The engine's image grid: the phase centre sits at pixel (nx/2, ny/2) of every image it makes.
FitsImage gridHeader(int nx, int ny, double cell_x_rad, double cell_y_rad, double ra_rad,
                     double dec_rad, const std::string& bunit) {
  FitsImage f;
  f.nx = nx;
  f.ny = ny;
  f.cell_x_rad = cell_x_rad;
  f.cell_y_rad = cell_y_rad;
  f.ref_pixel_x = nx / 2;
  f.ref_pixel_y = ny / 2;
  f.ref_ra_rad = ra_rad;
  f.ref_dec_rad = dec_rad;
  f.bunit = bunit;
  return f;
}

// The engine spells units "Jy/beam" / "Jy/pixel"; FITS readers expect the upper-case BUNIT.
std::string fitsUnit(const std::string& unit) {
  std::string out = unit;
  for (char& c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

FitsImage imageHeader(const ImagingProducts& p, const std::string& bunit,
                      const std::vector<std::string>& history) {
  FitsImage f = gridHeader(p.geometry.nx, p.geometry.ny, p.geometry.cell_l, p.geometry.cell_m,
                           p.phase_centre_ra_rad, p.phase_centre_dec_rad, bunit);
  f.object = p.object;
  f.telescope = p.telescope;
  if (p.start_time_mjd_s > 0.0)
    f.date_obs = formatMjdSeconds(p.start_time_mjd_s);
  f.history = history;
  return f;
}

FitsImage snapshotHeader(const engine::ImageSnapshot& image) {
  FitsImage f = gridHeader(image.nx, image.ny, image.cell_x_rad, image.cell_y_rad, image.ref_ra_rad,
                           image.ref_dec_rad, fitsUnit(image.unit));
  f.history.push_back("Apertura snapshot: " + image.name + " at iteration " +
                      std::to_string(image.iteration));
  return f;
}

std::vector<std::string> provenanceHistory(const project::ProjectSettings& s) {
  std::vector<std::string> lines = {std::string("Apertura ") + kVersion + " RML imaging"};
  std::istringstream json(project::projectToJson(s, ""));
  std::string line;
  while (std::getline(json, line)) {
    const auto first = line.find_first_not_of(' ');
    if (first == std::string::npos)
      continue;
    line = line.substr(first);
    while (line.size() > 70) {
      lines.push_back(line.substr(0, 70));
      line = line.substr(70);
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace apertura::pipeline
