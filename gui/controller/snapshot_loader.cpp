#include "gui/controller/snapshot_loader.h"

#include "core/io/fits_cube_io.h"
#include "core/io/fits_image_io.h"
#include "core/io/fits_planes.h"

namespace apertura::gui {
namespace {

// A cube run's snapshot file (every plane, FREQ axis, BEAMS table) back into one cube snapshot.
std::shared_ptr<const engine::ImageSnapshot> readCubeSnapshot(const std::string& path,
                                                              const QString& name, int iteration) {
  const FitsCube c = readFitsCube(path);
  auto image = std::make_shared<engine::ImageSnapshot>();
  image->name = name.toStdString();
  image->iteration = iteration;
  image->nx = c.header.nx;
  image->ny = c.header.ny;
  image->planes = c.planes;
  image->pixels.assign(c.pixels.begin(), c.pixels.end());
  const QString unit = QString::fromStdString(c.header.bunit).toUpper();
  image->unit = unit == QLatin1String("JY/BEAM")    ? "Jy/beam"
                : unit == QLatin1String("JY/PIXEL") ? "Jy/pixel"
                                                    : c.header.bunit;
  image->ref_ra_rad = c.header.ref_ra_rad;
  image->ref_dec_rad = c.header.ref_dec_rad;
  image->cell_x_rad = c.header.cell_x_rad;
  image->cell_y_rad = c.header.cell_y_rad;
  image->plane_frequencies_hz = c.frequencies_hz;
  if (auto listed = fitsListedPlaneFrequencies(path, c.planes); !listed.empty())
    image->plane_frequencies_hz = std::move(listed);
  for (const ImageBeam& b : c.beams)
    image->plane_beams.push_back({b.major_fwhm_rad, b.minor_fwhm_rad, b.position_angle_rad});
  if (!c.beams.empty()) {
    image->beam_major_rad = c.beams.front().major_fwhm_rad;
    image->beam_minor_rad = c.beams.front().minor_fwhm_rad;
    image->beam_pa_rad = c.beams.front().position_angle_rad;
  }
  return image;
}

}  // namespace

std::shared_ptr<const engine::ImageSnapshot> readSnapshotFile(const QString& path,
                                                              const QString& name, int iteration) {
  if (fitsImagePlanes(path.toStdString()) > 1)
    return readCubeSnapshot(path.toStdString(), name, iteration);
  const FitsImage f = readFitsImage(path.toStdString());
  auto image = std::make_shared<engine::ImageSnapshot>();
  image->name = name.toStdString();
  image->iteration = iteration;
  image->nx = f.nx;
  image->ny = f.ny;
  image->pixels.assign(f.pixels.begin(), f.pixels.end());
  // BUNIT as the engine spells it, so the views label the colour bar the same way.
  const QString unit = QString::fromStdString(f.bunit).toUpper();
  image->unit = unit == QLatin1String("JY/BEAM")    ? "Jy/beam"
                : unit == QLatin1String("JY/PIXEL") ? "Jy/pixel"
                                                    : f.bunit;
  image->ref_ra_rad = f.ref_ra_rad;
  image->ref_dec_rad = f.ref_dec_rad;
  image->cell_x_rad = f.cell_x_rad;
  image->cell_y_rad = f.cell_y_rad;
  if (f.beam) {
    image->beam_major_rad = f.beam->major_fwhm_rad;
    image->beam_minor_rad = f.beam->minor_fwhm_rad;
    image->beam_pa_rad = f.beam->position_angle_rad;
  }
  return image;
}

}  // namespace apertura::gui
