#include "core/io/ms_model_writer.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/IPosition.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/tables/DataMan/StandardStMan.h>
#include <casacore/tables/Tables/ArrColDesc.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableDesc.h>
#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "core/io/casacore_lock.h"
#include "core/io/correlation.h"
#include "core/io/ms_copy.h"
#include "core/io/ms_metadata.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

namespace cc = casacore;

// What happens to each correlation of a cell in a modelled row.
enum class Role { kModel, kZero, kKeep };

struct Target {
  std::size_t block = 0, row_in_block = 0;
};

// Roles of the correlations of one POLARIZATION row; empty when the product cannot be written.
std::vector<Role> rolesFor(Product product, const std::vector<Correlation>& corrs) {
  std::vector<Role> roles(corrs.size(), Role::kKeep);
  bool any = false;
  for (std::size_t k = 0; k < corrs.size(); ++k) {
    if (product == Product::I) {
      roles[k] = isParallelHand(corrs[k]) ? Role::kModel : Role::kZero;
      any = any || isParallelHand(corrs[k]);
    } else if (productName(product) == correlationName(corrs[k])) {
      roles[k] = Role::kModel;
      any = true;
    }
  }
  return any ? roles : std::vector<Role>{};
}

void checkRequest(const ModelWriteRequest& r, const std::string& where) {
  const std::string col = "column " + r.column + ": ";
  if (r.column.empty())
    throw InputError(where, "no column name given for the model");
  if (r.product == Product::Q || r.product == Product::U || r.product == Product::V) {
    throw InputError(where, col + "cannot write a Stokes " + productName(r.product) +
                                " model (it does not determine the correlations)");
  }
  for (std::size_t b = 0; b < r.blocks.size(); ++b) {
    const ModelBlock& m = r.blocks[b];
    const bool whole = !m.source_rows.empty() && m.values.size() % m.source_rows.size() == 0;
    if (!m.source_rows.empty() &&
        (!whole || (!m.frequencies_hz.empty() && m.frequencies_hz.size() != m.num_channels()))) {
      throw InputError(where, col + "model block " + std::to_string(b) + " has " +
                                  std::to_string(m.values.size()) + " values for " +
                                  std::to_string(m.source_rows.size()) + " rows and " +
                                  std::to_string(m.frequencies_hz.size()) + " frequencies");
    }
  }
}

class ColumnWriter {
 public:
  ColumnWriter(const ModelWriteRequest& r, const std::string& path) : r_(r), path_(path) {}

  void run() {
    const MsMetadata meta = readMsMetadata(path_);
    const auto lock = lockCasacore();
    try {
      cc::Table t(path_, cc::Table::Update);
      write(t, meta);
    } catch (const cc::AipsError& e) {
      fail(std::string("casacore could not write it (") + e.what() + ")");
    }
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(path_, "column " + r_.column + ": " + problem);
  }

  std::vector<Target> targets(cc::rownr_t nrow) {
    std::vector<std::pair<std::uint64_t, Target>> list;
    for (std::size_t b = 0; b < r_.blocks.size(); ++b) {
      for (std::size_t i = 0; i < r_.blocks[b].source_rows.size(); ++i)
        list.emplace_back(r_.blocks[b].source_rows[i], Target{b, i});
    }
    std::sort(list.begin(), list.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].first >= nrow)
        fail("model row " + std::to_string(list[i].first) + " is beyond the " +
             std::to_string(nrow) + " rows of table MAIN");
      if (i > 0 && list[i].first == list[i - 1].first)
        fail("the model gives row " + std::to_string(list[i].first) + " twice");
    }
    rows_.clear();
    std::vector<Target> out;
    for (const auto& [row, t] : list) {
      rows_.push_back(row);
      out.push_back(t);
    }
    return out;
  }

  void addColumn(cc::Table& t) const {
    const cc::TableDesc& desc = t.tableDesc();
    if (!desc.isColumn("DATA"))
      fail("table MAIN has no DATA column to take the cell shape from");
    const cc::ColumnDesc& data = desc.columnDesc("DATA");
    const std::string comment = "model visibilities written by Apertura";
    if (data.isFixedShape()) {
      t.addColumn(cc::ArrayColumnDesc<cc::Complex>(r_.column, comment, data.shape(),
                                                   cc::ColumnDesc::FixedShape),
                  cc::StandardStMan("Apertura_" + r_.column));
    } else {
      t.addColumn(cc::ArrayColumnDesc<cc::Complex>(r_.column, comment, 2),
                  cc::StandardStMan("Apertura_" + r_.column));
    }
  }

  void checkFrequencies(const ModelBlock& m, std::size_t block, int spw,
                        const std::vector<double>& freqs) {
    if (m.channel_start + m.num_channels() > freqs.size()) {
      fail("model block " + std::to_string(block) + " covers channels " +
           std::to_string(m.channel_start) + ".." +
           std::to_string(m.channel_start + m.num_channels() - 1) + " but spectral window " +
           std::to_string(spw) + " has " + std::to_string(freqs.size()));
    }
    if (m.frequencies_hz.empty() || !checked_.insert({block, spw}).second)
      return;
    for (std::size_t c = 0; c < m.frequencies_hz.size(); ++c) {
      const double f = freqs[m.channel_start + c];
      if (!(std::fabs(m.frequencies_hz[c] - f) <= 1e-9 * std::fabs(f))) {
        fail("model block " + std::to_string(block) + " channel " + std::to_string(c) + " is at " +
             std::to_string(m.frequencies_hz[c]) + " Hz but spectral window " +
             std::to_string(spw) + " channel " + std::to_string(m.channel_start + c) + " is at " +
             std::to_string(f) + " Hz");
      }
    }
  }

  void write(cc::Table& t, const MsMetadata& meta) {
    if (!t.tableDesc().isColumn("DATA_DESC_ID"))
      fail("table MAIN has no DATA_DESC_ID column");
    const bool existed = t.tableDesc().isColumn(r_.column);
    if (existed) {
      const cc::ColumnDesc& cd = t.tableDesc().columnDesc(r_.column);
      if (!cd.isArray() || cd.dataType() != cc::TpComplex)
        fail("exists but is not a complex array column");
    } else {
      addColumn(t);
    }
    std::vector<std::vector<Role>> roles;  // per POLARIZATION row
    for (const auto& corrs : meta.correlations)
      roles.push_back(rolesFor(r_.product, corrs));

    const cc::rownr_t nrow = t.nrow();
    const std::vector<Target> tg = targets(nrow);
    const cc::Vector<int> ddid = cc::ScalarColumn<int>(t, "DATA_DESC_ID").getColumn();
    cc::ArrayColumn<cc::Complex> data(t, "DATA"), out(t, r_.column);
    // A new column gets every row (zeros where no model); an existing one only the model rows.
    std::size_t next = 0;
    const cc::rownr_t count = existed ? rows_.size() : nrow;
    for (cc::rownr_t i = 0; i < count; ++i) {
      const cc::rownr_t row = existed ? rows_[i] : i;
      const bool modelled = next < rows_.size() && rows_[next] == row;
      if (!data.isDefined(row)) {
        if (modelled)
          fail("DATA row " + std::to_string(row) + " is undefined, so its shape is unknown");
        continue;
      }
      const cc::IPosition shape = data.shape(row);
      cc::Array<cc::Complex> cell;
      if (existed && out.isDefined(row) && out.shape(row).isEqual(shape)) {
        out.get(row, cell, true);
      } else {
        cell.resize(shape);
        cell = cc::Complex(0.0f, 0.0f);
      }
      if (modelled)
        fillRow(row, tg[next++], ddid(row), meta, roles, cell);
      out.put(row, cell);
    }
  }

  void fillRow(cc::rownr_t row, const Target& tg, int dd, const MsMetadata& meta,
               const std::vector<std::vector<Role>>& roles, cc::Array<cc::Complex>& cell) {
    if (dd < 0 || static_cast<std::size_t>(dd) >= meta.data_descriptions.size())
      fail("MAIN row " + std::to_string(row) + " has DATA_DESC_ID " + std::to_string(dd) +
           " which DATA_DESCRIPTION does not list");
    const auto& d = meta.data_descriptions[static_cast<std::size_t>(dd)];
    const auto pol = static_cast<std::size_t>(d.polarization_id);
    const auto spw = static_cast<std::size_t>(d.spectral_window_id);
    const std::vector<Role>& role = roles[pol];
    if (role.empty())
      fail("cannot write a " + productName(r_.product) + " model into the correlations of " +
           "POLARIZATION row " + std::to_string(pol) + " (MAIN row " + std::to_string(row) + ")");
    const ModelBlock& m = r_.blocks[tg.block];
    checkFrequencies(m, tg.block, d.spectral_window_id, meta.channel_frequencies_hz[spw]);
    const cc::IPosition shape = cell.shape();
    if (shape.size() != 2 || static_cast<std::size_t>(shape(0)) != role.size() ||
        static_cast<std::size_t>(shape(1)) != meta.channel_frequencies_hz[spw].size())
      fail("DATA row " + std::to_string(row) + " has shape " + shape.toString() +
           ", which does not match its POLARIZATION and SPECTRAL_WINDOW rows");
    const std::size_t nchan = m.num_channels(), ncorr = role.size();
    bool del = false;
    cc::Complex* p = cell.getStorage(del);
    for (std::size_t c = 0; c < nchan; ++c) {
      const std::complex<float> v = m.values[tg.row_in_block * nchan + c];
      for (std::size_t k = 0; k < ncorr; ++k) {
        cc::Complex& x = p[(m.channel_start + c) * ncorr + k];
        if (role[k] == Role::kModel)
          x = v;
        else if (role[k] == Role::kZero)
          x = cc::Complex(0.0f, 0.0f);
      }
    }
    cell.putStorage(p, del);
  }

  const ModelWriteRequest& r_;
  std::string path_;
  std::vector<cc::rownr_t> rows_;  // sorted model rows, parallel to targets()
  std::set<std::pair<std::size_t, int>> checked_;
};

bool protectedColumn(const std::string& c) {
  return c == "DATA" || c == "CORRECTED_DATA" || c == "FLOAT_DATA";
}

}  // namespace

void writeModelColumn(const ModelWriteRequest& r) {
  checkRequest(r, r.output_path.empty() ? r.input_path : r.output_path);
  requireCasacoreTable(r.input_path);
  if (r.output_path.empty()) {
    if (!r.in_place) {
      throw InputError(r.input_path, "refusing to write column " + r.column +
                                         " into the input Measurement Set: give an output path "
                                         "for a copy, or ask for an in-place write explicitly");
    }
    if (protectedColumn(r.column)) {
      throw InputError(r.input_path, "refusing to overwrite the observed data in column " +
                                         r.column + " of the input Measurement Set");
    }
    ColumnWriter(r, r.input_path).run();
    return;
  }
  writeIntoCopy(r.input_path, r.output_path, false, "holding column " + r.column,
                [&](const std::string& copy) { ColumnWriter(r, copy).run(); });
}

}  // namespace apertura
