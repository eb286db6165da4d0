#include "core/pipeline/model_file.h"

#include "core/io/fits_cube_io.h"
#include "core/io/fits_image_io.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {

void writeModelFits(const ImagingProducts& p, const std::string& path) {
  const std::size_t npix = p.geometry.numPixels();
  const int planes = p.planes > 1 ? p.planes : 1;
  if (npix == 0 || p.model.size() != npix * std::size_t(planes))
    throw InputError(path, "the run has no complete model to write");
  FitsImage img;
  img.nx = p.geometry.nx;
  img.ny = p.geometry.ny;
  img.cell_x_rad = p.geometry.cell_l;
  img.cell_y_rad = p.geometry.cell_m;
  img.ref_pixel_x = img.nx / 2;
  img.ref_pixel_y = img.ny / 2;
  img.ref_ra_rad = p.phase_centre_ra_rad;
  img.ref_dec_rad = p.phase_centre_dec_rad;
  img.bunit = "JY/PIXEL";
  img.object = p.object;
  img.telescope = p.telescope;
  if (p.band_model.size() == 2 * npix && p.band_edges_hz.size() == 2) {
    // A linear spectrum's two planes (the sky at the band's ends): continuing the run starts
    // from both, and any other run from either (a one-plane model for the rest).
    FitsCube c;
    c.header = img;
    c.planes = 2;
    c.pixels = p.band_model;
    c.frequencies_hz = p.band_edges_hz;
    c.bandwidths_hz = {p.bandwidth_hz, p.bandwidth_hz};
    writeFitsCube(path, c, FitsPixelType::Float64);
    return;
  }
  if (planes == 1) {
    img.pixels = p.model;
    writeFitsImage(path, img, FitsPixelType::Float64);
    return;
  }
  FitsCube c;
  c.header = img;
  c.planes = planes;
  c.pixels = p.model;
  c.frequencies_hz = p.plane_frequencies_hz;
  c.bandwidths_hz = p.plane_bandwidths_hz;
  writeFitsCube(path, c, FitsPixelType::Float64);
}

}  // namespace apertura::pipeline
