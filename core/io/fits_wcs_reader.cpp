#include "core/io/fits_wcs_reader.h"

#include <wcslib/wcs.h>
#include <wcslib/wcshdr.h>

#include <cmath>
#include <vector>

#include "core/io/fits_cfitsio.h"
#include "core/util/input_error.h"

namespace apertura::fits {
namespace {

constexpr double kDeg = M_PI / 180.0;

struct WcsHolder {
  wcsprm* wcs = nullptr;
  int nwcs = 0;
  ~WcsHolder() {
    if (wcs)
      wcsvfree(&nwcs, &wcs);
  }
};

}  // namespace

SpectralAxis readSkyWcs(fitsfile* f, const std::string& path, FitsImage& img) {
  char* header = nullptr;
  int nkeys = 0, status = 0;
  fits_hdr2str(f, 1, nullptr, 0, &header, &nkeys, &status);
  if (status != 0)
    throw InputError(path, "cannot read the FITS header: " + errorText(status));
  WcsHolder h;
  int nreject = 0;
  const int err = wcspih(header, nkeys, WCSHDR_all, 0, &nreject, &h.nwcs, &h.wcs);
  fits_free_memory(header, &status);
  if (err != 0 || h.nwcs < 1)
    throw InputError(path, "the FITS header has no usable WCS");
  wcsprm& w = h.wcs[0];
  const int n = w.naxis;
  const auto at = [n](int i, int j) { return std::size_t(i) * std::size_t(n) + std::size_t(j); };
  if (w.altlin & 2) {
    // CDi_j given for the sky axes only (the others in CDELTi, or degenerate): the standard's
    // zero default would make the matrix singular, so such an axis takes its CDELTi (1 if absent),
    // as common readers do.
    for (int i = 0; i < n; ++i) {
      bool empty = true;
      for (int j = 0; j < n; ++j)
        empty = empty && w.cd[at(i, j)] == 0.0 && w.cd[at(j, i)] == 0.0;
      if (empty)
        w.cd[at(i, i)] = w.cdelt[i];
    }
  }
  if (wcsset(&w) != 0)
    throw InputError(path, "wcslib rejects the header's WCS (CTYPE/CRVAL/CDELT)");
  if (w.lng != 0 || w.lat != 1) {
    throw InputError(path,
                     "expected RA on axis 1 and Dec on axis 2 (CTYPE1 = RA---xxx, "
                     "CTYPE2 = DEC--xxx)");
  }
  // Pixel-to-intermediate matrix: CDi_j when the header uses CD, else CDELTi * PCi_j.
  std::vector<double> m(at(n, 0));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      m[at(i, j)] = (w.altlin & 2) ? w.cd[at(i, j)] : w.cdelt[i] * w.pc[at(i, j)];
  }
  const double scale = std::fabs(m[0]) + std::fabs(m[at(1, 1)]);
  if (std::fabs(m[at(0, 1)]) > 1e-9 * scale || std::fabs(m[at(1, 0)]) > 1e-9 * scale)
    throw InputError(path, "rotated pixel grids (off-diagonal PC/CD) are not supported");
  img.cell_x_rad = m[0] * kDeg;
  img.cell_y_rad = m[at(1, 1)] * kDeg;
  img.ref_pixel_x = w.crpix[0] - 1.0;
  img.ref_pixel_y = w.crpix[1] - 1.0;
  img.ref_ra_rad = w.crval[0] * kDeg;
  img.ref_dec_rad = w.crval[1] * kDeg;
  img.projection = std::string(w.ctype[0]).substr(5, 3);
  SpectralAxis spectral;
  if (w.spec < 0)
    return spectral;
  spectral.axis = w.spec;
  spectral.ctype = std::string(w.ctype[w.spec]).substr(0, 4);
  spectral.crval = w.crval[w.spec];
  spectral.crpix = w.crpix[w.spec];
  spectral.cdelt = m[at(w.spec, w.spec)];
  if (spectral.ctype == "FREQ") {
    img.frequency_hz = spectral.crval + (1.0 - spectral.crpix) * spectral.cdelt;  // of pixel 1
    img.bandwidth_hz = std::fabs(spectral.cdelt);  // one plane: its width
  }
  return spectral;
}

}  // namespace apertura::fits
