#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace apertura {

struct FieldInfo {
  int id = 0;
  std::string name;
  double ra_rad = 0.0;  // phase centre, frame as stored (usually J2000)
  double dec_rad = 0.0;
  std::string frame;  // e.g. "J2000"; empty when the file does not say
};

struct SpectralWindowInfo {
  int id = 0;
  int num_channels = 0;
  double ref_frequency_hz = 0.0;
  double first_channel_hz = 0.0;
  double last_channel_hz = 0.0;
  double channel_width_hz = 0.0;  // of the first channel; may be negative (descending)
  double total_bandwidth_hz = 0.0;
};

struct PolarizationInfo {
  int id = 0;
  std::vector<std::string> correlations;  // in file order, e.g. {"XX","YY","XY","YX"}
};

// What a user wants to know about a data set before imaging it. Filled by the readers; shown by
// the CLI (`info`) and the GUI's data panel.
struct DatasetSummary {
  std::string path;
  std::string format;  // "MeasurementSet" or "UVFITS"
  std::string telescope;

  std::uint64_t rows = 0;
  std::uint64_t autocorrelation_rows = 0;
  int antennas_listed = 0;  // rows of the antenna table
  int antennas_used = 0;    // distinct antennas appearing in the data
  // By antenna-table row: MS ANTENNA NAME, UVFITS AIPS AN ANNAME. Empty when the file has none.
  std::vector<std::string> antenna_names;

  std::vector<FieldInfo> fields;
  std::vector<SpectralWindowInfo> spectral_windows;
  std::vector<PolarizationInfo> polarizations;
  std::vector<std::string> columns;  // main-table columns (MS) or random parameters (UVFITS)

  // Flags are counted per visibility cell (row x channel x correlation); FLAG_ROW flags a whole
  // row.
  std::uint64_t flag_cells_total = 0;
  std::uint64_t flag_cells_flagged = 0;

  double time_start_mjd_s = 0.0;  // MJD seconds (UTC), as in the MS TIME column
  double time_end_mjd_s = 0.0;

  // Cross-correlation baselines only; 0 when there are none.
  double min_baseline_m = 0.0;
  double max_baseline_m = 0.0;

  // A bounded subsample of (u, v) in metres for coverage plots (cross-correlations only).
  std::vector<float> uv_sample_m;  // interleaved u0, v0, u1, v1, ...

  // Cells (row x channel x correlation) of cross-correlation rows that are not flagged (MS: FLAG
  // and FLAG_ROW; UVFITS: weight > 0): what imaging can use.
  std::uint64_t unflagged_visibilities = 0;

  // Baseline lengths |uvw| in wavelengths: the shortest at the lowest frequency, the longest at
  // the highest. Filled by deriveImagingSuggestions().
  double min_baseline_wavelengths = 0.0;
  double max_baseline_wavelengths = 0.0;

  // Smallest dish among the antennas in use (m): ANTENNA DISH_DIAMETER or the AIPS AN DIAMETER.
  // 0 when the file does not say.
  double dish_diameter_m = 0.0;

  // Imaging suggestions (deriveImagingSuggestions): cell = 1 / (5 max_baseline_wavelengths) rad,
  // about five cells across the synthesized beam; primary beam FWHM = 1.13 lambda_max / D at the
  // lowest frequency; image size = cells across twice the FWHM, rounded up to an even
  // FFT-friendly size (factors 2, 3, 5) and capped at kMaxSuggestedImageSize. Zero when unknown.
  static constexpr int kMaxSuggestedImageSize = 16384;
  double suggested_cell_rad = 0.0;
  double primary_beam_fwhm_rad = 0.0;
  int suggested_image_size = 0;
  bool image_size_capped = false;

  double flaggedFraction() const {
    return flag_cells_total == 0
               ? 0.0
               : static_cast<double>(flag_cells_flagged) / static_cast<double>(flag_cells_total);
  }
  double maxFrequencyHz() const;
  double minFrequencyHz() const;  // lowest positive channel frequency; 0 without windows
};

// The span of frequencies [low, high] over their midpoint (0 for none): how wide a band is, as
// imaging.mfs_spectrum auto judges it.
inline double fractionalSpan(double low_hz, double high_hz) {
  return high_hz > low_hz ? 2.0 * (high_hz - low_hz) / (high_hz + low_hz) : 0.0;
}

// The span of the channel frequencies of `windows` (those whose id is in `selected`; empty:
// all) over their midpoint; 0 for one frequency or none.
double fractionalBandwidth(const std::vector<SpectralWindowInfo>& windows,
                           const std::vector<int>& selected);

// Fills the baselines in wavelengths and the imaging suggestions from the baselines, frequencies
// and dish diameter already in `s`. Readers call it last.
void deriveImagingSuggestions(DatasetSummary& s);

}  // namespace apertura
