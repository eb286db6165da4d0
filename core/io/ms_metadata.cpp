#include "core/io/ms_metadata.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableRecord.h>
#include <array>
#include <cmath>
#include <filesystem>

#include "core/io/casacore_errors.h"
#include "core/io/casacore_lock.h"
#include "core/io/ms_table_check.h"
#include "core/io/row_geometry.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

namespace cc = casacore;

cc::Table subtable(const cc::Table& main, const std::string& path, const std::string& name) {
  if (!main.keywordSet().isDefined(name)) {
    throw InputError(path, "required subtable " + name + " is missing");
  }
  return main.keywordSet().asTable(name);
}

void require(const cc::Table& t, const std::string& path, const std::string& table,
             const std::string& column) {
  if (!t.tableDesc().isColumn(column)) {
    throw InputError(path, "table " + table + " has no " + column + " column");
  }
}

void readFields(const cc::Table& main, const std::string& path, MsMetadata& m) {
  cc::Table field = subtable(main, path, "FIELD");
  require(field, path, "FIELD", "PHASE_DIR");
  cc::ArrayColumn<double> dir(field, "PHASE_DIR");
  std::string frame;
  if (dir.keywordSet().isDefined("MEASINFO")) {
    const auto& info = dir.keywordSet().asRecord("MEASINFO");
    if (info.isDefined("Ref"))
      frame = info.asString("Ref");
  }
  const bool has_name = field.tableDesc().isColumn("NAME");
  for (cc::rownr_t r = 0; r < field.nrow(); ++r) {
    FieldInfo f;
    f.id = static_cast<int>(r);
    if (has_name)
      f.name = cc::ScalarColumn<cc::String>(field, "NAME")(r);
    if (!dir.isDefined(r) || dir.shape(r).product() < 2) {
      throw InputError(path, "FIELD.PHASE_DIR row " + std::to_string(r) +
                                 " has fewer than 2 values (expected [2, npoly+1])");
    }
    cc::Array<double> d = dir(r);
    f.ra_rad = d.data()[0];
    f.dec_rad = d.data()[1];
    f.frame = frame;
    m.fields.push_back(std::move(f));
  }
}

void readSpectralWindows(const cc::Table& main, const std::string& path, MsMetadata& m) {
  cc::Table spw = subtable(main, path, "SPECTRAL_WINDOW");
  require(spw, path, "SPECTRAL_WINDOW", "CHAN_FREQ");
  cc::ArrayColumn<double> chan_freq(spw, "CHAN_FREQ");
  const auto& desc = spw.tableDesc();
  for (cc::rownr_t r = 0; r < spw.nrow(); ++r) {
    SpectralWindowInfo w;
    w.id = static_cast<int>(r);
    std::vector<double> freqs;
    if (chan_freq.isDefined(r)) {
      cc::Vector<double> f = chan_freq(r);
      freqs.assign(f.begin(), f.end());
    }
    for (std::size_t c = 0; c < freqs.size(); ++c) {
      if (!std::isfinite(freqs[c]) || freqs[c] <= 0.0) {
        throw InputError(path, "SPECTRAL_WINDOW.CHAN_FREQ row " + std::to_string(r) + " channel " +
                                   std::to_string(c) + " has frequency " +
                                   std::to_string(freqs[c]) + " Hz (expected > 0)");
      }
    }
    w.num_channels = static_cast<int>(freqs.size());
    if (!freqs.empty()) {
      w.first_channel_hz = freqs.front();
      w.last_channel_hz = freqs.back();
    }
    if (desc.isColumn("REF_FREQUENCY")) {
      w.ref_frequency_hz = cc::ScalarColumn<double>(spw, "REF_FREQUENCY")(r);
    }
    if (desc.isColumn("TOTAL_BANDWIDTH")) {
      w.total_bandwidth_hz = cc::ScalarColumn<double>(spw, "TOTAL_BANDWIDTH")(r);
    }
    if (desc.isColumn("CHAN_WIDTH") && !freqs.empty()) {
      cc::ArrayColumn<double> width(spw, "CHAN_WIDTH");
      if (width.isDefined(r) && width.shape(r).product() > 0) {
        w.channel_width_hz = cc::Vector<double>(width(r))(0);
      }
    }
    m.spectral_windows.push_back(w);
    m.channel_frequencies_hz.push_back(std::move(freqs));
  }
}

void readPolarizations(const cc::Table& main, const std::string& path, MsMetadata& m) {
  cc::Table pol = subtable(main, path, "POLARIZATION");
  require(pol, path, "POLARIZATION", "CORR_TYPE");
  cc::ArrayColumn<int> corr_type(pol, "CORR_TYPE");
  for (cc::rownr_t r = 0; r < pol.nrow(); ++r) {
    std::vector<Correlation> corrs;
    if (corr_type.isDefined(r)) {
      cc::Vector<int> types = corr_type(r);
      for (int t : types) {
        if (!isKnownCorrelationCode(t)) {
          throw InputError(path, "POLARIZATION.CORR_TYPE row " + std::to_string(r) +
                                     " has unknown correlation type " + std::to_string(t) +
                                     " (expected 1-12: I Q U V RR RL LR LL XX XY YX YY)");
        }
        corrs.push_back(static_cast<Correlation>(t));
      }
    }
    m.correlations.push_back(std::move(corrs));
  }
}

void readDataDescriptions(const cc::Table& main, const std::string& path, MsMetadata& m) {
  cc::Table dd = subtable(main, path, "DATA_DESCRIPTION");
  require(dd, path, "DATA_DESCRIPTION", "SPECTRAL_WINDOW_ID");
  require(dd, path, "DATA_DESCRIPTION", "POLARIZATION_ID");
  cc::ScalarColumn<int> spw(dd, "SPECTRAL_WINDOW_ID");
  cc::ScalarColumn<int> pol(dd, "POLARIZATION_ID");
  for (cc::rownr_t r = 0; r < dd.nrow(); ++r) {
    MsMetadata::DataDescription d{spw(r), pol(r)};
    // Rows pointing nowhere are only an error when the main table uses them (checked there).
    m.data_descriptions.push_back(d);
  }
}

void readAntennas(const cc::Table& main, const std::string& path, MsMetadata& m) {
  cc::Table ant = subtable(main, path, "ANTENNA");
  m.antennas_listed = static_cast<int>(ant.nrow());
  m.dish_diameters_m.assign(ant.nrow(), 0.0);
  if (ant.tableDesc().isColumn("POSITION") && ant.nrow() > 1) {
    try {  // only bounds the rows' UVW (row_geometry.h): a broken column must not stop reading
      const cc::Array<double> pos = cc::ArrayColumn<double>(ant, "POSITION").getColumn();
      if (pos.nelements() == 3 * ant.nrow()) {
        std::vector<std::array<double, 3>> xyz(ant.nrow());
        auto it = pos.begin();
        for (auto& p : xyz) {
          for (double& x : p)
            x = *it++;
        }
        m.max_antenna_separation_m = maxAntennaSeparation(xyz);
      }
    } catch (const std::exception& e) {
      if (!isCasacoreError(e))
        throw;
      m.max_antenna_separation_m = 0.0;
    }
  }
  if (!ant.tableDesc().isColumn("DISH_DIAMETER"))
    return;
  cc::ScalarColumn<double> dish(ant, "DISH_DIAMETER");
  for (cc::rownr_t r = 0; r < ant.nrow(); ++r)
    m.dish_diameters_m[r] = dish(r);
}

void readTelescope(const cc::Table& main, MsMetadata& m) {
  if (!main.keywordSet().isDefined("OBSERVATION"))
    return;
  cc::Table obs = main.keywordSet().asTable("OBSERVATION");
  if (obs.nrow() == 0 || !obs.tableDesc().isColumn("TELESCOPE_NAME"))
    return;
  m.telescope = cc::ScalarColumn<cc::String>(obs, "TELESCOPE_NAME")(0);
}

}  // namespace

void requireCasacoreTable(const std::string& path) {
  const auto lock = lockCasacore();
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw InputError(path, "no such file or directory");
  // Before casacore opens anything: it crashes or hangs on some damage (ms_table_check.h).
  if (fs::is_directory(path, ec))
    checkTableTree(path);
  if (!fs::is_directory(path, ec) || !cc::Table::isReadable(path)) {
    throw InputError(path,
                     "not a casacore table (a Measurement Set is a directory with table.dat)");
  }
}

MsMetadata readMsMetadata(const std::string& path) {
  const auto lock = lockCasacore();
  requireCasacoreTable(path);
  MsMetadata m;
  try {
    cc::Table main(path, cc::TableLock(cc::TableLock::AutoNoReadLocking), cc::Table::Old);
    readFields(main, path, m);
    readSpectralWindows(main, path, m);
    readPolarizations(main, path, m);
    readDataDescriptions(main, path, m);
    readAntennas(main, path, m);
    readTelescope(main, m);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    if (!isCasacoreError(e))
      throw;
    throw InputError(path, std::string("casacore could not read the Measurement Set: ") + e.what());
  }
  return m;
}

}  // namespace apertura
