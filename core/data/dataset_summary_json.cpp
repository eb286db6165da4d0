#include "core/data/dataset_summary_json.h"

#include <nlohmann/json.hpp>

namespace apertura {

std::string summaryToJson(const DatasetSummary& s, int indent) {
  nlohmann::json j;
  j["path"] = s.path;
  j["format"] = s.format;
  j["telescope"] = s.telescope;
  j["rows"] = s.rows;
  j["autocorrelation_rows"] = s.autocorrelation_rows;
  j["antennas_listed"] = s.antennas_listed;
  j["antennas_used"] = s.antennas_used;
  j["antenna_names"] = s.antenna_names;
  j["columns"] = s.columns;
  j["flag_cells_total"] = s.flag_cells_total;
  j["flag_cells_flagged"] = s.flag_cells_flagged;
  j["flagged_fraction"] = s.flaggedFraction();
  j["time_start_mjd_s"] = s.time_start_mjd_s;
  j["time_end_mjd_s"] = s.time_end_mjd_s;
  j["unflagged_visibilities"] = s.unflagged_visibilities;
  j["min_baseline_wavelengths"] = s.min_baseline_wavelengths;
  j["max_baseline_wavelengths"] = s.max_baseline_wavelengths;
  j["dish_diameter_m"] = s.dish_diameter_m;
  j["suggested_cell_rad"] = s.suggested_cell_rad;
  j["primary_beam_fwhm_rad"] = s.primary_beam_fwhm_rad;
  j["suggested_image_size"] = s.suggested_image_size;
  j["image_size_capped"] = s.image_size_capped;
  j["min_baseline_m"] = s.min_baseline_m;
  j["max_baseline_m"] = s.max_baseline_m;
  j["fields"] = nlohmann::json::array();
  for (const auto& f : s.fields) {
    j["fields"].push_back({{"id", f.id},
                           {"name", f.name},
                           {"ra_rad", f.ra_rad},
                           {"dec_rad", f.dec_rad},
                           {"frame", f.frame}});
  }
  j["spectral_windows"] = nlohmann::json::array();
  for (const auto& w : s.spectral_windows) {
    j["spectral_windows"].push_back({{"id", w.id},
                                     {"num_channels", w.num_channels},
                                     {"ref_frequency_hz", w.ref_frequency_hz},
                                     {"first_channel_hz", w.first_channel_hz},
                                     {"last_channel_hz", w.last_channel_hz},
                                     {"channel_width_hz", w.channel_width_hz},
                                     {"total_bandwidth_hz", w.total_bandwidth_hz}});
  }
  j["polarizations"] = nlohmann::json::array();
  for (const auto& p : s.polarizations) {
    j["polarizations"].push_back({{"id", p.id}, {"correlations", p.correlations}});
  }
  // Names come from files and may not be UTF-8; replace bad bytes rather than throw.
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace apertura
