#include "core/data/dataset_summary_text.h"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "core/util/number_text.h"
#include "core/util/sky_format.h"

namespace apertura {
namespace {

constexpr double kSpeedOfLight = 299792458.0;

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Four significant digits: cells range from arcminutes (LOFAR) to microarcseconds (EHT).
std::string significant(double v) {
  return significantDigits(v, 4);
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i)
      out += sep;
    out += items[i];
  }
  return out;
}

constexpr double kRadToArcsec = 180.0 * 3600.0 / 3.14159265358979323846;

std::string imagingSuggestion(const DatasetSummary& s) {
  if (s.suggested_cell_rad <= 0.0)
    return "no cross-correlation baselines";
  std::string out =
      "cell " + significant(s.suggested_cell_rad * kRadToArcsec) + " arcsec (1/(5 x max baseline))";
  if (s.suggested_image_size <= 0)
    return out + ", image size unknown (no dish diameter)";
  return out + ", primary beam FWHM " + fixed(s.primary_beam_fwhm_rad * kRadToArcsec, 2) +
         " arcsec (1.13 lambda/D, D = " + fixed(s.dish_diameter_m, 1) + " m), image " +
         std::to_string(s.suggested_image_size) + " x " + std::to_string(s.suggested_image_size) +
         (s.image_size_capped ? " (capped; 2 x FWHM needs more)" : " (2 x FWHM)");
}

constexpr std::size_t kMaxNamesShown = 30;

// "A, B, C" with at most `most` names, then an ellipsis and the count left out.
std::string joinNames(const std::vector<std::string>& names, std::size_t most) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < most; ++i)
    out += (i ? ", " : "") + (names[i].empty() ? std::string("(unnamed)") : names[i]);
  if (names.size() > most)
    out += ", … (" + std::to_string(names.size() - most) + " more)";
  return out;
}

}  // namespace

std::string formatSummaryText(const DatasetSummary& s) {
  std::ostringstream o;
  o << "Data set:      " << s.path << "\n";
  o << "Format:        " << s.format << "\n";
  o << "Telescope:     " << (s.telescope.empty() ? "(unknown)" : s.telescope) << "\n";
  o << "Rows:          " << s.rows << " (" << s.autocorrelation_rows << " autocorrelations)\n";
  o << "Antennas:      " << s.antennas_used << " used of " << s.antennas_listed << " listed\n";
  if (!s.antenna_names.empty())
    o << "Antenna names: " << joinNames(s.antenna_names, kMaxNamesShown) << "\n";
  o << "Time range:    " << formatMjdSeconds(s.time_start_mjd_s) << " to "
    << formatMjdSeconds(s.time_end_mjd_s) << " UTC ("
    << fixed(s.time_end_mjd_s - s.time_start_mjd_s, 1) << " s)\n";
  const double fmax = s.maxFrequencyHz();
  o << "Baselines:     " << fixed(s.min_baseline_m, 2) << " m to " << fixed(s.max_baseline_m, 2)
    << " m";
  if (fmax > 0.0) {
    o << " (max " << fixed(s.max_baseline_m * fmax / kSpeedOfLight, 1) << " wavelengths)";
  }
  o << "\n";
  o << "Flagged:       " << fixed(100.0 * s.flaggedFraction(), 3) << " % of " << s.flag_cells_total
    << " visibilities\n";
  o << "Unflagged:     " << s.unflagged_visibilities << " cross-correlation visibilities\n";
  if (s.max_baseline_wavelengths > 0.0) {
    o << "UV range:      " << fixed(s.min_baseline_wavelengths, 1) << " to "
      << fixed(s.max_baseline_wavelengths, 1) << " wavelengths\n";
  }
  o << "Suggested:     " << imagingSuggestion(s) << "\n";

  o << "Fields:        " << s.fields.size() << "\n";
  for (const auto& f : s.fields) {
    o << "  " << f.id << "  " << f.name << "  " << formatRightAscension(f.ra_rad) << "  "
      << formatDeclination(f.dec_rad) << (f.frame.empty() ? "" : "  " + f.frame) << "\n";
  }
  o << "Spectral windows: " << s.spectral_windows.size() << "\n";
  for (const auto& w : s.spectral_windows) {
    o << "  " << w.id << "  " << w.num_channels << " ch  " << formatFrequency(w.first_channel_hz)
      << " .. " << formatFrequency(w.last_channel_hz) << "  ref "
      << formatFrequency(w.ref_frequency_hz) << "  width " << formatFrequency(w.channel_width_hz)
      << "  total " << formatFrequency(w.total_bandwidth_hz) << "\n";
  }
  o << "Correlations:  " << s.polarizations.size() << " setup(s)\n";
  for (const auto& p : s.polarizations) {
    o << "  " << p.id << "  " << join(p.correlations, " ") << "\n";
  }
  o << "Columns:       " << join(s.columns, " ") << "\n";
  return o.str();
}

}  // namespace apertura
