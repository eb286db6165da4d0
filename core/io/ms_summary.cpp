#include "core/io/ms_summary.h"

#include "core/io/ms_metadata.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableRecord.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>

#include "core/io/casacore_errors.h"
#include "core/io/casacore_lock.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

namespace cc = casacore;

constexpr std::size_t kUvSampleMax = 20000;
constexpr cc::rownr_t kRowBlock = 16384;

cc::Table openSubtable(const cc::Table& main, const std::string& path, const std::string& name) {
  if (!main.keywordSet().isDefined(name)) {
    throw InputError(path, "required subtable " + name + " is missing");
  }
  return main.keywordSet().asTable(name);
}

void requireColumn(const cc::Table& t, const std::string& path, const std::string& table,
                   const std::string& column) {
  if (!t.tableDesc().isColumn(column)) {
    throw InputError(path, "table " + table + " has no " + column + " column");
  }
}

// FLAG may hold cells of different shapes per row (several data descriptions), so blocks are read
// whole when the shape is fixed and row by row otherwise.
void countFlags(const cc::Table& main, DatasetSummary& s) {
  const auto& desc = main.tableDesc();
  const bool has_flag = desc.isColumn("FLAG");
  const bool has_flag_row = desc.isColumn("FLAG_ROW");
  if (!has_flag)
    return;
  cc::ArrayColumn<bool> flag(main, "FLAG");
  std::optional<cc::ScalarColumn<bool>> flag_row;
  if (has_flag_row)
    flag_row.emplace(main, "FLAG_ROW");
  cc::ScalarColumn<int> ant1(main, "ANTENNA1"), ant2(main, "ANTENNA2");
  for (cc::rownr_t r = 0; r < main.nrow(); ++r) {
    if (!flag.isDefined(r))
      continue;
    const cc::IPosition shape = flag.shape(r);
    const auto cells = static_cast<std::uint64_t>(shape.product());
    const bool cross = ant1(r) != ant2(r);
    s.flag_cells_total += cells;
    if (flag_row && (*flag_row)(r)) {
      s.flag_cells_flagged += cells;
      continue;
    }
    cc::Array<bool> f = flag(r);
    const auto flagged = static_cast<std::uint64_t>(std::count(f.begin(), f.end(), true));
    s.flag_cells_flagged += flagged;
    if (cross)
      s.unflagged_visibilities += cells - flagged;
  }
}

// The smallest dish among the antennas in use sets the widest primary beam.
void readDishDiameter(const cc::Table& main, const std::set<int>& used, DatasetSummary& s) {
  if (!main.keywordSet().isDefined("ANTENNA"))
    return;
  cc::Table ant = main.keywordSet().asTable("ANTENNA");
  if (!ant.tableDesc().isColumn("DISH_DIAMETER"))
    return;
  cc::ScalarColumn<double> dish(ant, "DISH_DIAMETER");
  double smallest = 0.0;
  for (int a : used) {
    if (a < 0 || static_cast<cc::rownr_t>(a) >= ant.nrow())
      continue;
    const double d = dish(static_cast<cc::rownr_t>(a));
    if (d > 0.0 && std::isfinite(d) && (smallest == 0.0 || d < smallest))
      smallest = d;
  }
  s.dish_diameter_m = smallest;
}

void readAntennaNames(const cc::Table& ant, DatasetSummary& s) {
  if (!ant.tableDesc().isColumn("NAME"))
    return;
  const cc::Vector<cc::String> names = cc::ScalarColumn<cc::String>(ant, "NAME").getColumn();
  s.antenna_names.assign(names.begin(), names.end());
}

std::set<int> scanRows(const cc::Table& main, const std::string& path, DatasetSummary& s) {
  requireColumn(main, path, "MAIN", "UVW");
  requireColumn(main, path, "MAIN", "ANTENNA1");
  requireColumn(main, path, "MAIN", "ANTENNA2");
  requireColumn(main, path, "MAIN", "TIME");
  cc::ArrayColumn<double> uvw_col(main, "UVW");
  cc::ScalarColumn<int> ant1_col(main, "ANTENNA1");
  cc::ScalarColumn<int> ant2_col(main, "ANTENNA2");
  cc::ScalarColumn<double> time_col(main, "TIME");

  const cc::rownr_t nrow = main.nrow();
  const std::size_t stride = std::max<std::size_t>(1, nrow / kUvSampleMax);
  std::set<int> antennas;
  double tmin = std::numeric_limits<double>::infinity();
  double tmax = -tmin;
  double bmin = std::numeric_limits<double>::infinity();
  double bmax = 0.0;
  for (cc::rownr_t start = 0; start < nrow; start += kRowBlock) {
    const cc::rownr_t n = std::min(kRowBlock, nrow - start);
    const cc::Slicer rows(cc::IPosition(1, start), cc::IPosition(1, n));
    cc::Vector<int> a1 = ant1_col.getColumnRange(rows);
    cc::Vector<int> a2 = ant2_col.getColumnRange(rows);
    cc::Vector<double> t = time_col.getColumnRange(rows);
    cc::Array<double> uvw_block = uvw_col.getColumnRange(rows);
    if (uvw_block.shape()(0) != 3) {
      throw InputError(path, "column UVW has " + std::to_string(uvw_block.shape()(0)) +
                                 " values per row, expected 3");
    }
    const double* uvw = uvw_block.data();
    for (cc::rownr_t i = 0; i < n; ++i) {
      antennas.insert(a1(i));
      antennas.insert(a2(i));
      tmin = std::min(tmin, t(i));
      tmax = std::max(tmax, t(i));
      if (a1(i) == a2(i)) {
        ++s.autocorrelation_rows;
        continue;
      }
      const double u = uvw[3 * i], v = uvw[3 * i + 1], w = uvw[3 * i + 2];
      const double len = std::sqrt(u * u + v * v + w * w);
      bmin = std::min(bmin, len);
      bmax = std::max(bmax, len);
      if ((start + i) % stride == 0 && s.uv_sample_m.size() < 2 * kUvSampleMax) {
        s.uv_sample_m.push_back(static_cast<float>(u));
        s.uv_sample_m.push_back(static_cast<float>(v));
      }
    }
  }
  s.antennas_used = static_cast<int>(antennas.size());
  if (nrow > 0) {
    s.time_start_mjd_s = tmin;
    s.time_end_mjd_s = tmax;
  }
  if (bmax > 0.0) {
    s.min_baseline_m = bmin;
    s.max_baseline_m = bmax;
  }
  return antennas;
}

}  // namespace

DatasetSummary summarizeMeasurementSet(const std::string& path) {
  const auto lock = lockCasacore();
  requireCasacoreTable(path);
  DatasetSummary s;
  s.path = path;
  s.format = "MeasurementSet";
  try {
    cc::Table main(path, cc::TableLock(cc::TableLock::AutoNoReadLocking), cc::Table::Old);
    s.rows = main.nrow();
    const auto names = main.tableDesc().columnNames();
    s.columns.assign(names.begin(), names.end());
    const std::set<int> used = scanRows(main, path, s);
    const cc::Table antenna = openSubtable(main, path, "ANTENNA");
    s.antennas_listed = static_cast<int>(antenna.nrow());
    readAntennaNames(antenna, s);
    // Subtables are decoded by the same code the readers use (after the main-table checks, so a
    // table without UVW is reported as such).
    const MsMetadata md = readMsMetadata(path);
    s.fields = md.fields;
    s.spectral_windows = md.spectral_windows;
    s.telescope = md.telescope;
    for (std::size_t p = 0; p < md.correlations.size(); ++p) {
      PolarizationInfo info;
      info.id = static_cast<int>(p);
      for (Correlation c : md.correlations[p])
        info.correlations.push_back(correlationName(c));
      s.polarizations.push_back(std::move(info));
    }
    countFlags(main, s);
    readDishDiameter(main, used, s);
    deriveImagingSuggestions(s);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    if (!isCasacoreError(e))
      throw;
    throw InputError(path, std::string("casacore could not read the Measurement Set: ") + e.what());
  }
  return s;
}

}  // namespace apertura
