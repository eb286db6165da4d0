#include "core/io/fits_cube_io.h"

#include <fitsio.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "core/io/fits_cfitsio.h"
#include "core/io/fits_wcs_reader.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

constexpr double kDeg = M_PI / 180.0;
constexpr double kArcsecDeg = 3600.0;

void writeHeader(fits::KeyWriter& k, const FitsCube& c) {
  const FitsImage& h = c.header;
  fits::writeSkyKeywords(k, h);
  const auto& f0 = c.frequencies_hz;
  // A linear FREQ axis: planes at CRVAL3 + k * CDELT3. Unevenly spaced planes (several windows)
  // get the mean spacing, and their exact frequencies are listed in HISTORY cards.
  const double delta = c.planes > 1 ? (f0.back() - f0.front()) / double(c.planes - 1)
                       : (!c.bandwidths_hz.empty() && c.bandwidths_hz[0] > 0.0) ? c.bandwidths_hz[0]
                                                                                : 1.0;
  k.key("CTYPE3", std::string("FREQ"), "");
  k.key("CRVAL3", f0.front(), "Hz, plane 1");
  k.key("CDELT3", delta, "Hz");
  k.key("CRPIX3", 1.0, "");
  k.key("CUNIT3", std::string("Hz"), "");
  k.key("CTYPE4", std::string("STOKES"), "");
  k.key("CRVAL4", 1.0, "Stokes I");
  k.key("CDELT4", 1.0, "");
  k.key("CRPIX4", 1.0, "");
  k.key("SPECSYS", std::string("TOPOCENT"), "");
  if (!c.beams.empty()) {
    k.key("BMAJ", c.beams[0].major_fwhm_rad / kDeg, "deg, plane 1 (all: BEAMS table)");
    k.key("BMIN", c.beams[0].minor_fwhm_rad / kDeg, "deg, plane 1");
    k.key("BPA", c.beams[0].position_angle_rad / kDeg, "deg, plane 1");
    k.flag("CASAMBM", true, "one beam per plane (BEAMS table)");
  }
  for (int p = 0; p < c.planes; ++p) {
    const double linear = f0.front() + p * delta;
    if (std::fabs(f0[std::size_t(p)] - linear) > 1e-6 * std::fabs(delta)) {
      // Not on the linear axis: every plane's frequency goes into the header as text.
      for (int q = 0; q < c.planes; ++q) {
        char line[72];
        std::snprintf(line, sizeof line, "Apertura plane %d frequency %.6f Hz", q + 1,
                      f0[std::size_t(q)]);
        k.history(line);
      }
      break;
    }
  }
  for (const auto& line : h.history)
    k.history(line);
}

void writeBeamsTable(fits::KeyWriter& k, fitsfile* f, const FitsCube& c) {
  const char* names[] = {"BMAJ", "BMIN", "BPA", "CHAN", "POL"};
  const char* forms[] = {"1E", "1E", "1E", "1J", "1J"};
  const char* units[] = {"arcsec", "arcsec", "deg", "", ""};
  fits_create_tbl(f, BINARY_TBL, LONGLONG(c.planes), 5, const_cast<char**>(names),
                  const_cast<char**>(forms), const_cast<char**>(units), "BEAMS", &k.status());
  k.check("BEAMS table");
  k.key("NCHAN", c.planes, "planes");
  k.key("NPOL", 1, "");
  std::vector<float> bmaj, bmin, bpa;
  std::vector<int> chan, pol(std::size_t(c.planes), 0);
  for (int p = 0; p < c.planes; ++p) {
    const ImageBeam& b = c.beams[std::size_t(p)];
    bmaj.push_back(float(b.major_fwhm_rad / kDeg * kArcsecDeg));
    bmin.push_back(float(b.minor_fwhm_rad / kDeg * kArcsecDeg));
    bpa.push_back(float(b.position_angle_rad / kDeg));
    chan.push_back(p);
  }
  const auto n = LONGLONG(c.planes);
  fits_write_col(f, TFLOAT, 1, 1, 1, n, bmaj.data(), &k.status());
  fits_write_col(f, TFLOAT, 2, 1, 1, n, bmin.data(), &k.status());
  fits_write_col(f, TFLOAT, 3, 1, 1, n, bpa.data(), &k.status());
  fits_write_col(f, TINT, 4, 1, 1, n, chan.data(), &k.status());
  fits_write_col(f, TINT, 5, 1, 1, n, pol.data(), &k.status());
  k.check("BEAMS rows");
}

std::string readText(fitsfile* f, const char* key) {
  char v[FLEN_VALUE] = {0};
  int status = 0;
  fits_read_key(f, TSTRING, key, v, nullptr, &status);
  return status == 0 ? std::string(v) : std::string();
}

}  // namespace

void writeFitsCube(const std::string& path, const FitsCube& c, FitsPixelType type) {
  const FitsImage& h = c.header;
  const std::size_t plane = std::size_t(h.nx) * std::size_t(std::max(0, h.ny));
  if (h.nx <= 0 || h.ny <= 0 || c.planes < 1 || c.pixels.size() != plane * std::size_t(c.planes))
    throw InputError(path, "cube size and pixel count disagree");
  if (c.frequencies_hz.size() != std::size_t(c.planes))
    throw InputError(path, "a cube needs one frequency per plane");
  if (!c.beams.empty() && c.beams.size() != std::size_t(c.planes))
    throw InputError(path, "a cube needs one beam per plane, or none");
  fits::writeAtomically(path, [&](fitsfile* f, fits::KeyWriter& k) {
    long naxes[4] = {h.nx, h.ny, c.planes, 1};
    fits_create_img(f, type == FitsPixelType::Float32 ? FLOAT_IMG : DOUBLE_IMG, 4, naxes,
                    &k.status());
    k.check("image");
    writeHeader(k, c);
    fits_write_date(f, &k.status());
    fits_write_img(f, TDOUBLE, 1, LONGLONG(c.pixels.size()), const_cast<double*>(c.pixels.data()),
                   &k.status());
    k.check("pixels");
    if (!c.beams.empty())
      writeBeamsTable(k, f, c);
  });
}

FitsCube readFitsCube(const std::string& path) {
  fits::FilePtr f = fits::openForReading(path);
  fitsfile* raw = f.get();
  int status = 0;
  int naxis = 0;
  long naxes[4] = {1, 1, 1, 1};
  fits_get_img_dim(raw, &naxis, &status);
  if (status != 0 || naxis < 3 || naxis > 4)
    throw InputError(path, "a cube needs NAXIS 3 or 4 (RA, DEC, FREQ[, STOKES])");
  fits_get_img_size(raw, naxis, naxes, &status);
  FitsCube c;
  FitsImage& h = c.header;
  h.nx = int(naxes[0]);
  h.ny = int(naxes[1]);
  c.planes = int(naxes[2]);
  const fits::SpectralAxis spectral = fits::readSkyWcs(raw, path, h);
  if (spectral.axis != 2 || spectral.ctype != "FREQ") {
    throw InputError(path, spectral.axis < 0 ? "no spectral axis; expected FREQ on axis 3"
                                             : "the spectral axis is " + spectral.ctype +
                                                   " on axis " + std::to_string(spectral.axis + 1) +
                                                   "; expected FREQ on axis 3");
  }
  c.ctype3 = spectral.ctype;
  c.crval3 = spectral.crval;
  c.cdelt3 = spectral.cdelt;
  c.crpix3 = spectral.crpix;
  c.specsys = readText(raw, "SPECSYS");
  for (int p = 0; p < c.planes; ++p)
    c.frequencies_hz.push_back(c.crval3 + (p + 1 - c.crpix3) * c.cdelt3);
  h.bunit = readText(raw, "BUNIT");
  h.object = readText(raw, "OBJECT");
  h.telescope = readText(raw, "TELESCOP");
  c.pixels.assign(std::size_t(h.nx) * std::size_t(h.ny) * std::size_t(c.planes), 0.0);
  double nulval = std::nan("");
  int anynul = 0;
  fits_read_img(raw, TDOUBLE, 1, LONGLONG(c.pixels.size()), &nulval, c.pixels.data(), &anynul,
                &status);
  if (status != 0)
    throw InputError(path, "cannot read the pixels: " + fits::errorText(status));
  std::optional<ImageBeam> primary;
  {
    double bmaj = 0.0, bmin = 0.0, bpa = 0.0;
    int s1 = 0, s2 = 0, s3 = 0;
    fits_read_key(raw, TDOUBLE, "BMAJ", &bmaj, nullptr, &s1);
    fits_read_key(raw, TDOUBLE, "BMIN", &bmin, nullptr, &s2);
    fits_read_key(raw, TDOUBLE, "BPA", &bpa, nullptr, &s3);
    if (s1 == 0 && s2 == 0)
      primary = ImageBeam{bmaj * kDeg, bmin * kDeg, s3 == 0 ? bpa * kDeg : 0.0};
  }
  status = 0;
  fits_movnam_hdu(raw, BINARY_TBL, const_cast<char*>("BEAMS"), 0, &status);
  if (status == 0) {
    long rows = 0;
    fits_get_num_rows(raw, &rows, &status);
    if (status != 0 || rows != c.planes)
      throw InputError(path, "the BEAMS table must have one row per plane");
    const std::size_t n = static_cast<std::size_t>(rows);
    std::vector<float> bmaj(n), bmin(n), bpa(n);
    float fnul = 0.0f;
    fits_read_col(raw, TFLOAT, 1, 1, 1, rows, &fnul, bmaj.data(), &anynul, &status);
    fits_read_col(raw, TFLOAT, 2, 1, 1, rows, &fnul, bmin.data(), &anynul, &status);
    fits_read_col(raw, TFLOAT, 3, 1, 1, rows, &fnul, bpa.data(), &anynul, &status);
    if (status != 0)
      throw InputError(path, "cannot read the BEAMS table: " + fits::errorText(status));
    for (long r = 0; r < rows; ++r) {
      c.beams.push_back({double(bmaj[std::size_t(r)]) / kArcsecDeg * kDeg,
                         double(bmin[std::size_t(r)]) / kArcsecDeg * kDeg,
                         double(bpa[std::size_t(r)]) * kDeg});
    }
  } else if (primary) {
    c.beams.assign(std::size_t(c.planes), *primary);
  }
  return c;
}

}  // namespace apertura
