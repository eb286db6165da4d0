#include "core/io/ms_antenna_reader.h"

#include <casacore/casa/Arrays/Vector.h>
#include <casacore/measures/Measures/MCPosition.h>
#include <casacore/measures/Measures/MPosition.h>
#include <casacore/measures/TableMeasures/ScalarMeasColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableRecord.h>

#include "core/io/casacore_errors.h"
#include "core/io/casacore_lock.h"
#include "core/io/ms_metadata.h"
#include "core/util/input_error.h"

namespace apertura {

namespace cc = casacore;

MsAntennaTable readMsAntennaTable(const std::string& path) {
  const auto lock = lockCasacore();
  requireCasacoreTable(path);
  MsAntennaTable out;
  try {
    cc::Table main(path, cc::TableLock(cc::TableLock::AutoNoReadLocking), cc::Table::Old);
    if (!main.keywordSet().isDefined("ANTENNA")) {
      throw InputError(path, "required subtable ANTENNA is missing");
    }
    cc::Table ant = main.keywordSet().asTable("ANTENNA");
    for (const char* col : {"POSITION", "NAME", "DISH_DIAMETER"}) {
      if (!ant.tableDesc().isColumn(col)) {
        throw InputError(path, std::string("table ANTENNA has no ") + col + " column");
      }
    }
    // Read through the measure column so positions in any frame come back as ITRF.
    cc::ScalarMeasColumn<cc::MPosition> pos(ant, "POSITION");
    cc::ScalarColumn<cc::String> name(ant, "NAME");
    cc::ScalarColumn<double> dish(ant, "DISH_DIAMETER");
    const bool has_station = ant.tableDesc().isColumn("STATION");
    const bool has_mount = ant.tableDesc().isColumn("MOUNT");
    for (cc::rownr_t r = 0; r < ant.nrow(); ++r) {
      MsAntennaInfo a;
      const cc::Vector<double> xyz =
          cc::MPosition::Convert(pos(r), cc::MPosition::ITRF)().getValue().getValue();
      for (int i = 0; i < 3; ++i)
        a.position_itrf_m[i] = xyz(i);
      a.name = name(r);
      if (a.name.empty())
        a.name = "A" + std::to_string(r);
      if (has_station)
        a.station = cc::ScalarColumn<cc::String>(ant, "STATION")(r);
      if (has_mount)
        a.mount = cc::ScalarColumn<cc::String>(ant, "MOUNT")(r);
      a.dish_diameter_m = dish(r);
      out.antennas.push_back(std::move(a));
    }
    if (main.keywordSet().isDefined("OBSERVATION")) {
      cc::Table obs = main.keywordSet().asTable("OBSERVATION");
      if (obs.nrow() > 0 && obs.tableDesc().isColumn("TELESCOPE_NAME")) {
        out.telescope_name = cc::ScalarColumn<cc::String>(obs, "TELESCOPE_NAME")(0);
      }
    }
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    if (!isCasacoreError(e))
      throw;
    throw InputError(path, std::string("casacore could not read the ANTENNA table: ") + e.what());
  }
  if (out.antennas.empty())
    throw InputError(path, "table ANTENNA has no rows");
  return out;
}

}  // namespace apertura
