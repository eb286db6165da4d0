#include "core/io/uvfits_writer.h"

#include <fitsio.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "core/io/fits_cfitsio.h"
#include "core/io/replaceable_output.h"
#include "core/util/disk_space.h"
#include "core/util/input_error.h"
#include "core/util/sky_format.h"
#include "core/util/temporary_names.h"

namespace apertura {
namespace {

namespace fs = std::filesystem;

constexpr double kSpeedOfLight = 299792458.0;
constexpr double kRadToDeg = 180.0 / M_PI;
constexpr int kCorrelations = 2;  // XX YY or RR LL, as the MeasurementSetWriter writes them
constexpr int kParams = 7;        // UU VV WW BASELINE DATE DATE INTTIM

// IAU 1982 GMST (degrees) at 0h UT1 of an MJD day: the AN table's GSTIA0.
double gmstAtMidnightDeg(double mjd_day) {
  const double t = (mjd_day + 2400000.5 - 2451545.0) / 36525.0;
  const double seconds = 24110.54841 + t * (8640184.812866 + t * (0.093104 - 6.2e-6 * t));
  double deg = std::fmod(seconds / 240.0, 360.0);
  return deg < 0.0 ? deg + 360.0 : deg;
}

int mountCode(std::string mount) {
  std::transform(mount.begin(), mount.end(), mount.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (mount.rfind("EQUATORIAL", 0) == 0)
    return 1;
  if (mount.rfind("X-Y", 0) == 0)
    return 3;
  if (mount.rfind("NASMYTH", 0) == 0 || mount.rfind("NAISMITH", 0) == 0)
    return 4;
  return 0;  // ALT-AZ
}

}  // namespace

bool hasUvfitsExtension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".uvfits" || ext == ".uvf" || ext == ".fits" || ext == ".fit";
}

struct UvfitsWriter::Impl {
  std::string path, temp;
  MsLayout layout;
  UvfitsWriteOptions options;
  fitsfile* file = nullptr;
  std::size_t nif = 0, nchan = 0, group_elements = 0;
  double jd0 = 0.0;  // Julian date of 0h UTC on the first day (PZERO of the first DATE)
  bool wide_baselines = false;
  std::uint64_t written = 0;
  bool closed = false;

  // The groups of the rows being assembled, spectral window by spectral window.
  std::size_t next_spw = 0, rows = 0;
  std::vector<double> params, data, times;
  std::vector<int> ant1, ant2;

  void check(int status, const std::string& what) const {
    if (status == 0)
      return;
    const std::string text = fits::errorText(status);
    fits_clear_errmsg();
    const std::string full = noSpaceHint(path);
    if (!full.empty())
      throw ResourceError(path, what + " (" + full + ")");
    throw InputError(path, what + " (cfitsio: " + text + ")");
  }

  void validate() const {
    const auto& spws = layout.spectral_windows;
    if (layout.fields.empty())
      throw InputError(path, "UVFITS output needs a field (phase centre)");
    if (layout.antennas.size() < 2)
      throw InputError(path, "UVFITS output needs at least 2 antennas");
    if (spws.empty() || spws.front().channel_frequencies_hz.empty())
      throw InputError(path, "UVFITS output needs a spectral window with channels");
    const double width = spws.front().channel_width_hz;
    for (std::size_t s = 0; s < spws.size(); ++s) {
      const auto& f = spws[s].channel_frequencies_hz;
      if (f.size() != spws.front().channel_frequencies_hz.size() ||
          std::fabs(spws[s].channel_width_hz - width) > 1e-9 * std::fabs(width)) {
        throw InputError(path,
                         "UVFITS puts all spectral windows on one IF axis, so they need the same "
                         "number of channels and the same channel width (spectral window " +
                             std::to_string(s) + " differs); write a Measurement Set instead");
      }
      for (std::size_t c = 1; c < f.size(); ++c) {
        if (std::fabs(f[c] - f[c - 1] - width) > 1e-6 * std::fabs(width)) {
          throw InputError(path, "spectral window " + std::to_string(s) +
                                     " has unevenly spaced channels; a UVFITS FREQ axis is linear");
        }
      }
    }
    if (layout.antennas.size() > 2047)
      throw InputError(path, "UVFITS BASELINE numbers encode at most 2047 antennas");
  }

  void writePrimaryHeader() {
    const auto& spw0 = layout.spectral_windows.front();
    const MsFieldInfo& field = layout.fields.front();
    long naxes[7] = {0, 3, kCorrelations, static_cast<long>(nchan), static_cast<long>(nif), 1, 1};
    int status = 0;
    fits_write_grphdr(file, 1, DOUBLE_IMG, 7, naxes, kParams, static_cast<long>(options.groups), 1,
                      &status);
    check(status, "cannot write the random-groups header");
    fits::KeyWriter w(file, path);
    w.key("OBJECT", field.name.empty() ? std::string("UNKNOWN") : field.name, "Source name");
    w.key("TELESCOP", layout.telescope_name);
    w.key("INSTRUME", layout.telescope_name);
    w.key("OBSERVER", layout.observer);
    w.key("DATE-OBS", formatMjdDate(layout.start_time_mjd_s), "Obs start date YYYY-MM-DD");
    w.key("BSCALE", 1.0);
    w.key("BZERO", 0.0);
    w.key("BUNIT", std::string("JY"), "Units of flux");
    w.key("EPOCH", 2000.0, "Epoch of RA DEC");
    w.key("EQUINOX", 2000.0, "Epoch of RA DEC");
    w.key("RADESYS", std::string("FK5"));
    w.key("OBSRA", rightAscensionDegrees(field.ra_rad), "Antenna pointing RA");
    w.key("OBSDEC", field.dec_rad * kRadToDeg, "Antenna pointing DEC");
    const bool linear = layout.basis == CorrelationBasis::Linear;
    struct Axis {
      const char* type;
      double crval, cdelt, crpix;
      const char* comment;
    };
    const Axis axes[6] = {
        {"COMPLEX", 1.0, 1.0, 1.0, "1=real, 2=imag, 3=weight"},
        {"STOKES", linear ? -5.0 : -1.0, -1.0, 1.0, linear ? "-5=XX, -6=YY" : "-1=RR, -2=LL"},
        {"FREQ", spw0.channel_frequencies_hz.front(), spw0.channel_width_hz, 1.0,
         "Frequency in Hz"},
        {"IF", 1.0, 1.0, 1.0, "IF number (AIPS FQ table)"},
        {"RA", rightAscensionDegrees(field.ra_rad), 1.0, 1.0, "Right Ascension in deg"},
        {"DEC", field.dec_rad * kRadToDeg, 1.0, 1.0, "Declination in deg"},
    };
    for (int a = 0; a < 6; ++a) {
      const std::string n = std::to_string(a + 2);
      w.key(("CTYPE" + n).c_str(), std::string(axes[a].type), axes[a].comment);
      w.key(("CRVAL" + n).c_str(), axes[a].crval);
      w.key(("CDELT" + n).c_str(), axes[a].cdelt);
      w.key(("CRPIX" + n).c_str(), axes[a].crpix);
      w.key(("CROTA" + n).c_str(), 0.0);
    }
    const char* types[kParams] = {"UU---SIN", "VV---SIN", "WW---SIN", "BASELINE",
                                  "DATE",     "DATE",     "INTTIM"};
    const char* comments[kParams] = {"u (seconds)",
                                     "v (seconds)",
                                     "w (seconds)",
                                     wide_baselines ? "2048 a1 + a2 + 65536" : "256 a1 + a2",
                                     "Julian date: day offset",
                                     "Julian date: fraction of day",
                                     "Integration time (s)"};
    for (int p = 0; p < kParams; ++p) {
      const std::string n = std::to_string(p + 1);
      w.key(("PTYPE" + n).c_str(), std::string(types[p]), comments[p]);
      w.key(("PSCAL" + n).c_str(), 1.0);
      w.key(("PZERO" + n).c_str(), p == 4 ? jd0 : 0.0);
    }
    w.key("ORIGIN", std::string("Apertura"));
    for (const auto& line : layout.history)
      w.history(line);
  }

  void startRows(const MsRowBlock& b) {
    rows = b.rows();
    params.assign(rows * kParams, 0.0);
    data.assign(rows * group_elements, 0.0);
    times = b.time_mjd_s;
    ant1 = b.antenna1;
    ant2 = b.antenna2;
    for (std::size_t r = 0; r < rows; ++r) {
      double* p = &params[r * kParams];
      for (int i = 0; i < 3; ++i)
        p[i] = b.uvw_m[3 * r + i] / kSpeedOfLight;
      const double a1 = b.antenna1[r] + 1, a2 = b.antenna2[r] + 1;
      p[3] = wide_baselines ? 2048.0 * a1 + a2 + 65536.0 : 256.0 * a1 + a2;
      // JD - jd0 = day offset + fraction; each part exact in double.
      const double days = b.time_mjd_s[r] / 86400.0 + 2400000.5 - jd0;
      p[4] = std::floor(days);
      p[5] = (b.time_mjd_s[r] - (jd0 - 2400000.5 + p[4]) * 86400.0) / 86400.0;
      p[6] = b.interval_s;
    }
  }

  void addSpectralWindow(const MsRowBlock& b) {
    const std::size_t s = next_spw;
    const bool flags = !b.flag.empty();
    for (std::size_t r = 0; r < rows; ++r) {
      double* g = &data[r * group_elements];
      for (std::size_t c = 0; c < nchan; ++c) {
        for (std::size_t p = 0; p < kCorrelations; ++p) {
          const std::size_t in = (r * nchan + c) * kCorrelations + p;
          double* out = g + 3 * (p + kCorrelations * (c + nchan * s));
          const double w = b.weight[r * kCorrelations + p];
          out[0] = b.data[in].real();
          out[1] = b.data[in].imag();
          out[2] = flags && b.flag[in] ? -std::fabs(w) : w;
        }
      }
    }
  }

  void requireSameRows(const MsRowBlock& b) const {
    if (b.rows() != rows || b.antenna1 != ant1 || b.antenna2 != ant2 || b.time_mjd_s != times) {
      throw std::invalid_argument(
          "UvfitsWriter: the spectral windows of a set of rows must share their rows");
    }
  }

  void flushRows() {
    if (written + rows > options.groups) {
      throw std::invalid_argument("UvfitsWriter: more groups written than announced");
    }
    // One call per group: cfitsio does not continue a group-parameter write into the next
    // group's parameters (it would run on into the data).
    int status = 0;
    for (std::size_t r = 0; r < rows && status == 0; ++r) {
      const auto group = static_cast<long>(written + r + 1);
      fits_write_grppar_dbl(file, group, 1, kParams, &params[r * kParams], &status);
      fits_write_img_dbl(file, group, 1, static_cast<LONGLONG>(group_elements),
                         &data[r * group_elements], &status);
    }
    check(status, "cannot write the random groups (disk full?)");
    written += rows;
    next_spw = 0;
  }

  void writeAntennaTable() {
    const auto& ants = layout.antennas;
    const long n = static_cast<long>(ants.size());
    const char* ttype[] = {"ANNAME", "STABXYZ", "ORBPARM", "NOSTA",  "MNTSTA", "STAXOF", "DIAMETER",
                           "POLTYA", "POLAA",   "POLCALA", "POLTYB", "POLAB",  "POLCALB"};
    const char* tform[] = {"8A", "3D", "0D", "1J", "1J", "1E", "1E",
                           "1A", "1E", "0E", "1A", "1E", "0E"};
    const char* tunit[] = {"", "METERS",  "", "", "",        "METERS", "METERS",
                           "", "DEGREES", "", "", "DEGREES", ""};
    int status = 0;
    fits_create_tbl(file, BINARY_TBL, n, 13, const_cast<char**>(ttype), const_cast<char**>(tform),
                    const_cast<char**>(tunit), "AIPS AN", &status);
    check(status, "cannot create the AIPS AN table");
    double centre[3] = {0, 0, 0};
    for (const auto& a : ants) {
      for (int i = 0; i < 3; ++i)
        centre[i] += a.position_itrf_m[i] / static_cast<double>(n);
    }
    fits::KeyWriter w(file, path);
    w.key("EXTVER", 1);
    w.key("ARRAYX", centre[0]);
    w.key("ARRAYY", centre[1]);
    w.key("ARRAYZ", centre[2]);
    const double day = std::floor(layout.start_time_mjd_s / 86400.0);
    w.key("GSTIA0", gmstAtMidnightDeg(day + options.ut1_minus_utc_s / 86400.0));
    w.key("DEGPDY", 360.9856449733);
    w.key("FREQ", layout.spectral_windows.front().channel_frequencies_hz.front());
    w.key("RDATE", formatMjdDate(day * 86400.0));
    w.key("POLARX", 0.0);
    w.key("POLARY", 0.0);
    w.key("UT1UTC", options.ut1_minus_utc_s);
    w.key("DATUTC", 0.0);
    w.key("TIMSYS", std::string("UTC"));
    w.key("ARRNAM", layout.telescope_name);
    w.key("XYZHAND", std::string("RIGHT"));
    w.key("FRAME", std::string("ITRF"));
    w.key("NUMORB", 0);
    w.key("NOPCAL", 0);
    w.key("NO_IF", static_cast<int>(nif));
    w.key("FREQID", -1);
    w.key("IATUTC", options.tai_minus_utc_s);
    const bool linear = layout.basis == CorrelationBasis::Linear;
    for (long row = 1; row <= n; ++row) {
      const MsAntennaInfo& a = ants[static_cast<std::size_t>(row - 1)];
      std::string name = a.name.substr(0, 8);
      char* name_ptr = name.data();
      double xyz[3];
      for (int i = 0; i < 3; ++i)
        xyz[i] = a.position_itrf_m[i] - centre[i];
      int nosta = static_cast<int>(row), mount = mountCode(a.mount);
      float offset = 0.0f, diameter = static_cast<float>(a.dish_diameter_m);
      float pola = 0.0f, polb = linear ? 90.0f : 0.0f;
      char type_a[2] = {linear ? 'X' : 'R', 0}, type_b[2] = {linear ? 'Y' : 'L', 0};
      char* pa = type_a;
      char* pb = type_b;
      fits_write_col(file, TSTRING, 1, row, 1, 1, &name_ptr, &status);
      fits_write_col(file, TDOUBLE, 2, row, 1, 3, xyz, &status);
      fits_write_col(file, TINT, 4, row, 1, 1, &nosta, &status);
      fits_write_col(file, TINT, 5, row, 1, 1, &mount, &status);
      fits_write_col(file, TFLOAT, 6, row, 1, 1, &offset, &status);
      fits_write_col(file, TFLOAT, 7, row, 1, 1, &diameter, &status);
      fits_write_col(file, TSTRING, 8, row, 1, 1, &pa, &status);
      fits_write_col(file, TFLOAT, 9, row, 1, 1, &pola, &status);
      fits_write_col(file, TSTRING, 11, row, 1, 1, &pb, &status);
      fits_write_col(file, TFLOAT, 12, row, 1, 1, &polb, &status);
    }
    check(status, "cannot write the AIPS AN table");
  }

  void writeFrequencyTable() {
    const std::string d = std::to_string(nif) + "D", e = std::to_string(nif) + "E",
                      j = std::to_string(nif) + "J";
    const char* ttype[] = {"FRQSEL", "IF FREQ", "CH WIDTH", "TOTAL BANDWIDTH", "SIDEBAND"};
    const char* tform[] = {"1J", d.c_str(), e.c_str(), e.c_str(), j.c_str()};
    const char* tunit[] = {"", "HZ", "HZ", "HZ", ""};
    int status = 0;
    fits_create_tbl(file, BINARY_TBL, 1, 5, const_cast<char**>(ttype), const_cast<char**>(tform),
                    const_cast<char**>(tunit), "AIPS FQ", &status);
    check(status, "cannot create the AIPS FQ table");
    fits::KeyWriter w(file, path);
    w.key("EXTVER", 1);
    w.key("NO_IF", static_cast<int>(nif));
    const auto& spws = layout.spectral_windows;
    const double f0 = spws.front().channel_frequencies_hz.front();
    std::vector<double> offset(nif);
    std::vector<float> width(nif), total(nif);
    std::vector<int> sideband(nif);
    for (std::size_t i = 0; i < nif; ++i) {
      offset[i] = spws[i].channel_frequencies_hz.front() - f0;
      width[i] = static_cast<float>(spws[i].channel_width_hz);
      total[i] = static_cast<float>(std::fabs(spws[i].channel_width_hz) * nchan);
      sideband[i] = spws[i].channel_width_hz >= 0.0 ? 1 : -1;
    }
    int frqsel = 1;
    const auto count = static_cast<LONGLONG>(nif);
    fits_write_col(file, TINT, 1, 1, 1, 1, &frqsel, &status);
    fits_write_col(file, TDOUBLE, 2, 1, 1, count, offset.data(), &status);
    fits_write_col(file, TFLOAT, 3, 1, 1, count, width.data(), &status);
    fits_write_col(file, TFLOAT, 4, 1, 1, count, total.data(), &status);
    fits_write_col(file, TINT, 5, 1, 1, count, sideband.data(), &status);
    check(status, "cannot write the AIPS FQ table");
  }
};

UvfitsWriter::UvfitsWriter(const std::string& path, const MsLayout& layout,
                           const UvfitsWriteOptions& options)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.path = path;
  m.layout = layout;
  m.options = options;
  m.validate();
  std::error_code ec;
  if (fs::exists(path, ec) && !options.overwrite)
    throw InputError(path, "already exists (use --overwrite to replace it)");
  if (fs::is_directory(path, ec))
    throw InputError(path, "is a directory; a UVFITS file cannot replace it");
  requireReplaceableFits(path);
  m.nif = layout.spectral_windows.size();
  m.nchan = layout.spectral_windows.front().channel_frequencies_hz.size();
  m.group_elements = 3 * kCorrelations * m.nchan * m.nif;
  m.wide_baselines = layout.antennas.size() > 255;
  m.jd0 = std::floor(layout.start_time_mjd_s / 86400.0) + 2400000.5;
  m.temp = temporarySiblingPath(path);
  int status = 0;
  // The disk-file variant takes the name literally (no "!", "[ext]" or filter syntax).
  if (fits_create_diskfile(&m.file, m.temp.c_str(), &status)) {
    m.file = nullptr;
    const std::string text = fits::errorText(status);
    fits_clear_errmsg();
    const std::string dir = fs::path(path).parent_path().string();
    throw InputError(path, "cannot create the file (does the directory " +
                               (dir.empty() ? std::string(".") : dir) +
                               " exist and is it writable?) (cfitsio: " + text + ")");
  }
  m.writePrimaryHeader();
}

UvfitsWriter::~UvfitsWriter() {
  if (impl_->file != nullptr) {
    int status = 0;
    fits_close_file(impl_->file, &status);
    fits_clear_errmsg();
  }
  if (!impl_->closed) {
    std::error_code ec;
    fs::remove(impl_->temp, ec);
  }
}

void UvfitsWriter::write(const MsRowBlock& block) {
  Impl& m = *impl_;
  if (m.closed || m.file == nullptr)
    throw std::logic_error("UvfitsWriter: write after close");
  if (block.field_id != 0)
    throw InputError(m.path, "UVFITS output holds a single field (FIELD_ID 0)");
  if (block.data_desc_id != static_cast<int>(m.next_spw)) {
    throw std::invalid_argument("UvfitsWriter: expected the block of spectral window " +
                                std::to_string(m.next_spw));
  }
  const std::size_t n = block.rows();
  if (block.data.size() != n * m.nchan * kCorrelations ||
      block.weight.size() != n * kCorrelations || block.uvw_m.size() != 3 * n ||
      block.time_mjd_s.size() != n || block.antenna2.size() != n ||
      (!block.flag.empty() && block.flag.size() != block.data.size())) {
    throw std::invalid_argument("UvfitsWriter: block arrays do not match its row count");
  }
  if (m.next_spw == 0)
    m.startRows(block);
  else
    m.requireSameRows(block);
  m.addSpectralWindow(block);
  if (++m.next_spw == m.nif)
    m.flushRows();
}

void UvfitsWriter::close() {
  Impl& m = *impl_;
  if (m.closed)
    return;
  if (m.next_spw != 0 || m.written != m.options.groups) {
    throw std::logic_error("UvfitsWriter: " + std::to_string(m.written) + " groups written, " +
                           std::to_string(m.options.groups) + " announced");
  }
  m.writeFrequencyTable();
  m.writeAntennaTable();
  int status = 0;
  fits_close_file(m.file, &status);
  m.file = nullptr;
  m.check(status, "cannot finish the file (disk full?)");
  std::error_code ec;
  fs::rename(m.temp, m.path, ec);
  if (ec)
    throw InputError(m.path, "could not move the finished file into place: " + ec.message());
  m.closed = true;
}

std::uint64_t UvfitsWriter::groupsWritten() const {
  return impl_->written;
}

}  // namespace apertura
