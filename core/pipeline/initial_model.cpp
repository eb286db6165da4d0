#include "core/pipeline/initial_model.h"

#include <cmath>
#include <sstream>

#include "core/io/fits_image_io.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {

std::vector<double> readInitialModel(const std::string& path, const imaging::ImageGeometry& g,
                                     double ra_rad, double dec_rad, bool positive,
                                     const std::vector<double>& mask) {
  const std::string key = "optimizer.initial_model: " + path;
  FitsImage img;
  try {
    img = readFitsImage(path);
  } catch (const InputError& e) {
    throw InputError("optimizer.initial_model", e.what());
  }
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
  std::vector<double> out(img.pixels.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    double v = img.pixels[i];
    if (!std::isfinite(v) || (positive && v < 0.0) || (!mask.empty() && mask[i] == 0.0))
      v = 0.0;
    out[i] = v;
  }
  return out;
}

}  // namespace apertura::pipeline
