#include "core/pipeline/initial_model.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/io/fits_cube_io.h"
#include "core/io/fits_image_io.h"
#include "core/io/fits_planes.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {
namespace {

// The model's grid against the run's: size, cell, reference pixel and phase centre must agree.
void checkGrid(const FitsImage& img, const std::string& key, const imaging::ImageGeometry& g,
               double ra_rad, double dec_rad) {
  auto fail = [&](const std::string& problem) { throw InputError(key, problem); };
  if (img.bunit != "JY/PIXEL")
    fail("BUNIT is '" + img.bunit + "'; a model in JY/PIXEL is expected (not a restored image)");
  if (img.nx != g.nx || img.ny != g.ny) {
    std::ostringstream o;
    o << "is " << img.nx << " x " << img.ny << " pixels; the run images " << g.nx << " x " << g.ny;
    fail(o.str());
  }
  const double cell = std::abs(g.cell_m);
  if (std::abs(img.cell_x_rad - g.cell_l) > 1e-6 * cell ||
      std::abs(img.cell_y_rad - g.cell_m) > 1e-6 * cell) {
    std::ostringstream o;
    o << "has cells of " << img.cell_x_rad * 206264.806 << ", " << img.cell_y_rad * 206264.806
      << " arcsec; the run uses " << g.cell_l * 206264.806 << ", " << g.cell_m * 206264.806;
    fail(o.str());
  }
  if (std::abs(img.ref_pixel_x - g.nx / 2) > 1e-6 || std::abs(img.ref_pixel_y - g.ny / 2) > 1e-6)
    fail("its reference pixel is not the image centre the run uses");
  const double offset =
      std::hypot((img.ref_ra_rad - ra_rad) * std::cos(dec_rad), img.ref_dec_rad - dec_rad);
  if (offset > 1e-3 * cell)
    fail("its phase centre differs from the data's by " + std::to_string(offset / cell) +
         " pixels");
}

// Blanks, negative values (when `positive`) and pixels outside the mask become 0; the mask is
// one plane's and applies to every plane.
std::vector<double> cleaned(const std::vector<double>& pixels, bool positive,
                            const std::vector<double>& mask) {
  std::vector<double> out(pixels.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    double v = pixels[i];
    if (!std::isfinite(v) || (positive && v < 0.0) ||
        (!mask.empty() && mask[i % mask.size()] == 0.0))
      v = 0.0;
    out[i] = v;
  }
  return out;
}

}  // namespace

std::vector<double> readInitialModel(const std::string& path, const imaging::ImageGeometry& g,
                                     double ra_rad, double dec_rad, bool positive,
                                     const std::vector<double>& mask) {
  FitsImage img;
  try {
    img = readFitsImage(path);
  } catch (const InputError& e) {
    throw InputError("optimizer.initial_model", e.what());
  }
  checkGrid(img, "optimizer.initial_model: " + path, g, ra_rad, dec_rad);
  return cleaned(img.pixels, positive, mask);
}

std::vector<double> readInitialModelCube(const std::string& path, const imaging::ImageGeometry& g,
                                         double ra_rad, double dec_rad, bool positive,
                                         const std::vector<double>& mask, int planes) {
  const std::string key = "optimizer.initial_model: " + path;
  int file_planes = 0;
  try {
    file_planes = fitsImagePlanes(path);
  } catch (const InputError& e) {
    throw InputError("optimizer.initial_model", e.what());
  }
  if (file_planes <= 1) {
    // One image starts every plane (an MFS model as the start of a cube).
    const std::vector<double> one = readInitialModel(path, g, ra_rad, dec_rad, positive, mask);
    std::vector<double> out;
    out.reserve(one.size() * std::size_t(std::max(planes, 1)));
    for (int k = 0; k < planes; ++k)
      out.insert(out.end(), one.begin(), one.end());
    return out;
  }
  if (file_planes != planes) {
    throw InputError(key, "is a cube of " + std::to_string(file_planes) +
                              " planes; this run images " + std::to_string(planes) +
                              " (check imaging.channels_per_plane and the selected spectral "
                              "windows, or start from a 2-D model)");
  }
  FitsCube cube;
  try {
    cube = readFitsCube(path);
  } catch (const InputError& e) {
    throw InputError("optimizer.initial_model", e.what());
  }
  checkGrid(cube.header, key, g, ra_rad, dec_rad);
  return cleaned(cube.pixels, positive, mask);
}

}  // namespace apertura::pipeline
