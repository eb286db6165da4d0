#include "core/io/fits_image_io.h"

#include <fitsio.h>
#include <wcslib/wcs.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "core/io/fits_cfitsio.h"
#include "core/io/fits_wcs_reader.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

constexpr double kDeg = M_PI / 180.0;

void writeHeader(fits::KeyWriter& w, const FitsImage& img) {
  fits::writeSkyKeywords(w, img);
  if (img.frequency_hz > 0.0) {
    w.key("CTYPE3", std::string("FREQ"), "");
    w.key("CRVAL3", img.frequency_hz, "Hz");
    w.key("CDELT3", img.bandwidth_hz > 0.0 ? img.bandwidth_hz : 1.0, "Hz");
    w.key("CRPIX3", 1.0, "");
    w.key("CUNIT3", std::string("Hz"), "");
    w.key("CTYPE4", std::string("STOKES"), "");
    w.key("CRVAL4", 1.0, "Stokes I");
    w.key("CDELT4", 1.0, "");
    w.key("CRPIX4", 1.0, "");
    w.key("SPECSYS", std::string("TOPOCENT"), "");
  }
  if (img.beam) {
    w.key("BMAJ", img.beam->major_fwhm_rad / kDeg, "deg");
    w.key("BMIN", img.beam->minor_fwhm_rad / kDeg, "deg");
    w.key("BPA", img.beam->position_angle_rad / kDeg, "deg");
  }
  for (const auto& h : img.history)
    w.history(h);
}

}  // namespace

void writeFitsImage(const std::string& path, const FitsImage& img, FitsPixelType type) {
  if (img.nx <= 0 || img.ny <= 0 ||
      img.pixels.size() != static_cast<std::size_t>(img.nx) * img.ny) {
    throw InputError(path, "image size and pixel count disagree");
  }
  fits::writeAtomically(path, [&](fitsfile* f, fits::KeyWriter& w) {
    long naxes[4] = {img.nx, img.ny, 1, 1};
    const int naxis = img.frequency_hz > 0.0 ? 4 : 2;
    fits_create_img(f, type == FitsPixelType::Float32 ? FLOAT_IMG : DOUBLE_IMG, naxis, naxes,
                    &w.status());
    w.check("image");
    writeHeader(w, img);
    fits_write_date(f, &w.status());
    fits_write_img(f, TDOUBLE, 1, static_cast<LONGLONG>(img.pixels.size()),
                   const_cast<double*>(img.pixels.data()), &w.status());
    w.check("pixels");
  });
}

namespace {

std::string readString(fitsfile* f, const char* key) {
  char value[FLEN_VALUE] = {0};
  int status = 0;
  fits_read_key(f, TSTRING, key, value, nullptr, &status);
  return status == 0 ? std::string(value) : std::string();
}

std::optional<double> readDouble(fitsfile* f, const char* key) {
  double value = 0.0;
  int status = 0;
  fits_read_key(f, TDOUBLE, key, &value, nullptr, &status);
  if (status != 0)
    return std::nullopt;
  return value;
}

}  // namespace

FitsImage readFitsImage(const std::string& path) {
  fits::FilePtr f = fits::openForReading(path);
  fitsfile* raw = f.get();
  int status = 0, naxis = 0;
  long naxes[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  fits_get_img_dim(raw, &naxis, &status);
  // An empty primary HDU: the image is the first image extension (as fits_open_image finds it).
  int hdu_type = IMAGE_HDU;
  while (status == 0 && naxis == 0 && fits_movrel_hdu(raw, 1, &hdu_type, &status) == 0) {
    if (hdu_type == IMAGE_HDU)
      fits_get_img_dim(raw, &naxis, &status);
  }
  if (status != 0) {
    fits_clear_errmsg();
    throw InputError(path, "no image HDU found");
  }
  if (naxis < 2 || naxis > 8)
    throw InputError(path, "NAXIS must be 2 to 8 for a sky image");
  fits_get_img_size(raw, naxis, naxes, &status);
  for (int i = 2; i < naxis; ++i) {
    if (naxes[i] != 1) {
      throw InputError(path, "NAXIS" + std::to_string(i + 1) +
                                 " must be 1 (only one plane of a cube can be a sky model)");
    }
  }
  FitsImage img;
  img.nx = static_cast<int>(naxes[0]);
  img.ny = static_cast<int>(naxes[1]);
  fits::readSkyWcs(raw, path, img);
  img.bunit = readString(raw, "BUNIT");
  img.object = readString(raw, "OBJECT");
  img.telescope = readString(raw, "TELESCOP");
  img.date_obs = readString(raw, "DATE-OBS");
  const auto bmaj = readDouble(raw, "BMAJ"), bmin = readDouble(raw, "BMIN");
  if (bmaj && bmin) {
    img.beam = ImageBeam{*bmaj * kDeg, *bmin * kDeg, readDouble(raw, "BPA").value_or(0.0) * kDeg};
  }
  int nkeys = 0;
  fits_get_hdrspace(raw, &nkeys, nullptr, &status);
  for (int k = 1; k <= nkeys; ++k) {
    char card[FLEN_CARD] = {0};
    fits_read_record(raw, k, card, &status);
    const std::string c(card);
    if (c.rfind("HISTORY", 0) == 0)
      img.history.push_back(c.size() > 8 ? c.substr(8) : "");
  }
  img.pixels.assign(static_cast<std::size_t>(img.nx) * img.ny, 0.0);
  double nulval = std::nan("");
  int anynul = 0;
  fits_read_img(raw, TDOUBLE, 1, static_cast<LONGLONG>(img.pixels.size()), &nulval,
                img.pixels.data(), &anynul, &status);
  if (status != 0)
    throw InputError(path, "cannot read the pixels: " + fits::errorText(status));
  return img;
}

std::vector<double> fitsPixelsToWorld(const FitsImage& img, const std::vector<double>& xy) {
  wcsprm w;
  w.flag = -1;
  wcsini(1, 2, &w);
  std::snprintf(w.ctype[0], sizeof(w.ctype[0]), "RA---%s", img.projection.c_str());
  std::snprintf(w.ctype[1], sizeof(w.ctype[1]), "DEC--%s", img.projection.c_str());
  w.crval[0] = img.ref_ra_rad / kDeg;
  w.crval[1] = img.ref_dec_rad / kDeg;
  w.crpix[0] = img.ref_pixel_x + 1.0;
  w.crpix[1] = img.ref_pixel_y + 1.0;
  w.cdelt[0] = img.cell_x_rad / kDeg;
  w.cdelt[1] = img.cell_y_rad / kDeg;
  std::vector<double> world(xy.size(), 0.0);
  const int ncoord = static_cast<int>(xy.size() / 2);
  if (wcsset(&w) != 0) {
    wcsfree(&w);
    throw InputError("", "wcslib rejects the image WCS (projection " + img.projection + ")");
  }
  std::vector<double> pix(xy.size()), imgcrd(xy.size()), phi(ncoord), theta(ncoord);
  std::vector<int> stat(ncoord);
  for (std::size_t i = 0; i < xy.size(); ++i)
    pix[i] = xy[i] + 1.0;  // FITS pixels are 1-based
  if (ncoord > 0) {
    wcsp2s(&w, ncoord, 2, pix.data(), imgcrd.data(), phi.data(), theta.data(), world.data(),
           stat.data());
  }
  wcsfree(&w);
  for (double& v : world)
    v *= kDeg;
  return world;
}

}  // namespace apertura
