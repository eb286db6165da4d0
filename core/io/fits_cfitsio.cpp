#include "core/io/fits_cfitsio.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/util/disk_space.h"
#include "core/util/input_error.h"
#include "core/util/sky_format.h"
#include "core/util/temporary_names.h"

namespace apertura::fits {
namespace {

constexpr double kDeg = M_PI / 180.0;

}  // namespace

std::string errorText(int status) {
  char text[FLEN_STATUS] = {0};
  fits_get_errstatus(status, text);
  return text;
}

void KeyWriter::key(const char* name, double value, const char* comment) {
  // Negative decimals: that many significant digits; 15 is what a double holds reliably.
  constexpr int kSignificantDigits = -15;
  fits_update_key_dbl(f_, name, value, kSignificantDigits, comment, &status_);
  check(name);
}

void KeyWriter::key(const char* name, int value, const char* comment) {
  fits_update_key(f_, TINT, name, &value, comment, &status_);
  check(name);
}

void KeyWriter::key(const char* name, const std::string& value, const char* comment) {
  fits_update_key(f_, TSTRING, name, const_cast<char*>(value.c_str()), comment, &status_);
  check(name);
}

void KeyWriter::flag(const char* name, bool value, const char* comment) {
  int v = value ? 1 : 0;
  fits_update_key(f_, TLOGICAL, name, &v, comment, &status_);
  check(name);
}

void KeyWriter::history(const std::string& line) {
  fits_write_history(f_, line.c_str(), &status_);
  check("HISTORY");
}

void KeyWriter::check(const std::string& what) {
  if (status_ == 0)
    return;
  const std::string full = noSpaceHint(path_);
  if (!full.empty())
    throw ResourceError(path_, "cannot write FITS " + what + ": " + full);
  throw InputError(path_, "cannot write FITS " + what + ": " + errorText(status_));
}

void writeSkyKeywords(KeyWriter& w, const FitsImage& img) {
  w.key("BUNIT", img.bunit, "Brightness unit");
  w.key("BTYPE", std::string("Intensity"), "");
  if (!img.object.empty())
    w.key("OBJECT", img.object, "");
  if (!img.telescope.empty())
    w.key("TELESCOP", img.telescope, "");
  if (!img.date_obs.empty())
    w.key("DATE-OBS", img.date_obs, "Start of the observation (UTC)");
  w.key("ORIGIN", std::string("Apertura"), "");
  w.key("EQUINOX", 2000.0, "J2000");
  w.key("RADESYS", std::string("FK5"), "");
  w.key("CTYPE1", "RA---" + img.projection, "");
  w.key("CRVAL1", rightAscensionDegrees(img.ref_ra_rad), "deg");
  w.key("CDELT1", img.cell_x_rad / kDeg, "deg");
  w.key("CRPIX1", img.ref_pixel_x + 1.0, "");
  w.key("CUNIT1", std::string("deg"), "");
  w.key("CTYPE2", "DEC--" + img.projection, "");
  w.key("CRVAL2", img.ref_dec_rad / kDeg, "deg");
  w.key("CDELT2", img.cell_y_rad / kDeg, "deg");
  w.key("CRPIX2", img.ref_pixel_y + 1.0, "");
  w.key("CUNIT2", std::string("deg"), "");
}

FilePtr openForReading(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(path, "no such file or directory");
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(path, "is not a regular file; expected a FITS image");
  fitsfile* raw = nullptr;
  int status = 0;
  fits_open_diskfile(&raw, path.c_str(), READONLY, &status);
  if (status != 0 || raw == nullptr) {
    const std::string text = errorText(status);
    fits_clear_errmsg();
    throw InputError(path, "not a readable FITS file (" + text + ")");
  }
  return FilePtr(raw);
}

void writeAtomically(const std::string& path,
                     const std::function<void(fitsfile*, KeyWriter&)>& fill) {
  const std::string tmp = temporarySiblingPath(path);
  try {
    fitsfile* raw = nullptr;
    int status = 0;
    // The disk-file variant takes the name literally: '(', '[' or '!' in a folder name are legal.
    fits_create_diskfile(&raw, tmp.c_str(), &status);
    if (status != 0) {
      const std::string full = noSpaceHint(path);
      if (!full.empty())
        throw ResourceError(path, "cannot create FITS file: " + full);
      throw InputError(path, "cannot create FITS file: " + errorText(status));
    }
    FilePtr f(raw);
    KeyWriter w(raw, path);
    fill(raw, w);
    fits_close_file(f.release(), &w.status());
    w.check("file (close)");
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw InputError(path, "could not replace the file: " + ec.message());
  }
}

}  // namespace apertura::fits
