#include "gui/controller/results_reader.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <exception>

#include "core/io/fits_cube_io.h"
#include "core/io/fits_image_io.h"
#include "core/io/fits_planes.h"

namespace apertura::gui {
namespace {

// FITS BUNIT to the unit text the views show (as the engine's snapshots spell it).
std::string displayUnit(const std::string& bunit) {
  const QString u = QString::fromStdString(bunit).toUpper();
  if (u == "JY/BEAM")
    return "Jy/beam";
  if (u == "JY/PIXEL")
    return "Jy/pixel";
  return bunit;
}

std::optional<BeamShape> beamShape(const ImageBeam& b) {
  if (!(b.major_fwhm_rad > 0.0))
    return std::nullopt;
  return BeamShape{b.major_fwhm_rad, b.minor_fwhm_rad, b.position_angle_rad * 180.0 / M_PI};
}

// What a 2-D image and a cube share: the grid, the pixels (`planes` planes), the unit and the sky
// coordinates of header `h`.
ImageCube toImageCube(const FitsImage& h, const std::vector<double>& pixels, int planes) {
  ImageCube out;
  out.nx = h.nx;
  out.ny = h.ny;
  out.planes = planes;
  out.pixels = std::make_shared<const std::vector<float>>(pixels.begin(), pixels.end());
  out.unit = displayUnit(h.bunit);
  out.wcs.ref_ra_rad = h.ref_ra_rad;
  out.wcs.ref_dec_rad = h.ref_dec_rad;
  out.wcs.ref_pixel_x = h.ref_pixel_x;
  out.wcs.ref_pixel_y = h.ref_pixel_y;
  out.wcs.cell_x_rad = h.cell_x_rad;
  out.wcs.cell_y_rad = h.cell_y_rad;
  out.wcs.projection = h.projection;
  return out;
}

// One plane with one beam (or none); no frequency, as the views show a 2-D image. An empty cube
// when the pixels do not fill the grid.
ImageCube toImageCube(const FitsImage& f) {
  if (f.nx <= 0 || f.ny <= 0 ||
      f.pixels.size() != static_cast<std::size_t>(f.nx) * static_cast<std::size_t>(f.ny))
    return {};
  ImageCube out = toImageCube(f, f.pixels, 1);
  if (f.beam)
    out.beam = beamShape(*f.beam);
  return out;
}

// Every plane with its frequency and beam.
ImageCube toImageCube(const FitsCube& c) {
  ImageCube out = toImageCube(c.header, c.pixels, c.planes);
  out.frequencies_hz = c.frequencies_hz;
  for (const ImageBeam& b : c.beams)
    out.beams.push_back(beamShape(b));
  return out;
}

// A cube run's outputs are FITS cubes; MFS runs (and other tools) write 2-D images.
ImageCube readImageOrCube(const std::string& path) {
  if (const int planes = fitsImagePlanes(path); planes > 1) {
    ImageCube cube = toImageCube(readFitsCube(path));
    // Planes of several spectral windows: the exact frequencies, not the linear axis's.
    if (auto listed = fitsListedPlaneFrequencies(path, planes); !listed.empty())
      cube.frequencies_hz = std::move(listed);
    return cube;
  }
  return toImageCube(readFitsImage(path));
}

}  // namespace

QString resultsPrefix(const project::ProjectSettings& s, const QString& project_path) {
  const QFileInfo project(project_path);
  const QString prefix = QString::fromStdString(s.output.prefix);
  if (prefix.isEmpty())
    return project.absoluteDir().filePath(project.completeBaseName());
  if (QDir::isAbsolutePath(prefix))
    return prefix;
  return QDir::cleanPath(project.absoluteDir().filePath(prefix));
}

RestoredResults readResults(const QString& prefix, const QStringList& names) {
  RestoredResults out;
  for (const QString& name : names) {
    const QString path = prefix + "-" + name + ".fits";
    if (!QFileInfo(path).isFile())
      continue;
    try {
      out.images.push_back({name, readImageOrCube(path.toStdString())});
    } catch (const std::exception& e) {
      out.errors << QString::fromStdString(e.what());
    }
  }
  return out;
}

}  // namespace apertura::gui
