#include "core/io/uvfits_tables.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/io/row_geometry.h"
#include "core/io/uvfits_handle.h"
#include "core/io/uvfits_layout.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

// Column `name` of row `row` (1-based) as doubles; false when the column is absent or shorter
// than `n`.
bool readRow(UvfitsHandle& f, const char* name, LONGLONG row, std::size_t n,
             std::vector<double>& out) {
  int status = 0, col = 0, type = 0;
  char templ[FLEN_VALUE];
  std::snprintf(templ, sizeof templ, "%s", name);
  if (fits_get_colnum(f.get(), CASEINSEN, templ, &col, &status)) {
    fits_clear_errmsg();
    return false;
  }
  LONGLONG repeat = 0, width = 0;
  fits_get_coltypell(f.get(), col, &type, &repeat, &width, &status);
  if (status || repeat < static_cast<LONGLONG>(n)) {
    fits_clear_errmsg();
    return false;
  }
  out.assign(n, 0.0);
  int anynul = 0;
  fits_read_col(f.get(), TDOUBLE, col, row, 1, static_cast<LONGLONG>(n), nullptr, out.data(),
                &anynul, &status);
  if (status) {
    fits_clear_errmsg();
    return false;
  }
  return true;
}

// A string column, per row, trailing blanks dropped; empty when absent or unreadable.
std::vector<std::string> readStrings(UvfitsHandle& f, const char* name, LONGLONG rows);

// Every FQ row is a frequency setup (FRQSEL); groups choose theirs with the FREQSEL parameter.
// FRQSEL 1 (what groups without FREQSEL use) is current until the groups are known.
void readFq(UvfitsHandle& f, UvfitsLayout& L, bool& found) {
  LONGLONG rows = 0;
  int status = 0;
  fits_get_num_rowsll(f.get(), &rows, &status);
  if (status)
    rows = 0;
  fits_clear_errmsg();
  for (LONGLONG row = 1; row <= rows; ++row) {
    UvfitsLayout::FrequencySetup setup;
    std::vector<double> id;
    setup.id = readRow(f, "FRQSEL", row, 1, id) ? static_cast<int>(std::lround(id[0]))
                                                : static_cast<int>(row);
    if (!readRow(f, "IF FREQ", row, L.nif, setup.offset_hz)) {
      L.warnings.push_back(L.path + ": AIPS FQ table has no IF FREQ column with " +
                           std::to_string(L.nif) + " values; ignored");
      L.frequency_setups.clear();
      return;
    }
    readRow(f, "CH WIDTH", row, L.nif, setup.channel_width_hz);
    readRow(f, "TOTAL BANDWIDTH", row, L.nif, setup.total_bandwidth_hz);
    L.frequency_setups.push_back(setup);
  }
  if (L.frequency_setups.empty())
    return;
  found = true;
  const auto first = std::find_if(L.frequency_setups.begin(), L.frequency_setups.end(),
                                  [](const auto& s) { return s.id == 1; });
  const UvfitsLayout::FrequencySetup& current =
      first != L.frequency_setups.end() ? *first : L.frequency_setups.front();
  L.if_offset_hz = current.offset_hz;
  if (!current.channel_width_hz.empty())
    L.if_channel_width_hz = current.channel_width_hz;
  if (!current.total_bandwidth_hz.empty())
    L.if_total_bandwidth_hz = current.total_bandwidth_hz;
}

// STABXYZ (metres, 3 per row), or nothing when the column is absent or unreadable.
std::vector<std::array<double, 3>> readStationPositions(UvfitsHandle& f, LONGLONG rows) {
  int status = 0, col = 0;
  char templ[] = "STABXYZ";
  std::vector<double> xyz(3 * static_cast<std::size_t>(rows));
  int anynul = 0, type = 0;
  long repeat = 0, width = 0;
  if (rows < 2 || fits_get_colnum(f.get(), CASEINSEN, templ, &col, &status) ||
      fits_get_coltype(f.get(), col, &type, &repeat, &width, &status) || repeat != 3 ||
      fits_read_col(f.get(), TDOUBLE, col, 1, 1, 3 * rows, nullptr, xyz.data(), &anynul, &status)) {
    fits_clear_errmsg();
    return {};
  }
  std::vector<std::array<double, 3>> out(static_cast<std::size_t>(rows));
  for (std::size_t r = 0; r < out.size(); ++r)
    out[r] = {xyz[3 * r], xyz[3 * r + 1], xyz[3 * r + 2]};
  return out;
}

void readAn(UvfitsHandle& f, UvfitsLayout& L) {
  LONGLONG rows = 0;
  int status = 0;
  fits_get_num_rowsll(f.get(), &rows, &status);
  if (status) {
    fits_clear_errmsg();
    return;
  }
  L.antennas_listed += static_cast<int>(rows);
  char arrnam[FLEN_VALUE] = {0};
  if (L.telescope.empty() && !fits_read_key(f.get(), TSTRING, "ARRNAM", arrnam, nullptr, &status)) {
    L.telescope = arrnam;
  }
  fits_clear_errmsg();
  status = 0;
  L.antenna_names = readStrings(f, "ANNAME", rows);
  L.max_antenna_separation_m =
      std::max(L.max_antenna_separation_m, maxAntennaSeparation(readStationPositions(f, rows)));
  int col = 0;
  char templ[] = "DIAMETER";
  if (fits_get_colnum(f.get(), CASEINSEN, templ, &col, &status)) {
    fits_clear_errmsg();
    return;
  }
  std::vector<double> d(static_cast<std::size_t>(rows), 0.0);
  int anynul = 0;
  if (fits_read_col(f.get(), TDOUBLE, col, 1, 1, rows, nullptr, d.data(), &anynul, &status)) {
    fits_clear_errmsg();
    return;
  }
  L.dish_diameters_m.insert(L.dish_diameters_m.end(), d.begin(), d.end());
}

// A numeric column, per row; false when absent or unreadable.
bool readColumn(UvfitsHandle& f, const char* name, LONGLONG rows, std::vector<double>& out) {
  int status = 0, col = 0;
  char templ[FLEN_VALUE];
  std::snprintf(templ, sizeof templ, "%s", name);
  if (fits_get_colnum(f.get(), CASEINSEN, templ, &col, &status)) {
    fits_clear_errmsg();
    return false;
  }
  out.assign(static_cast<std::size_t>(rows), 0.0);
  int anynul = 0;
  if (rows > 0 &&
      fits_read_col(f.get(), TDOUBLE, col, 1, 1, rows, nullptr, out.data(), &anynul, &status)) {
    fits_clear_errmsg();
    return false;
  }
  return true;
}

// The AIPS SU table (AIPS Memo 117): ID. NO., SOURCE, RAEPO/DECEPO in degrees, EPOCH in years.
// Without usable IDs or positions the table cannot place the fields: that is an error, since
// imaging every source at the header's position would give silently wrong coordinates.
void readSu(UvfitsHandle& f, UvfitsLayout& L) {
  LONGLONG rows = 0;
  int status = 0;
  fits_get_num_rowsll(f.get(), &rows, &status);
  f.check(status, "cannot read the AIPS SU table");
  std::vector<double> ids, ra, dec, epoch;
  const char* missing = !readColumn(f, "ID. NO.", rows, ids)  ? "ID. NO."
                        : !readColumn(f, "RAEPO", rows, ra)   ? "RAEPO"
                        : !readColumn(f, "DECEPO", rows, dec) ? "DECEPO"
                                                              : nullptr;
  if (missing) {
    throw InputError(L.path, std::string("AIPS SU table has no readable ") + missing +
                                 " column (source IDs and positions are needed)");
  }
  const bool have_epoch = readColumn(f, "EPOCH", rows, epoch);
  std::vector<std::string> names = readStrings(f, "SOURCE", rows);
  for (std::size_t i = 0; i < static_cast<std::size_t>(rows); ++i) {
    UvfitsLayout::Source src;
    src.id = static_cast<int>(std::lround(ids[i]));
    src.name = i < names.size() ? names[i] : "SOURCE " + std::to_string(src.id);
    if (!std::isfinite(ra[i]) || !std::isfinite(dec[i]) || std::fabs(dec[i]) > 90.0) {
      throw InputError(L.path, "AIPS SU table row " + std::to_string(i + 1) +
                                   " has no valid RAEPO/DECEPO (degrees expected)");
    }
    src.ra_rad = ra[i] * M_PI / 180.0;
    src.dec_rad = dec[i] * M_PI / 180.0;
    if (have_epoch)
      src.frame = epoch[i] == 2000.0 ? "J2000" : epoch[i] == 1950.0 ? "B1950" : "";
    else
      src.frame = L.frame;
    L.sources.push_back(src);
  }
}

std::vector<std::string> readStrings(UvfitsHandle& f, const char* name, LONGLONG rows) {
  int status = 0, col = 0, typecode = 0;
  long repeat = 0, width = 0;
  char templ[FLEN_VALUE];
  std::snprintf(templ, sizeof templ, "%s", name);
  if (fits_get_colnum(f.get(), CASEINSEN, templ, &col, &status) ||
      fits_get_coltype(f.get(), col, &typecode, &repeat, &width, &status) || typecode != TSTRING) {
    fits_clear_errmsg();
    return {};
  }
  const std::size_t n = static_cast<std::size_t>(rows);
  const std::size_t len = static_cast<std::size_t>(std::max(repeat, 1L)) + 1;
  std::vector<char> buffer(n * len, '\0');
  std::vector<char*> ptrs(n);
  for (std::size_t i = 0; i < n; ++i)
    ptrs[i] = buffer.data() + i * len;
  int anynul = 0;
  char nul[] = "";
  if (n > 0 &&
      fits_read_col(f.get(), TSTRING, col, 1, 1, rows, nul, ptrs.data(), &anynul, &status)) {
    fits_clear_errmsg();
    return {};
  }
  std::vector<std::string> out;
  for (char* p : ptrs) {
    std::string v(p);
    v.erase(v.find_last_not_of(' ') + 1);
    out.push_back(v);
  }
  return out;
}

}  // namespace

void readAipsTables(UvfitsHandle& f, UvfitsLayout& L) {
  int status = 0, nhdu = 0, type = 0;
  fits_get_num_hdus(f.get(), &nhdu, &status);
  bool fq_found = false, an_seen = false, su_seen = false;
  for (int h = 2; status == 0 && h <= nhdu; ++h) {
    if (fits_movabs_hdu(f.get(), h, &type, &status)) {
      L.warnings.push_back(L.path + ": extension " + std::to_string(h - 1) +
                           " is unreadable; later tables ignored");
      break;
    }
    char extname[FLEN_VALUE] = {0};
    if (type != BINARY_TBL ||
        fits_read_key(f.get(), TSTRING, "EXTNAME", extname, nullptr, &status)) {
      status = 0;
      fits_clear_errmsg();
      continue;
    }
    const std::string name(extname);
    if (name.rfind("AIPS FQ", 0) == 0 && !fq_found)
      readFq(f, L, fq_found);
    if (name.rfind("AIPS SU", 0) == 0 && !su_seen) {
      su_seen = true;
      readSu(f, L);
    }
    if (name.rfind("AIPS AN", 0) == 0 && !an_seen) {
      an_seen = true;
      readAn(f, L);
    }
  }
  fits_clear_errmsg();
  status = 0;
  fits_movabs_hdu(f.get(), 1, &type, &status);
  f.check(status, "cannot return to the primary HDU");
  if (L.nif > 1 && !fq_found) {
    throw InputError(L.path, "has " + std::to_string(L.nif) +
                                 " IFs but no AIPS FQ table giving their frequencies");
  }
  if (!an_seen)
    L.warnings.push_back(L.path + ": no AIPS AN table (antenna names unknown)");
}

}  // namespace apertura
