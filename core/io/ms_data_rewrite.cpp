#include "core/io/ms_data_rewrite.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/IPosition.h>
#include <casacore/casa/Arrays/Slicer.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "core/engine/interrupt.h"
#include "core/io/casacore_lock.h"
#include "core/io/correlation.h"
#include "core/io/ms_copy.h"
#include "core/io/ms_metadata.h"
#include "core/util/input_error.h"
#include "core/util/random.h"

namespace apertura {
namespace {

namespace cc = casacore;

constexpr cc::rownr_t kBlockRows = 8192;

// Reads a table's columns row by row, knowing which weight columns it has.
class MainTable {
 public:
  MainTable(cc::Table& t, const std::string& path) : t_(t), path_(path) {
    for (const char* c : {"UVW", "FIELD_ID", "DATA_DESC_ID", "DATA"}) {
      if (!has(c))
        fail(std::string("table MAIN has no ") + c + " column");
    }
    if (!has("WEIGHT") && !has("SIGMA"))
      fail("table MAIN has neither WEIGHT nor SIGMA column (no weights to draw noise from)");
    sigma_only_ = !has("WEIGHT");
    per_correlation_.attach(t, sigma_only_ ? "SIGMA" : "WEIGHT");
    if (has("WEIGHT_SPECTRUM"))
      spectrum_.attach(t, "WEIGHT_SPECTRUM");
  }

  bool has(const char* column) const { return t_.tableDesc().isColumn(column); }

  // Weight of every (channel, correlation) of a row, [c * ncorr + k]: WEIGHT_SPECTRUM where the
  // row has it, else WEIGHT, else 1 / SIGMA^2 (0 for a non-positive sigma).
  std::vector<float> weights(cc::rownr_t row, std::size_t ncorr, std::size_t nchan) const {
    std::vector<float> w(ncorr * nchan, 0.0f);
    if (!spectrum_.isNull() && spectrum_.isDefined(row) &&
        spectrum_.shape(row).isEqual(cc::IPosition(2, ncorr, nchan))) {
      const cc::Array<float> a = spectrum_(row);
      std::copy(a.begin(), a.end(), w.begin());
      return w;
    }
    const cc::Array<float> a = per_correlation_(row);
    if (a.nelements() != ncorr)
      fail(std::string(sigma_only_ ? "SIGMA" : "WEIGHT") + " row " + std::to_string(row) + " has " +
           std::to_string(a.nelements()) + " values for " + std::to_string(ncorr) +
           " correlations");
    std::size_t k = 0;
    for (float v : a) {
      const float weight = sigma_only_ ? (v > 0.0f ? 1.0f / (v * v) : 0.0f) : v;
      for (std::size_t c = 0; c < nchan; ++c)
        w[c * ncorr + k] = weight;
      ++k;
    }
    return w;
  }

  [[noreturn]] void fail(const std::string& problem) const { throw InputError(path_, problem); }

 private:
  cc::Table& t_;
  std::string path_;
  bool sigma_only_ = false;
  cc::ArrayColumn<float> per_correlation_, spectrum_;
};

struct RowShape {
  std::size_t spw = 0, pol = 0, ncorr = 0, nchan = 0;
};

RowShape shapeOf(const MsMetadata& meta, int ddid, cc::rownr_t row, const MainTable& main) {
  if (ddid < 0 || static_cast<std::size_t>(ddid) >= meta.data_descriptions.size())
    main.fail("MAIN row " + std::to_string(row) + " has DATA_DESC_ID " + std::to_string(ddid) +
              " which DATA_DESCRIPTION does not list");
  const auto& d = meta.data_descriptions[static_cast<std::size_t>(ddid)];
  RowShape s;
  s.spw = static_cast<std::size_t>(d.spectral_window_id);
  s.pol = static_cast<std::size_t>(d.polarization_id);
  s.ncorr = meta.correlations[s.pol].size();
  s.nchan = meta.channel_frequencies_hz[s.spw].size();
  return s;
}

class DataWriter {
 public:
  DataWriter(const DataRewriteRequest& r, const std::string& path) : r_(r), path_(path) {}

  DataRewriteSummary run() {
    const MsMetadata meta = readMsMetadata(path_);
    const auto lock = lockCasacore();
    try {
      cc::Table t(path_, cc::Table::Update);
      MainTable main(t, path_);
      data_.attach(t, "DATA");
      summary_.corrected_data = main.has("CORRECTED_DATA");
      if (summary_.corrected_data)
        corrected_.attach(t, "CORRECTED_DATA");
      for (const char* name : {"WEIGHT", "WEIGHT_SPECTRUM", "SIGMA", "SIGMA_SPECTRUM"})
        if (r_.weight_scale != 1.0 && main.has(name))
          scaled_.emplace_back(name, cc::ArrayColumn<float>(t, name));
      for (cc::rownr_t start = 0; start < t.nrow(); start += kBlockRows)
        writeBlock(t, main, meta, start, std::min<cc::rownr_t>(kBlockRows, t.nrow() - start));
    } catch (const cc::AipsError& e) {
      throw InputError(path_, std::string("casacore could not write the data (") + e.what() + ")");
    }
    return summary_;
  }

 private:
  void writeBlock(cc::Table& t, const MainTable& main, const MsMetadata& meta, cc::rownr_t start,
                  cc::rownr_t n) {
    const cc::Slicer rows(cc::IPosition(1, start), cc::IPosition(1, n));
    const cc::Vector<int> field = cc::ScalarColumn<int>(t, "FIELD_ID").getColumnRange(rows);
    const cc::Vector<int> ddid = cc::ScalarColumn<int>(t, "DATA_DESC_ID").getColumnRange(rows);
    const cc::Array<double> uvw = cc::ArrayColumn<double>(t, "UVW").getColumnRange(rows);
    if (uvw.nelements() != 3 * n)
      main.fail("column UVW does not hold 3 values per row");
    bool del = false;
    const double* p = uvw.getStorage(del);
    // Rows of one field and data description are predicted together.
    std::map<std::pair<int, int>, std::vector<cc::rownr_t>> groups;
    for (cc::rownr_t i = 0; i < n; ++i)
      groups[{field(i), ddid(i)}].push_back(i);
    for (const auto& [key, members] : groups) {
      const RowShape shape = shapeOf(meta, key.second, start + members[0], main);
      std::vector<double> imaging_uvw(3 * members.size());
      for (std::size_t j = 0; j < members.size(); ++j)
        for (int a = 0; a < 3; ++a)
          imaging_uvw[3 * j + a] = -p[3 * members[j] + a];
      std::vector<std::complex<double>> model(members.size() * shape.nchan);
      r_.sky(key.first, meta.channel_frequencies_hz[shape.spw], imaging_uvw.data(), members.size(),
             model.data());
      for (std::size_t j = 0; j < members.size(); ++j)
        writeRow(main, meta, start + members[j], shape, &model[j * shape.nchan]);
    }
    uvw.freeStorage(p, del);
  }

  void writeRow(const MainTable& main, const MsMetadata& meta, cc::rownr_t row, const RowShape& s,
                const std::complex<double>* model) {
    engine::throwIfInterrupted();
    if (!data_.isDefined(row) || !data_.shape(row).isEqual(cc::IPosition(2, s.ncorr, s.nchan)))
      main.fail("DATA row " + std::to_string(row) + " does not have the shape (" +
                std::to_string(s.ncorr) + " correlations, " + std::to_string(s.nchan) +
                " channels) its POLARIZATION and SPECTRAL_WINDOW rows give");
    std::vector<float> w = main.weights(row, s.ncorr, s.nchan);
    for (float& x : w)
      x *= static_cast<float>(r_.weight_scale);
    const std::vector<Correlation>& corrs = meta.correlations[s.pol];
    cc::Array<cc::Complex> cell(cc::IPosition(2, s.ncorr, s.nchan));
    bool del = false;
    cc::Complex* out = cell.getStorage(del);
    for (std::size_t c = 0; c < s.nchan; ++c) {
      for (std::size_t k = 0; k < s.ncorr; ++k) {
        const std::size_t i = c * s.ncorr + k;
        std::complex<double> v = isParallelHand(corrs[k]) ? model[c] : 0.0;
        if (r_.noise && w[i] > 0.0f && std::isfinite(w[i])) {
          const NormalPair z = counterNormalPair(r_.seed, (std::uint64_t(row) << 24) | i);
          const double sigma = 1.0 / std::sqrt(double(w[i]));
          v += std::complex<double>(sigma * z.a, sigma * z.b);
        }
        out[i] = cc::Complex(float(v.real()), float(v.imag()));
      }
    }
    cell.putStorage(out, del);
    data_.put(row, cell);
    if (summary_.corrected_data)
      corrected_.put(row, cell);
    scaleWeights(row);
    ++summary_.rows;
    summary_.samples += s.nchan;
  }

  // WEIGHT and WEIGHT_SPECTRUM times the scale, SIGMA and SIGMA_SPECTRUM over its square root.
  void scaleWeights(cc::rownr_t row) {
    for (auto& [name, col] : scaled_) {
      if (!col.isDefined(row))
        continue;
      const bool sigma = name.rfind("SIGMA", 0) == 0;
      cc::Array<float> a = col(row);
      a *= static_cast<float>(sigma ? 1.0 / std::sqrt(r_.weight_scale) : r_.weight_scale);
      col.put(row, a);
    }
  }

  const DataRewriteRequest& r_;
  std::string path_;
  DataRewriteSummary summary_;
  cc::ArrayColumn<cc::Complex> data_, corrected_;
  std::vector<std::pair<std::string, cc::ArrayColumn<float>>> scaled_;  // with weight_scale != 1
};

}  // namespace

DataRewriteSummary rewriteMsData(const DataRewriteRequest& r) {
  if (!r.sky)
    throw InputError(r.output_path, "no sky model to predict the data from");
  if (!(r.weight_scale > 0.0) || !std::isfinite(r.weight_scale))
    throw InputError(r.output_path, "the weight scale must be a positive number");
  requireCasacoreTable(r.input_path);
  DataRewriteSummary summary;
  writeIntoCopy(r.input_path, r.output_path, r.overwrite, "with simulated data",
                [&](const std::string& copy) { summary = DataWriter(r, copy).run(); });
  return summary;
}

int firstFieldWithData(const std::string& path) {
  requireCasacoreTable(path);
  const auto lock = lockCasacore();
  try {
    cc::Table t(path);
    if (t.nrow() == 0)
      throw InputError(path, "table MAIN has no rows");
    const cc::Vector<int> field = cc::ScalarColumn<int>(t, "FIELD_ID").getColumn();
    return *std::min_element(field.begin(), field.end());
  } catch (const cc::AipsError& e) {
    throw InputError(path, std::string("casacore could not read FIELD_ID (") + e.what() + ")");
  }
}

double stokesIWeightSum(const std::string& path, int field_id) {
  requireCasacoreTable(path);
  const MsMetadata meta = readMsMetadata(path);
  const auto lock = lockCasacore();
  try {
    cc::Table t(path);
    MainTable main(t, path);
    const cc::Vector<int> ddid = cc::ScalarColumn<int>(t, "DATA_DESC_ID").getColumn();
    const cc::Vector<int> field = cc::ScalarColumn<int>(t, "FIELD_ID").getColumn();
    const cc::Vector<int> a1 = cc::ScalarColumn<int>(t, "ANTENNA1").getColumn();
    const cc::Vector<int> a2 = cc::ScalarColumn<int>(t, "ANTENNA2").getColumn();
    const bool flags = main.has("FLAG");
    cc::Vector<bool> flag_row(t.nrow(), false);
    if (main.has("FLAG_ROW"))
      flag_row = cc::ScalarColumn<bool>(t, "FLAG_ROW").getColumn();
    cc::ArrayColumn<bool> flag_column;
    if (flags)
      flag_column.attach(t, "FLAG");
    double sum = 0.0;
    for (cc::rownr_t row = 0; row < t.nrow(); ++row) {
      if (a1(row) == a2(row) || (field_id >= 0 && field(row) != field_id) || flag_row(row))
        continue;
      const RowShape s = shapeOf(meta, ddid(row), row, main);
      const std::vector<float> w = main.weights(row, s.ncorr, s.nchan);
      cc::Array<bool> f;
      if (flags)
        f = flag_column(row);
      const auto usable = [&](std::size_t i) {
        return w[i] > 0.0f && std::isfinite(w[i]) && (!flags || !f.data()[i]);
      };
      std::vector<std::size_t> hands;
      for (std::size_t k = 0; k < s.ncorr; ++k)
        if (isParallelHand(meta.correlations[s.pol][k]))
          hands.push_back(k);
      for (std::size_t c = 0; c < s.nchan; ++c) {
        if (hands.size() == 1 && usable(c * s.ncorr + hands[0])) {
          sum += w[c * s.ncorr + hands[0]];
        } else if (hands.size() >= 2) {
          const std::size_t i = c * s.ncorr + hands[0], j = c * s.ncorr + hands[1];
          if (usable(i) && usable(j))
            sum += 4.0 / (1.0 / w[i] + 1.0 / w[j]);
        }
      }
    }
    return sum;
  } catch (const cc::AipsError& e) {
    throw InputError(path, std::string("casacore could not read the weights (") + e.what() + ")");
  }
}

}  // namespace apertura
