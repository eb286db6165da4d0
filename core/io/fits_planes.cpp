#include "core/io/fits_planes.h"

#include <fitsio.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "core/io/fits_cfitsio.h"
#include "core/util/input_error.h"

namespace apertura {

namespace {

fits::FilePtr openFits(const std::string& path) {
  return fits::openForReading(path);
}

}  // namespace

int fitsImagePlanes(const std::string& path) {
  const fits::FilePtr file = openFits(path);
  fitsfile* raw = file.get();
  int status = 0;
  int naxis = 0;
  long naxes[3] = {1, 1, 1};
  fits_get_img_dim(raw, &naxis, &status);
  if (status == 0 && naxis >= 3)
    fits_get_img_size(raw, 3, naxes, &status);
  if (status != 0 || naxis < 2)
    throw InputError(path, "the primary HDU holds no image of at least 2 axes");
  return naxis >= 3 ? static_cast<int>(naxes[2]) : 1;
}

std::vector<double> fitsListedPlaneFrequencies(const std::string& path, int planes) {
  const fits::FilePtr file = openFits(path);
  int status = 0, keys = 0;
  fits_get_hdrspace(file.get(), &keys, nullptr, &status);
  if (status != 0 || planes < 1)
    return {};
  std::vector<double> hz(static_cast<std::size_t>(planes), 0.0);
  int found = 0;
  char card[FLEN_CARD];
  for (int i = 1; i <= keys; ++i) {
    if (fits_read_record(file.get(), i, card, &status) != 0)
      return {};
    int plane = 0;
    double f = 0.0;
    if (std::sscanf(card, "HISTORY Apertura plane %d frequency %lf Hz", &plane, &f) == 2 &&
        plane >= 1 && plane <= planes && hz[static_cast<std::size_t>(plane - 1)] == 0.0) {
      hz[static_cast<std::size_t>(plane - 1)] = f;
      ++found;
    }
  }
  if (found != planes)
    return {};
  return hz;
}

}  // namespace apertura
