#include "core/io/uvfits_layout.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/io/uvfits_handle.h"
#include "core/io/uvfits_tables.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

constexpr double kSpeedOfLight = 299792458.0;
constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

std::string trimUpper(const char* s) {
  std::string out(s);
  out.erase(std::remove(out.begin(), out.end(), '\''), out.end());
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back())))
    out.pop_back();
  std::size_t b = 0;
  while (b < out.size() && std::isspace(static_cast<unsigned char>(out[b])))
    ++b;
  out = out.substr(b);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  return out;
}

bool startsWith(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

// Reads a keyword; false when it is absent, InputError when present but not a valid value.
bool keyDouble(UvfitsHandle& f, const std::string& key, double& out) {
  int status = 0;
  if (fits_read_key(f.get(), TDOUBLE, key.c_str(), &out, nullptr, &status) == KEY_NO_EXIST) {
    fits_clear_errmsg();
    return false;
  }
  f.check(status, "keyword " + key + " has an invalid value");
  if (!std::isfinite(out))
    throw InputError(f.path(), "keyword " + key + " is not finite");
  return true;
}

bool keyString(UvfitsHandle& f, const std::string& key, std::string& out) {
  char value[FLEN_VALUE] = {0};
  int status = 0;
  if (fits_read_key(f.get(), TSTRING, key.c_str(), value, nullptr, &status) == KEY_NO_EXIST) {
    fits_clear_errmsg();
    return false;
  }
  if (status != 0) {
    fits_clear_errmsg();
    return false;  // free-text keywords: a bad one is not worth refusing the file
  }
  out = trimUpper(value);
  return true;
}

long long requireInteger(UvfitsHandle& f, const std::string& key) {
  double v = 0;
  if (!keyDouble(f, key, v))
    throw InputError(f.path(), "missing keyword " + key);
  if (v != std::floor(v) || std::fabs(v) > 9.0e15) {
    throw InputError(f.path(), "keyword " + key + " = " + std::to_string(v) + " is not an integer");
  }
  return static_cast<long long>(v);
}

// EQUINOX (or the older EPOCH) is a number (2000.0) in AIPS files and a string ('J2000') in
// others; either way only J2000 and B1950 name a frame.
std::string frameFromEquinox(UvfitsHandle& f) {
  std::string text;
  if (!keyString(f, "EQUINOX", text) && !keyString(f, "EPOCH", text))
    return "";
  if (text == "J2000" || text == "B1950")
    return text;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str())
    return "";
  return v == 2000.0 ? "J2000" : v == 1950.0 ? "B1950" : "";
}

// a * b, or throws when it would overflow what any file could hold.
unsigned long long checkedMul(const UvfitsHandle& f, unsigned long long a, unsigned long long b) {
  if (a != 0 && b > std::numeric_limits<unsigned long long>::max() / a) {
    throw InputError(f.path(), "GCOUNT, PCOUNT and NAXISn describe more data than any file holds");
  }
  return a * b;
}

void readParams(UvfitsHandle& f, UvfitsLayout& L) {
  for (long i = 0; i < L.pcount; ++i) {
    const std::string n = std::to_string(i + 1);
    UvfitsLayout::Param p;
    if (!keyString(f, "PTYPE" + n, p.type)) {
      throw InputError(
          f.path(), "missing keyword PTYPE" + n + " (PCOUNT = " + std::to_string(L.pcount) + ")");
    }
    keyDouble(f, "PSCAL" + n, p.scale);
    keyDouble(f, "PZERO" + n, p.zero);
    const int idx = static_cast<int>(i);
    const std::string& t = p.type;
    if (startsWith(t, "UU") && L.uu < 0)
      L.uu = idx;
    if (startsWith(t, "VV") && L.vv < 0)
      L.vv = idx;
    if (startsWith(t, "WW") && L.ww < 0)
      L.ww = idx;
    if (t == "BASELINE")
      L.baseline = idx;
    if (t == "ANTENNA1")
      L.antenna1 = idx;
    if (t == "ANTENNA2")
      L.antenna2 = idx;
    if (t == "SOURCE")
      L.source = idx;
    if (t == "FREQSEL")
      L.freqsel = idx;
    if (t == "DATE" || t == "_DATE")
      L.date_params.push_back(idx);
    L.params.push_back(p);
  }
  const char* missing = L.uu < 0                ? "UU"
                        : L.vv < 0              ? "VV"
                        : L.ww < 0              ? "WW"
                        : L.date_params.empty() ? "DATE"
                        : (L.baseline < 0 && (L.antenna1 < 0 || L.antenna2 < 0))
                            ? "BASELINE (or ANTENNA1 and ANTENNA2)"
                            : nullptr;
  if (missing)
    throw InputError(f.path(), std::string("missing random parameter ") + missing);
}

void readAxes(UvfitsHandle& f, UvfitsLayout& L, long long naxis) {
  std::size_t stride = 1;
  for (long long a = 2; a <= naxis; ++a) {
    const std::string n = std::to_string(a);
    const long long len = requireInteger(f, "NAXIS" + n);
    if (len <= 0)
      throw InputError(f.path(), "NAXIS" + n + " = " + std::to_string(len) +
                                     " (expected a positive axis length)");
    std::string ctype;
    keyString(f, "CTYPE" + n, ctype);
    double crval = 0, cdelt = 1, crpix = 1;
    keyDouble(f, "CRVAL" + n, crval);
    keyDouble(f, "CDELT" + n, cdelt);
    keyDouble(f, "CRPIX" + n, crpix);
    const int axis = static_cast<int>(a - 2);
    if (ctype == "COMPLEX") {
      L.complex_axis = axis;
      L.ncomplex = static_cast<std::size_t>(len);
    } else if (ctype == "STOKES") {
      L.stokes_axis = axis;
      L.nstokes = static_cast<std::size_t>(len);
      for (long long i = 0; i < len; ++i) {
        const double v = crval + (static_cast<double>(i) + 1.0 - crpix) * cdelt;
        Correlation c;
        if (std::fabs(v - std::round(v)) > 1e-3 ||
            !correlationFromUvfitsStokes(static_cast<int>(std::lround(v)), c)) {
          throw InputError(f.path(), "STOKES axis value " + std::to_string(v) +
                                         " is not a known correlation type (expected 1..4 IQUV, "
                                         "-1..-4 RR LL RL LR, -5..-8 XX YY XY YX)");
        }
        L.correlations.push_back(c);
      }
    } else if (ctype == "FREQ") {
      L.freq_axis = axis;
      L.nchan = static_cast<std::size_t>(len);
      L.freq_crval = crval;
      L.freq_cdelt = cdelt;
      L.freq_crpix = crpix;
    } else if (ctype == "IF") {
      L.if_axis = axis;
      L.nif = static_cast<std::size_t>(len);
    } else if (startsWith(ctype, "RA")) {
      L.ra_rad = crval * kDegToRad;
    } else if (startsWith(ctype, "DEC")) {
      L.dec_rad = crval * kDegToRad;
    } else if (len > 1) {
      throw InputError(f.path(), "data axis " + n + " has CTYPE" + n + " = '" + ctype +
                                     "' and length " + std::to_string(len) +
                                     " (expected COMPLEX, STOKES, FREQ, IF, RA or DEC)");
    }
    L.axis_length.push_back(static_cast<long>(len));
    L.axis_stride.push_back(stride);
    stride = static_cast<std::size_t>(checkedMul(f, stride, static_cast<unsigned long long>(len)));
  }
  L.group_elements = stride;
  if (L.complex_axis < 0 || (L.ncomplex != 2 && L.ncomplex != 3)) {
    throw InputError(f.path(), "no COMPLEX axis of length 2 or 3 (real, imaginary, weight)");
  }
  if (L.stokes_axis < 0)
    throw InputError(f.path(), "no STOKES axis");
  if (L.freq_axis < 0)
    throw InputError(f.path(), "no FREQ axis");
  if (!(L.freq_crval > 0.0)) {
    throw InputError(f.path(), "FREQ axis reference value CRVAL = " + std::to_string(L.freq_crval) +
                                   " Hz (expected > 0)");
  }
  if (L.ncomplex == 2)
    L.warnings.push_back(L.path + ": no weights in the COMPLEX axis; using 1");
}

// The random groups must fit in the file: catches truncation and wrong GCOUNT/PCOUNT/NAXISn.
void checkSize(UvfitsHandle& f, const UvfitsLayout& L) {
  LONGLONG head = 0, data_start = 0, data_end = 0;
  int status = 0;
  fits_get_hduaddrll(f.get(), &head, &data_start, &data_end, &status);
  f.check(status, "cannot locate the primary data unit");
  const unsigned long long per_group = static_cast<unsigned long long>(L.pcount) + L.group_elements;
  const unsigned long long bytes =
      checkedMul(f, checkedMul(f, static_cast<unsigned long long>(L.gcount), per_group),
                 static_cast<unsigned long long>(std::abs(L.bitpix) / 8));
  std::error_code ec;
  const auto size = std::filesystem::file_size(L.path, ec);
  if (ec)
    throw InputError(L.path, "cannot determine the file size");
  if (static_cast<unsigned long long>(data_start) + bytes > size) {
    throw InputError(L.path,
                     "file is truncated or GCOUNT/PCOUNT are wrong: " + std::to_string(L.gcount) +
                         " groups of " + std::to_string(per_group) + " values need " +
                         std::to_string(bytes) + " bytes after the header, but only " +
                         std::to_string(size - static_cast<unsigned long long>(std::min<LONGLONG>(
                                                   data_start, static_cast<LONGLONG>(size)))) +
                         " remain");
  }
}

}  // namespace

void requireFitsFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw InputError(path, "no such file or directory");
  if (!fs::is_regular_file(path, ec))
    throw InputError(path, "not a regular file (UVFITS)");
  char head[9] = {0};
  std::ifstream in(path, std::ios::binary);
  in.read(head, 9);
  if (in.gcount() < 9 || std::memcmp(head, "SIMPLE  =", 9) != 0) {
    throw InputError(path, "not a FITS file (does not start with \"SIMPLE  =\")");
  }
  if (fs::file_size(path, ec) < 2880) {
    throw InputError(path, "file is truncated: shorter than one 2880-byte FITS header block");
  }
}

UvfitsLayout readUvfitsLayout(UvfitsHandle& f) {
  UvfitsLayout L;
  L.path = f.path();
  L.bitpix = static_cast<int>(requireInteger(f, "BITPIX"));
  if (L.bitpix != 8 && L.bitpix != 16 && L.bitpix != 32 && L.bitpix != 64 && L.bitpix != -32 &&
      L.bitpix != -64) {
    throw InputError(L.path, "BITPIX = " + std::to_string(L.bitpix) + " is not a FITS data type");
  }
  const long long naxis = requireInteger(f, "NAXIS");
  int groups = 0;
  int status = 0;
  if (fits_read_key(f.get(), TLOGICAL, "GROUPS", &groups, nullptr, &status) || !groups) {
    fits_clear_errmsg();
    throw InputError(L.path, "not a random-groups UVFITS file (GROUPS = T is missing)");
  }
  if (naxis < 2 || naxis > 999 || requireInteger(f, "NAXIS1") != 0) {
    throw InputError(L.path, "not a random-groups UVFITS file (expected NAXIS >= 2, NAXIS1 = 0)");
  }
  L.gcount = requireInteger(f, "GCOUNT");
  const long long pcount = requireInteger(f, "PCOUNT");
  if (L.gcount < 0 || pcount < 0 || pcount > 10000) {
    throw InputError(L.path, "GCOUNT = " + std::to_string(L.gcount) + ", PCOUNT = " +
                                 std::to_string(pcount) + " (expected non-negative counts)");
  }
  L.pcount = static_cast<long>(pcount);
  readAxes(f, L, naxis);
  readParams(f, L);
  checkSize(f, L);
  keyString(f, "OBJECT", L.object);
  if (!keyString(f, "TELESCOP", L.telescope))
    keyString(f, "INSTRUME", L.telescope);
  L.frame = frameFromEquinox(f);
  L.if_offset_hz.assign(L.nif, 0.0);
  L.if_channel_width_hz.assign(L.nif, L.freq_cdelt);
  L.if_total_bandwidth_hz.assign(L.nif, std::fabs(L.freq_cdelt) * static_cast<double>(L.nchan));
  readAipsTables(f, L);
  for (std::size_t i = 0; i < L.nif; ++i) {
    for (double hz : L.channelFrequencies(i)) {
      if (!std::isfinite(hz) || hz <= 0.0) {
        throw InputError(L.path, "IF " + std::to_string(i + 1) + " has a channel at " +
                                     std::to_string(hz) + " Hz (expected > 0)");
      }
    }
  }
  return L;
}

std::vector<double> UvfitsLayout::channelFrequencies(std::size_t if_index) const {
  std::vector<double> f(nchan);
  for (std::size_t c = 0; c < nchan; ++c) {
    f[c] = freq_crval + (static_cast<double>(c) + 1.0 - freq_crpix) * freq_cdelt +
           if_offset_hz[if_index];
  }
  return f;
}

std::size_t UvfitsLayout::offset(std::size_t k, std::size_t p, std::size_t c, std::size_t i) const {
  std::size_t o = k * axis_stride[static_cast<std::size_t>(complex_axis)] +
                  p * axis_stride[static_cast<std::size_t>(stokes_axis)] +
                  c * axis_stride[static_cast<std::size_t>(freq_axis)];
  if (if_axis >= 0)
    o += i * axis_stride[static_cast<std::size_t>(if_axis)];
  return o;
}

GroupParams decodeGroupParams(const UvfitsLayout& L, const double* raw, long long group) {
  auto value = [&](int i) {
    const auto& p = L.params[static_cast<std::size_t>(i)];
    return raw[i] * p.scale + p.zero;
  };
  GroupParams g;
  g.u_m = value(L.uu) * kSpeedOfLight;
  g.v_m = value(L.vv) * kSpeedOfLight;
  g.w_m = value(L.ww) * kSpeedOfLight;
  double jd = 0;
  for (int d : L.date_params)
    jd += value(d);
  g.time_mjd_s = (jd - 2400000.5) * 86400.0;
  if (L.freqsel >= 0) {
    const double s = value(L.freqsel);
    g.freqsel = std::isfinite(s) && s >= 1 && s < 1e6 ? static_cast<int>(std::lround(s)) : 1;
  }
  if (L.source >= 0) {
    const double s = value(L.source);
    g.source = std::isfinite(s) && s >= 1 && s < 1e6 ? static_cast<int>(std::lround(s)) : 1;
  }
  long long a1 = 0, a2 = 0;
  if (L.antenna1 >= 0 && L.antenna2 >= 0) {
    const double x = value(L.antenna1), y = value(L.antenna2);
    if (std::isfinite(x) && std::isfinite(y) && std::fabs(x) < 1e6 && std::fabs(y) < 1e6) {
      a1 = std::llround(x);
      a2 = std::llround(y);
    }
  } else {
    const double b = value(L.baseline);
    if (std::isfinite(b) && b >= 0.0 && b < 1e9) {
      // 256 a1 + a2 + (subarray - 1) / 100; beyond 255 antennas: 2048 a1 + a2 + 65536.
      long long ibl = static_cast<long long>(std::floor(b + 1e-6));
      const long long base = ibl >= 65536 ? 2048 : 256;
      if (ibl >= 65536)
        ibl -= 65536;
      a1 = ibl / base;
      a2 = ibl % base;
    }
  }
  if (a1 < 1 || a2 < 1) {
    throw InputError(L.path, "group " + std::to_string(group + 1) +
                                 " has a baseline that does not encode two antennas (BASELINE "
                                 "or ANTENNA1/ANTENNA2 random parameter)");
  }
  g.antenna1 = static_cast<int>(a1 - 1);
  g.antenna2 = static_cast<int>(a2 - 1);
  return g;
}

}  // namespace apertura

namespace apertura {

std::vector<SpectralWindowInfo> UvfitsLayout::spectralWindows() const {
  std::vector<SpectralWindowInfo> out;
  for (std::size_t i = 0; i < nif; ++i) {
    const auto f = channelFrequencies(i);
    SpectralWindowInfo w;
    w.id = static_cast<int>(i);
    w.num_channels = static_cast<int>(nchan);
    w.first_channel_hz = f.front();
    w.last_channel_hz = f.back();
    w.ref_frequency_hz = freq_crval + if_offset_hz[i];
    w.channel_width_hz = if_channel_width_hz[i];
    w.total_bandwidth_hz = if_total_bandwidth_hz[i];
    out.push_back(w);
  }
  return out;
}

std::vector<FieldInfo> UvfitsLayout::fields(int count) const {
  std::vector<FieldInfo> out;
  if (!sources.empty()) {
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const Source& src = sources[i];
      out.push_back({static_cast<int>(i), src.name, src.ra_rad, src.dec_rad, src.frame});
    }
    return out;
  }
  for (int f = 0; f < std::max(1, count); ++f)
    out.push_back({f, object, ra_rad, dec_rad, frame});
  return out;
}

int UvfitsLayout::fieldIndex(int source_id) const {
  if (sources.empty())
    return source_id - 1;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].id == source_id)
      return static_cast<int>(i);
  }
  throw InputError(path, "a group's SOURCE parameter is " + std::to_string(source_id) +
                             ", which the AIPS SU table does not list (ID. NO. column)");
}

void UvfitsLayout::selectFrequencySetup(const std::set<int>& values) {
  if (values.size() > 1) {
    std::string list;
    for (int v : values)
      list += (list.empty() ? "" : ", ") + std::to_string(v);
    throw InputError(path, "groups use several frequency setups (FREQSEL " + list +
                               "); image one at a time (e.g. split the file with AIPS UVCOP)");
  }
  const int id = values.empty() ? 1 : *values.begin();
  if (frequency_setups.empty()) {
    if (id != 1) {
      throw InputError(path, "groups use FREQSEL " + std::to_string(id) +
                                 " but there is no AIPS FQ table to define it");
    }
    return;
  }
  for (const FrequencySetup& f : frequency_setups) {
    if (f.id != id)
      continue;
    if_offset_hz = f.offset_hz;
    if (!f.channel_width_hz.empty())
      if_channel_width_hz = f.channel_width_hz;
    if (!f.total_bandwidth_hz.empty())
      if_total_bandwidth_hz = f.total_bandwidth_hz;
    return;
  }
  throw InputError(path, "groups use FREQSEL " + std::to_string(id) +
                             ", which the AIPS FQ table does not list (FRQSEL column)");
}

}  // namespace apertura
