#pragma once

#include <string>
#include <vector>

#include "core/io/ms_writer.h"

namespace apertura {

// The antennas (ITRF positions, names, dish sizes) and telescope name of an existing Measurement
// Set, read-only: the simulator reuses a real array layout with `--array ms:PATH`.
struct MsAntennaTable {
  std::string telescope_name;
  std::vector<MsAntennaInfo> antennas;
};

MsAntennaTable readMsAntennaTable(const std::string& path);

}  // namespace apertura
