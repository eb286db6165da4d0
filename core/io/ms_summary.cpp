#include "core/io/ms_summary.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/measures/Measures/Stokes.h>
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

void readFields(const cc::Table& main, const std::string& path, DatasetSummary& s) {
  cc::Table field = openSubtable(main, path, "FIELD");
  requireColumn(field, path, "FIELD", "PHASE_DIR");
  cc::ArrayColumn<double> dir(field, "PHASE_DIR");
  const bool has_name = field.tableDesc().isColumn("NAME");
  std::string frame;
  const auto& kw = dir.keywordSet();
  if (kw.isDefined("MEASINFO")) {
    const auto& info = kw.asRecord("MEASINFO");
    if (info.isDefined("Ref"))
      frame = info.asString("Ref");
  }
  for (cc::rownr_t r = 0; r < field.nrow(); ++r) {
    FieldInfo f;
    f.id = static_cast<int>(r);
    if (has_name)
      f.name = cc::ScalarColumn<cc::String>(field, "NAME")(r);
    cc::Array<double> d = dir(r);
    if (d.nelements() < 2) {
      throw InputError(path, "FIELD.PHASE_DIR row " + std::to_string(r) +
                                 " has fewer than 2 values (expected [2, npoly+1])");
    }
    f.ra_rad = d.data()[0];
    f.dec_rad = d.data()[1];
    f.frame = frame;
    s.fields.push_back(std::move(f));
  }
}

void readSpectralWindows(const cc::Table& main, const std::string& path, DatasetSummary& s) {
  cc::Table spw = openSubtable(main, path, "SPECTRAL_WINDOW");
  requireColumn(spw, path, "SPECTRAL_WINDOW", "CHAN_FREQ");
  cc::ArrayColumn<double> chan_freq(spw, "CHAN_FREQ");
  const auto& desc = spw.tableDesc();
  for (cc::rownr_t r = 0; r < spw.nrow(); ++r) {
    SpectralWindowInfo w;
    w.id = static_cast<int>(r);
    cc::Vector<double> f = chan_freq(r);
    w.num_channels = static_cast<int>(f.nelements());
    if (w.num_channels > 0) {
      w.first_channel_hz = f(0);
      w.last_channel_hz = f(f.nelements() - 1);
    }
    if (desc.isColumn("REF_FREQUENCY")) {
      w.ref_frequency_hz = cc::ScalarColumn<double>(spw, "REF_FREQUENCY")(r);
    }
    if (desc.isColumn("TOTAL_BANDWIDTH")) {
      w.total_bandwidth_hz = cc::ScalarColumn<double>(spw, "TOTAL_BANDWIDTH")(r);
    }
    if (desc.isColumn("CHAN_WIDTH") && w.num_channels > 0) {
      cc::Vector<double> width = cc::ArrayColumn<double>(spw, "CHAN_WIDTH")(r);
      if (width.nelements() > 0)
        w.channel_width_hz = width(0);
    }
    s.spectral_windows.push_back(w);
  }
}

void readPolarizations(const cc::Table& main, const std::string& path, DatasetSummary& s) {
  cc::Table pol = openSubtable(main, path, "POLARIZATION");
  requireColumn(pol, path, "POLARIZATION", "CORR_TYPE");
  cc::ArrayColumn<int> corr_type(pol, "CORR_TYPE");
  for (cc::rownr_t r = 0; r < pol.nrow(); ++r) {
    PolarizationInfo p;
    p.id = static_cast<int>(r);
    cc::Vector<int> types = corr_type(r);
    for (int t : types) {
      const auto stokes = cc::Stokes::type(t);
      if (stokes == cc::Stokes::Undefined) {
        throw InputError(path, "POLARIZATION.CORR_TYPE row " + std::to_string(r) +
                                   " has unknown correlation type " + std::to_string(t));
      }
      p.correlations.push_back(cc::Stokes::name(stokes));
    }
    s.polarizations.push_back(std::move(p));
  }
}

void readTelescope(const cc::Table& main, DatasetSummary& s) {
  if (!main.keywordSet().isDefined("OBSERVATION"))
    return;
  cc::Table obs = main.keywordSet().asTable("OBSERVATION");
  if (obs.nrow() == 0 || !obs.tableDesc().isColumn("TELESCOPE_NAME"))
    return;
  s.telescope = cc::ScalarColumn<cc::String>(obs, "TELESCOPE_NAME")(0);
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
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw InputError(path, "no such file or directory");
  if (!fs::is_directory(path, ec) || !cc::Table::isReadable(path)) {
    throw InputError(path,
                     "not a casacore table (a Measurement Set is a directory with table.dat)");
  }
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
    readFields(main, path, s);
    readSpectralWindows(main, path, s);
    readPolarizations(main, path, s);
    openSubtable(main, path, "DATA_DESCRIPTION");
    readTelescope(main, s);
    countFlags(main, s);
    readDishDiameter(main, used, s);
    deriveImagingSuggestions(s);
  } catch (const InputError&) {
    throw;
  } catch (const cc::AipsError& e) {
    throw InputError(path, std::string("casacore could not read the Measurement Set: ") + e.what());
  }
  return s;
}

}  // namespace apertura
