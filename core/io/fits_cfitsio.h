#pragma once

// Internal to core/io: the cfitsio plumbing the FITS image, cube and plane readers and writers
// share.
#include <fitsio.h>

#include <functional>
#include <memory>
#include <string>

#include "core/io/fits_image_io.h"

namespace apertura::fits {

std::string errorText(int status);

struct Closer {
  void operator()(fitsfile* f) const {
    int status = 0;
    fits_close_file(f, &status);
  }
};
using FilePtr = std::unique_ptr<fitsfile, Closer>;

// Opens an existing FITS file read-only, taking the name literally (no cfitsio extended syntax,
// so '(' or '[' in a name are fine). InputError naming the path when it is missing, not a
// regular file, or not FITS.
FilePtr openForReading(const std::string& path);

// Writes keywords and HISTORY cards into the current HDU; any cfitsio error becomes an
// InputError naming the user's file (not the temporary one) and what was being written. A null
// comment writes none (and keeps the comment of a keyword that is already there).
class KeyWriter {
 public:
  KeyWriter(fitsfile* f, std::string path) : f_(f), path_(std::move(path)) {}
  // Doubles keep 15 significant digits ("G" format: Julian dates, ITRF metres, frequencies).
  void key(const char* name, double value, const char* comment = nullptr);
  void key(const char* name, int value, const char* comment = nullptr);
  void key(const char* name, const std::string& value, const char* comment = nullptr);
  void flag(const char* name, bool value, const char* comment = nullptr);
  void history(const std::string& line);
  void check(const std::string& what);
  int& status() { return status_; }

 private:
  fitsfile* f_;
  std::string path_;
  int status_ = 0;
};

// The keywords every Apertura image has: brightness unit, object, telescope, date, and the
// celestial axes 1 and 2 (RA/DEC in the image's projection, J2000).
void writeSkyKeywords(KeyWriter& w, const FitsImage& img);

// Creates a temporary sibling of `path`, lets `fill` write the HDUs, closes it and renames it
// over `path`, so the file appears complete or not at all; the temporary is removed on errors.
void writeAtomically(const std::string& path,
                     const std::function<void(fitsfile*, KeyWriter&)>& fill);

}  // namespace apertura::fits
