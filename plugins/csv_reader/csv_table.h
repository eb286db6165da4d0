#pragma once

#include <string>
#include <vector>

namespace apertura_csv {

// A visibility table read from the CSV format documented in docs/plugins.md:
//   - lines starting with '#' are comments; "# key = value" comments may set telescope and
//     phase_centre_deg ("<ra> <dec>" in degrees, J2000);
//   - the first other line is the header: comma-separated column names with their units,
//     u_m | u_lambda, v_m | v_lambda, w_m | w_lambda (optional, 0 when absent), frequency_hz |
//     frequency_ghz, re_jy, im_jy, weight (1/Jy^2) | sigma_jy; names are case-insensitive and
//     unknown columns are ignored;
//   - then one visibility per line. uvw follow the sign of a Measurement Set's UVW column.
struct CsvTable {
  std::vector<double> uvw_m;  // 3 per row, converted to metres
  std::vector<double> frequency_hz, re, im, weight;
  std::string telescope;
  bool has_phase_centre = false;
  double ra_rad = 0.0, dec_rad = 0.0;
  std::size_t rows() const { return frequency_hz.size(); }
};

// Throws std::runtime_error naming the file, the line and the column.
CsvTable readCsvTable(const std::string& path);

// True when the first non-comment line of the file is a header naming a u column and a
// frequency column (cheap: reads a few lines).
bool looksLikeCsvVisibilities(const std::string& path);

}  // namespace apertura_csv
