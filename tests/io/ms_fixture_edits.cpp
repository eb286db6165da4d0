#include "tests/io/ms_fixture_edits.h"

#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/tables/DataMan/StandardStMan.h>
#include <casacore/tables/Tables/ArrColDesc.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableDesc.h>
#include <casacore/tables/Tables/TableRecord.h>
#include <filesystem>

namespace apertura::testing {

namespace cc = casacore;

namespace {

cc::Table open(const std::string& path) {
  return cc::Table(path, cc::Table::Update);
}

cc::Table openSub(const std::string& ms, const std::string& name) {
  return cc::Table(ms + "/" + name, cc::Table::Update);
}

template <typename T, typename F>
void fillArray(cc::Table& t, const std::string& column, F f) {
  cc::ArrayColumn<cc::Complex> data(t, "DATA");
  cc::ArrayColumn<T> col(t, column);
  for (cc::rownr_t r = 0; r < t.nrow(); ++r) {
    const cc::IPosition shape = data.shape(r);
    cc::Matrix<T> m(shape);
    for (ssize_t k = 0; k < shape(0); ++k) {
      for (ssize_t c = 0; c < shape(1); ++c) {
        m(k, c) = f(static_cast<int>(r), static_cast<int>(k), static_cast<int>(c));
      }
    }
    col.put(r, m);
  }
}

}  // namespace

void copyTable(const std::string& from, const std::string& to) {
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
}

void removeMainColumn(const std::string& ms, const std::string& column) {
  open(ms).removeColumn(column);
}

void removeSubtable(const std::string& ms, const std::string& name) {
  cc::Table t = open(ms);
  t.rwKeywordSet().removeField(name);
}

void setChannelFrequency(const std::string& ms, int spw, int channel, double hz) {
  cc::Table t = openSub(ms, "SPECTRAL_WINDOW");
  cc::ArrayColumn<double> col(t, "CHAN_FREQ");
  cc::Vector<double> f = col(static_cast<cc::rownr_t>(spw));
  f(channel) = hz;
  col.put(static_cast<cc::rownr_t>(spw), f);
}

void setCorrelationTypes(const std::string& ms, int polarization_row,
                         const std::vector<int>& types) {
  cc::Table t = openSub(ms, "POLARIZATION");
  cc::Vector<int> v(types.size());
  for (std::size_t i = 0; i < types.size(); ++i)
    v(i) = types[i];
  cc::ArrayColumn<int>(t, "CORR_TYPE").put(static_cast<cc::rownr_t>(polarization_row), v);
}

void setDataDescriptionWindow(const std::string& ms, int data_desc_row, int spw) {
  cc::Table t = openSub(ms, "DATA_DESCRIPTION");
  cc::ScalarColumn<int>(t, "SPECTRAL_WINDOW_ID").put(static_cast<cc::rownr_t>(data_desc_row), spw);
}

void setDataDescId(const std::string& ms, int row, int data_desc_id) {
  cc::Table t = open(ms);
  cc::ScalarColumn<int>(t, "DATA_DESC_ID").put(static_cast<cc::rownr_t>(row), data_desc_id);
}

void setFlagRowAll(const std::string& ms) {
  cc::Table t = open(ms);
  cc::ScalarColumn<bool> col(t, "FLAG_ROW");
  for (cc::rownr_t r = 0; r < t.nrow(); ++r)
    col.put(r, true);
}

void fillComplexColumn(const std::string& ms, const std::string& column,
                       const std::function<std::complex<float>(int, int, int)>& f) {
  cc::Table t = open(ms);
  fillArray<cc::Complex>(t, column, f);
}

void addComplexColumn(const std::string& ms, const std::string& column,
                      const std::function<std::complex<float>(int, int, int)>& f) {
  cc::Table t = open(ms);
  cc::TableDesc desc;
  desc.addColumn(cc::ArrayColumnDesc<cc::Complex>(column, 2));
  cc::StandardStMan stman;
  t.addColumn(desc, stman);
  fillArray<cc::Complex>(t, column, f);
}

void addWeightSpectrum(const std::string& ms, const std::function<float(int, int, int)>& f) {
  cc::Table t = open(ms);
  cc::TableDesc desc;
  desc.addColumn(cc::ArrayColumnDesc<float>("WEIGHT_SPECTRUM", 2));
  cc::StandardStMan stman;
  t.addColumn(desc, stman);
  fillArray<float>(t, "WEIGHT_SPECTRUM", f);
}

void setWeights(const std::string& ms, float w) {
  cc::Table t = open(ms);
  cc::ArrayColumn<float> col(t, "WEIGHT");
  for (cc::rownr_t r = 0; r < t.nrow(); ++r)
    col.put(r, cc::Vector<float>(col.shape(r)(0), w));
}

void setSigmas(const std::string& ms, float s) {
  cc::Table t = open(ms);
  cc::ArrayColumn<float> col(t, "SIGMA");
  for (cc::rownr_t r = 0; r < t.nrow(); ++r)
    col.put(r, cc::Vector<float>(col.shape(r)(0), s));
}

void setUvw(const std::string& ms, int row, double u, double v, double w) {
  cc::Table t = open(ms);
  cc::ArrayColumn<double> col(t, "UVW");
  cc::Vector<double> uvw(3);
  uvw(0) = u;
  uvw(1) = v;
  uvw(2) = w;
  for (cc::rownr_t r = 0; r < t.nrow(); ++r) {
    if (row < 0 || r == static_cast<cc::rownr_t>(row))
      col.put(r, uvw);
  }
}

void setRowWeight(const std::string& ms, int row, float w) {
  cc::Table t = open(ms);
  cc::ArrayColumn<float> col(t, "WEIGHT");
  const auto r = static_cast<cc::rownr_t>(row);
  col.put(r, cc::Vector<float>(col.shape(r)(0), w));
}

}  // namespace apertura::testing
