#include "tests/io/uvfits_fixture.h"

#include <fitsio.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <vector>

namespace apertura::testing {
namespace {

constexpr double kUvScale = 1.0e-9;  // PSCAL of UU/VV/WW: raw values are in nanoseconds

void check(int status, const char* what) {
  if (status != 0) {
    char text[FLEN_STATUS];
    fits_get_errstatus(status, text);
    throw std::runtime_error(std::string("uvfits fixture: ") + what + ": " + text);
  }
}

void key(fitsfile* f, const char* name, double v) {
  int status = 0;
  fits_write_key(f, TDOUBLE, name, &v, nullptr, &status);
  check(status, name);
}

void key(fitsfile* f, const char* name, const char* v) {
  int status = 0;
  fits_write_key(f, TSTRING, name, const_cast<char*>(v), nullptr, &status);
  check(status, name);
}

void axis(fitsfile* f, int n, const char* type, double crval, double cdelt, double crpix) {
  char k[16];
  std::snprintf(k, sizeof k, "CTYPE%d", n);
  key(f, k, type);
  std::snprintf(k, sizeof k, "CRVAL%d", n);
  key(f, k, crval);
  std::snprintf(k, sizeof k, "CDELT%d", n);
  key(f, k, cdelt);
  std::snprintf(k, sizeof k, "CRPIX%d", n);
  key(f, k, crpix);
}

void param(fitsfile* f, int n, const char* type, double scale, double zero) {
  char k[16];
  std::snprintf(k, sizeof k, "PTYPE%d", n);
  key(f, k, type);
  std::snprintf(k, sizeof k, "PSCAL%d", n);
  key(f, k, scale);
  std::snprintf(k, sizeof k, "PZERO%d", n);
  key(f, k, zero);
}

void writeFq(fitsfile* f, bool second_setup) {
  char* ttype[] = {const_cast<char*>("FRQSEL"), const_cast<char*>("IF FREQ"),
                   const_cast<char*>("CH WIDTH"), const_cast<char*>("TOTAL BANDWIDTH"),
                   const_cast<char*>("SIDEBAND")};
  char* tform[] = {const_cast<char*>("1J"), const_cast<char*>("2D"), const_cast<char*>("2E"),
                   const_cast<char*>("2E"), const_cast<char*>("2J")};
  int status = 0;
  const int rows = second_setup ? 2 : 1;
  fits_create_tbl(f, BINARY_TBL, rows, 5, ttype, tform, nullptr, "AIPS FQ", &status);
  for (int row = 1; row <= rows; ++row) {
    int frqsel = row, sideband[2] = {1, 1};
    const double shift = row == 2 ? UvfitsFixture::kSetup2OffsetHz : 0.0;
    double offsets[2] = {shift, shift + UvfitsFixture::kIfOffsetHz};
    float width[2] = {1.0e6f, 1.0e6f}, total[2] = {3.0e6f, 3.0e6f};
    fits_write_col(f, TINT, 1, row, 1, 1, &frqsel, &status);
    fits_write_col(f, TDOUBLE, 2, row, 1, 2, offsets, &status);
    fits_write_col(f, TFLOAT, 3, row, 1, 2, width, &status);
    fits_write_col(f, TFLOAT, 4, row, 1, 2, total, &status);
    fits_write_col(f, TINT, 5, row, 1, 2, sideband, &status);
  }
  check(status, "AIPS FQ");
}

void writeAn(fitsfile* f) {
  char* ttype[] = {const_cast<char*>("ANNAME"), const_cast<char*>("NOSTA"),
                   const_cast<char*>("DIAMETER")};
  char* tform[] = {const_cast<char*>("8A"), const_cast<char*>("1J"), const_cast<char*>("1E")};
  int status = 0;
  fits_create_tbl(f, BINARY_TBL, UvfitsFixture::kAntennas, 3, ttype, tform, nullptr, "AIPS AN",
                  &status);
  key(f, "ARRNAM", "TESTVLBI");
  for (int a = 0; a < UvfitsFixture::kAntennas; ++a) {
    char name[9];
    std::snprintf(name, sizeof name, "AN%d", a + 1);
    char* names[] = {name};
    int nosta = a + 1;
    float diameter = static_cast<float>(UvfitsFixture::kDishDiameterM);
    fits_write_col(f, TSTRING, 1, a + 1, 1, 1, names, &status);
    fits_write_col(f, TINT, 2, a + 1, 1, 1, &nosta, &status);
    fits_write_col(f, TFLOAT, 3, a + 1, 1, 1, &diameter, &status);
  }
  check(status, "AIPS AN");
}

// Rows: ID 7 (B, J2000) then ID 3 (A, J2000), as AIPS writes them in no particular order.
void writeSu(fitsfile* f) {
  char* ttype[] = {const_cast<char*>("ID. NO."), const_cast<char*>("SOURCE"),
                   const_cast<char*>("RAEPO"), const_cast<char*>("DECEPO"),
                   const_cast<char*>("EPOCH")};
  char* tform[] = {const_cast<char*>("1J"), const_cast<char*>("16A"), const_cast<char*>("1D"),
                   const_cast<char*>("1D"), const_cast<char*>("1D")};
  int status = 0;
  fits_create_tbl(f, BINARY_TBL, 2, 5, ttype, tform, nullptr, "AIPS SU", &status);
  int ids[2] = {7, 3};
  char name_b[] = "SRC_B", name_a[] = "SRC_A";
  char* names[2] = {name_b, name_a};
  double ra[2] = {UvfitsFixture::kSourceBRaDeg, UvfitsFixture::kSourceARaDeg};
  double dec[2] = {UvfitsFixture::kSourceBDecDeg, UvfitsFixture::kSourceADecDeg};
  double epoch[2] = {2000.0, 2000.0};
  fits_write_col(f, TINT, 1, 1, 1, 2, ids, &status);
  fits_write_col(f, TSTRING, 2, 1, 1, 2, names, &status);
  fits_write_col(f, TDOUBLE, 3, 1, 1, 2, ra, &status);
  fits_write_col(f, TDOUBLE, 4, 1, 1, 2, dec, &status);
  fits_write_col(f, TDOUBLE, 5, 1, 1, 2, epoch, &status);
  check(status, "AIPS SU");
}

}  // namespace

int UvfitsFixture::sourceId(int g, const Options& o) {
  if (o.unknown_source && g == 5)
    return 5;
  return g < 3 ? 3 : 7;
}

int UvfitsFixture::antenna1(int g) {
  static const int a1[kGroups] = {1, 1, 2, 2, 1, 3};
  return a1[g];
}

int UvfitsFixture::antenna2(int g, const Options& o) {
  static const int a2[kGroups] = {2, 3, 3, 2, 2, 1};
  return (o.wide_array && g == 5) ? 300 : a2[g];
}

double UvfitsFixture::uMetres(int g) {
  return 1000.0 * (g + 1);
}
double UvfitsFixture::vMetres(int g) {
  return -500.0 * g + 250.0;
}
double UvfitsFixture::wMetres(int g) {
  return 10.0 * g;
}
double UvfitsFixture::timeOffsetS(int g) {
  return 3600.0 + 30.0 * g;
}

std::complex<float> UvfitsFixture::value(int g, int i, int c, int k) {
  if (g == 4 && i == 1 && c == 2 && k == 0)
    return {std::numeric_limits<float>::quiet_NaN(), 0.0f};
  if (g == 2 && i == 0 && c == 1 && k == 2)
    return {0.0f, 0.0f};
  return {
      1.0f + static_cast<float>(g) + 0.25f * static_cast<float>(i) + 0.125f * static_cast<float>(c),
      static_cast<float>(k) - 1.5f};
}

float UvfitsFixture::weight(int g, int i, int c, int k, const Options& o) {
  if (o.all_flagged)
    return -1.0f;
  if (g == 1 && i == 0 && c == 1 && k == 1)
    return -2.0f;  // flagged LL
  return 1.0f + static_cast<float>(k);
}

double UvfitsFixture::frequencyHz(int i, int c) {
  return kRefFrequencyHz + c * kChannelWidthHz + i * kIfOffsetHz;
}

std::string UvfitsFixture::write(const std::string& path, const Options& o) {
  std::remove(path.c_str());
  fitsfile* f = nullptr;
  int status = 0;
  fits_create_diskfile(&f, path.c_str(), &status);
  check(status, "create");
  long naxes[6] = {3, kStokes, kChannels, kIfs, 1, 1};  // NAXIS2..NAXIS7; NAXIS1 = 0
  long all_axes[7] = {0, naxes[0], naxes[1], naxes[2], naxes[3], naxes[4], naxes[5]};
  const int pcount =
      (o.antenna_params ? 8 : 7) + (o.multi_source ? 1 : 0) + (o.freqsel > 0 ? 1 : 0);
  fits_write_grphdr(f, 1, o.integer_data ? SHORT_IMG : FLOAT_IMG, 7, all_axes, pcount, kGroups, 1,
                    &status);
  check(status, "group header");
  key(f, "OBJECT", "TESTSRC");
  key(f, "TELESCOP", "TESTVLBI");
  key(f, "EQUINOX", 2000.0);
  axis(f, 2, "COMPLEX", 1, 1, 1);
  axis(f, 3, "STOKES", -1, -1, 1);
  axis(f, 4, "FREQ", kRefFrequencyHz, kChannelWidthHz, 1);
  axis(f, 5, "IF", 1, 1, 1);
  axis(f, 6, "RA", kRaDeg, 1, 1);
  axis(f, 7, "DEC", kDecDeg, 1, 1);
  param(f, 1, "UU---SIN", kUvScale, 0);
  param(f, 2, "VV---SIN", kUvScale, 0);
  param(f, 3, "WW---SIN", kUvScale, 0);
  int next = 4;
  if (o.antenna_params) {
    param(f, next++, "ANTENNA1", 1, 0);
    param(f, next++, "ANTENNA2", 1, 0);
  } else {
    param(f, next++, "BASELINE", 1, 0);
  }
  param(f, next++, "DATE", 1, kJdStart);
  param(f, next++, "DATE", 1, 0);
  param(f, next++, "INTTIM", 1, 0);
  if (o.multi_source)
    param(f, next++, "SOURCE", 1, 0);
  if (o.freqsel > 0)
    param(f, next++, "FREQSEL", 1, 0);
  for (int g = 0; g < kGroups; ++g) {
    std::vector<float> p;
    double uvw[3] = {uMetres(g), vMetres(g), wMetres(g)};
    if (o.impossible_geometry && g <= 2) {
      const double bad[3][3] = {{std::nan(""), uvw[1], uvw[2]}, {1e20, uvw[1], uvw[2]}, {0, 0, 0}};
      std::copy(bad[g], bad[g] + 3, uvw);
    }
    for (double x : uvw)
      p.push_back(static_cast<float>(x / kSpeedOfLight / kUvScale));
    const int a1 = antenna1(g), a2 = antenna2(g, o);
    if (o.antenna_params) {
      p.push_back(static_cast<float>(a1));
      p.push_back(static_cast<float>(a2));
    } else if (a2 > 255) {
      p.push_back(static_cast<float>(2048 * a1 + a2 + 65536));
    } else {
      p.push_back(static_cast<float>(256 * a1 + a2));
    }
    p.push_back(0.0f);
    p.push_back(static_cast<float>(timeOffsetS(g) / 86400.0));
    p.push_back(10.0f);
    if (o.multi_source)
      p.push_back(static_cast<float>(sourceId(g, o)));
    if (o.freqsel > 0)
      p.push_back(static_cast<float>(o.mixed_freqsel && g == 5 ? 1 : o.freqsel));
    fits_write_grppar_flt(f, g + 1, 1, pcount, p.data(), &status);
    std::vector<float> d;
    for (int i = 0; i < kIfs; ++i) {
      for (int c = 0; c < kChannels; ++c) {
        for (int k = 0; k < kStokes; ++k) {
          const auto v = value(g, i, c, k);
          d.push_back(v.real());
          d.push_back(v.imag());
          d.push_back(weight(g, i, c, k, o));
        }
      }
    }
    fits_write_img_flt(f, g + 1, 1, static_cast<LONGLONG>(d.size()), d.data(), &status);
    check(status, "group data");
  }
  if (o.with_fq)
    writeFq(f, o.second_setup);
  if (o.with_an)
    writeAn(f);
  if (o.multi_source)
    writeSu(f);
  fits_close_file(f, &status);
  check(status, "close");
  return path;
}

}  // namespace apertura::testing
