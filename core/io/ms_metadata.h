#pragma once

#include <string>
#include <vector>

#include "core/data/dataset_summary.h"
#include "core/io/correlation.h"

namespace apertura {

// The Measurement Set subtables a reader needs, decoded into plain structs so that no casacore
// type leaves core/io's .cpp files.
struct MsMetadata {
  struct DataDescription {
    int spectral_window_id = 0;
    int polarization_id = 0;
  };
  std::string telescope;
  std::vector<FieldInfo> fields;
  std::vector<SpectralWindowInfo> spectral_windows;
  std::vector<std::vector<double>> channel_frequencies_hz;  // per spectral window
  std::vector<std::vector<Correlation>> correlations;       // per POLARIZATION row
  std::vector<DataDescription> data_descriptions;
  int antennas_listed = 0;
  std::vector<double> dish_diameters_m;   // per ANTENNA row; 0 when absent
  double max_antenna_separation_m = 0.0;  // from ANTENNA POSITION; 0 when absent
};

// Reads FIELD, SPECTRAL_WINDOW, POLARIZATION, DATA_DESCRIPTION, ANTENNA and OBSERVATION of the
// Measurement Set at `path`. Throws InputError naming the subtable and column at fault: missing
// subtables, zero/negative/non-finite channel frequencies, unknown correlation types, data
// descriptions pointing at rows that do not exist. Call on the reader's I/O thread.
MsMetadata readMsMetadata(const std::string& path);

// Throws InputError unless `path` is a readable casacore table directory whose files pass
// checkTableTree (ms_table_check.h). Every reader calls it before casacore opens the table.
void requireCasacoreTable(const std::string& path);

}  // namespace apertura
