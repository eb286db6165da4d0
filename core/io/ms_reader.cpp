#include "core/io/ms_reader.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Slicer.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/RefRows.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

#include "core/io/casacore_errors.h"
#include "core/io/casacore_lock.h"
#include "core/io/ms_metadata.h"
#include "core/io/row_geometry.h"
#include "core/io/stokes_product.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

namespace cc = casacore;

constexpr cc::rownr_t kScanBlock = 65536;

enum class WeightSource { kWeightSpectrum, kWeight, kSigmaSpectrum, kSigma };

struct Group {
  int field = 0, spw = 0, ddid = 0;
  ProductPlan plan;
  std::size_t ncorr = 0, spw_channels = 0, chan0 = 0, nchan = 0;
  std::vector<cc::rownr_t> rows;
};

struct ChunkRef {
  std::size_t group, begin, end;  // rows [begin, end) of groups_[group].rows
  std::uint64_t first_row;        // index of `begin` in the selection's row sequence
};

class MsReader final : public VisibilitySource {
 public:
  MsReader(const std::string& path, const ReadOptions& options)
      : path_(path), options_(options), meta_(readMsMetadata(path)) {
    const auto lock = lockCasacore();
    try {
      main_ = cc::Table(path, cc::TableLock(cc::TableLock::AutoNoReadLocking), cc::Table::Old);
      chooseColumns();
      planGroups();
    } catch (const std::exception& e) {
      main_ = cc::Table();  // members are destroyed after the lock is released
      if (!isCasacoreError(e))
        throw;
      throw InputError(path, std::string("casacore could not read the main table: ") + e.what());
    } catch (...) {
      main_ = cc::Table();
      throw;
    }
  }

  ~MsReader() override {
    const auto lock = lockCasacore();
    main_ = cc::Table();  // casacore objects go while the lock is held
  }
  MsReader(const MsReader&) = delete;
  MsReader& operator=(const MsReader&) = delete;

  const SourceInfo& info() const override { return info_; }
  void rewind() override {
    // Warnings count the first complete pass; a pass abandoned half-way starts the count again.
    if (next_chunk_ == chunks_.size())
      pass_done_ = true;
    if (!pass_done_)
      counts_ = ProductCounts{};
    next_chunk_ = 0;
  }
  std::vector<std::string> warnings() const override {
    std::vector<std::string> w = open_warnings_;
    for (auto& s : describeCounts(path_, counts_, {"column UVW", info_.weight_column}))
      w.push_back(std::move(s));
    return w;
  }

  bool next(VisibilityChunk& chunk) override {
    throwIfCancelled(options_.cancel);
    if (next_chunk_ >= chunks_.size()) {
      pass_done_ = true;
      return false;
    }
    const ChunkRef ref = chunks_[next_chunk_++];
    const auto lock = lockCasacore();
    try {
      readChunk(groups_[ref.group], ref, chunk);
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {
      if (!isCasacoreError(e))
        throw;
      throw InputError(
          path_, "casacore could not read rows of the main table (" + std::string(e.what()) + ")");
    }
    return true;
  }

 private:
  void requireMain(const std::string& column) const {
    if (!main_.tableDesc().isColumn(column)) {
      throw InputError(path_, "table MAIN has no " + column + " column");
    }
  }
  bool has(const std::string& column) const { return main_.tableDesc().isColumn(column); }

  void chooseColumns() {
    for (const char* c : {"UVW", "ANTENNA1", "ANTENNA2", "FIELD_ID", "DATA_DESC_ID", "TIME"}) {
      requireMain(c);
    }
    const DataColumn want = options_.selection.data_column;
    if (want == DataColumn::kAuto) {
      data_column_ = has("CORRECTED_DATA") ? "CORRECTED_DATA" : "DATA";
    } else {
      data_column_ = dataColumnName(want);
    }
    requireMain(data_column_);
    has_flag_ = has("FLAG");
    has_flag_row_ = has("FLAG_ROW");
    if (!has_flag_)
      open_warnings_.push_back(path_ + ": no FLAG column; no sample is flagged");
    if (has("WEIGHT_SPECTRUM")) {
      weight_ = WeightSource::kWeightSpectrum;
    } else if (has("WEIGHT")) {
      weight_ = WeightSource::kWeight;
    } else if (has("SIGMA_SPECTRUM")) {
      weight_ = WeightSource::kSigmaSpectrum;
    } else if (has("SIGMA")) {
      weight_ = WeightSource::kSigma;
    } else {
      throw InputError(path_, "table MAIN has neither WEIGHT nor SIGMA column (no weights)");
    }
    static const char* const names[] = {"WEIGHT_SPECTRUM", "WEIGHT", "SIGMA_SPECTRUM", "SIGMA"};
    info_.weight_column = names[static_cast<int>(weight_)];
    if (weight_ == WeightSource::kSigmaSpectrum || weight_ == WeightSource::kSigma) {
      open_warnings_.push_back(path_ + ": no WEIGHT column; weights are 1/" + info_.weight_column +
                               "^2");
    }
  }

  // Scans the scalar columns once to sort rows into (field, spw, ddid) groups.
  void planGroups() {
    const auto& sel = options_.selection;
    cc::ScalarColumn<int> field_col(main_, "FIELD_ID"), dd_col(main_, "DATA_DESC_ID");
    cc::ScalarColumn<int> a1_col(main_, "ANTENNA1"), a2_col(main_, "ANTENNA2");
    std::map<std::tuple<int, int, int>, Group> groups;
    std::map<int, std::string> unusable_dd;  // ddid -> why it cannot give the product
    const cc::rownr_t nrow = main_.nrow();
    for (cc::rownr_t start = 0; start < nrow; start += kScanBlock) {
      const cc::rownr_t n = std::min(kScanBlock, nrow - start);
      const cc::Slicer rows(cc::IPosition(1, start), cc::IPosition(1, n));
      const cc::Vector<int> f = field_col.getColumnRange(rows), d = dd_col.getColumnRange(rows);
      const cc::Vector<int> a1 = a1_col.getColumnRange(rows), a2 = a2_col.getColumnRange(rows);
      for (cc::rownr_t i = 0; i < n; ++i) {
        if (a1(i) == a2(i))
          continue;
        checkRowIds(start + i, f(i), d(i));
        if (!sel.wantsField(f(i)))
          continue;
        const int spw = meta_.data_descriptions[static_cast<std::size_t>(d(i))].spectral_window_id;
        if (!sel.wantsSpectralWindow(spw) || unusable_dd.count(d(i)))
          continue;
        auto key = std::make_tuple(f(i), spw, d(i));
        auto it = groups.find(key);
        if (it == groups.end()) {
          Group g;
          std::string why;
          if (!initGroup(f(i), d(i), g, why)) {
            unusable_dd[d(i)] = why;
            continue;
          }
          it = groups.emplace(key, std::move(g)).first;
        }
        it->second.rows.push_back(start + i);
      }
    }
    for (const auto& [dd, why] : unusable_dd) {
      open_warnings_.push_back(path_ + ": rows with DATA_DESC_ID " + std::to_string(dd) +
                               " skipped: " + why);
    }
    if (groups.empty()) {
      std::string why = unusable_dd.empty() ? "" : " (" + unusable_dd.begin()->second + ")";
      throw InputError(path_, "the selection matches no cross-correlation rows" + why);
    }
    std::size_t max_corr = 0;
    for (auto& [key, g] : groups) {
      info_.max_channels = std::max(info_.max_channels, g.nchan);
      max_corr = std::max(max_corr, g.ncorr);
    }
    info_.chunk_rows = autoChunkRows(options_, info_.max_channels, max_corr);
    // Chunks are cut as for a full read and then clipped to the row range, so that every range
    // sees the same row sequence (and the same first_row values) as a full read.
    const RowRange range = options_.row_range.value_or(RowRange{0, UINT64_MAX});
    std::uint64_t seq = 0;
    for (auto& [key, g] : groups) {
      info_.selection_rows += g.rows.size();
      for (std::size_t b = 0; b < g.rows.size(); b += info_.chunk_rows) {
        const std::size_t e = std::min(g.rows.size(), b + info_.chunk_rows);
        const std::uint64_t lo = std::max<std::uint64_t>(seq, range.begin);
        const std::uint64_t hi = std::min<std::uint64_t>(seq + (e - b), range.end);
        if (lo < hi) {
          chunks_.push_back({groups_.size(), b + static_cast<std::size_t>(lo - seq),
                             b + static_cast<std::size_t>(hi - seq), lo});
          info_.rows += hi - lo;
          info_.samples += (hi - lo) * g.nchan;
        }
        seq += e - b;
      }
      groups_.push_back(std::move(g));
    }
    info_.path = path_;
    info_.format = "MeasurementSet";
    info_.telescope = meta_.telescope;
    info_.data_column = data_column_;
    info_.product = sel.product;
    info_.fields = meta_.fields;
    info_.spectral_windows = meta_.spectral_windows;
  }

  void checkRowIds(cc::rownr_t row, int field, int dd) const {
    if (field < 0 || static_cast<std::size_t>(field) >= meta_.fields.size()) {
      throw InputError(path_, "MAIN row " + std::to_string(row) + " has FIELD_ID " +
                                  std::to_string(field) + " but FIELD has " +
                                  std::to_string(meta_.fields.size()) + " rows");
    }
    if (dd < 0 || static_cast<std::size_t>(dd) >= meta_.data_descriptions.size()) {
      throw InputError(path_, "MAIN row " + std::to_string(row) + " has DATA_DESC_ID " +
                                  std::to_string(dd) + " but DATA_DESCRIPTION has " +
                                  std::to_string(meta_.data_descriptions.size()) + " rows");
    }
    const auto& d = meta_.data_descriptions[static_cast<std::size_t>(dd)];
    if (d.spectral_window_id < 0 ||
        static_cast<std::size_t>(d.spectral_window_id) >= meta_.spectral_windows.size() ||
        d.polarization_id < 0 ||
        static_cast<std::size_t>(d.polarization_id) >= meta_.correlations.size()) {
      throw InputError(path_, "DATA_DESCRIPTION row " + std::to_string(dd) +
                                  " points at a SPECTRAL_WINDOW or POLARIZATION row that does "
                                  "not exist");
    }
  }

  bool initGroup(int field, int dd, Group& g, std::string& why) const {
    const auto& d = meta_.data_descriptions[static_cast<std::size_t>(dd)];
    const auto& corrs = meta_.correlations[static_cast<std::size_t>(d.polarization_id)];
    const auto& sel = options_.selection;
    auto plan = planProduct(sel.product, corrs, sel.single_hand);
    if (!plan) {
      std::string names;
      for (auto c : corrs)
        names += (names.empty() ? "" : " ") + correlationName(c);
      why = "cannot form " + productName(sel.product) + " from correlations " + names;
      return false;
    }
    const auto nchan_spw =
        meta_.channel_frequencies_hz[static_cast<std::size_t>(d.spectral_window_id)].size();
    const auto start = static_cast<std::size_t>(std::max(0, sel.channel_start));
    if (start >= nchan_spw) {
      why = "channel " + std::to_string(start) + " is beyond the " + std::to_string(nchan_spw) +
            " channels of spectral window " + std::to_string(d.spectral_window_id);
      return false;
    }
    std::size_t count = nchan_spw - start;
    if (sel.channel_count)
      count = std::min(count, static_cast<std::size_t>(*sel.channel_count));
    g.field = field;
    g.spw = d.spectral_window_id;
    g.ddid = dd;
    g.plan = *plan;
    g.ncorr = corrs.size();
    g.spw_channels = nchan_spw;
    g.chan0 = start;
    g.nchan = count;
    return true;
  }

  void checkShape(const cc::ArrayColumn<cc::Complex>& col, cc::rownr_t row, const Group& g) const {
    const cc::IPosition expected(2, static_cast<ssize_t>(g.ncorr),
                                 static_cast<ssize_t>(g.spw_channels));
    if (!col.isDefined(row) || !col.shape(row).isEqual(expected)) {
      const std::string got = col.isDefined(row) ? col.shape(row).toString() : "undefined";
      throw InputError(path_, "inconsistent shapes: " + data_column_ + " row " +
                                  std::to_string(row) + " has shape " + got + ", expected " +
                                  expected.toString() + " from DATA_DESC_ID " +
                                  std::to_string(g.ddid));
    }
  }

  void readChunk(const Group& g, const ChunkRef& ref, VisibilityChunk& chunk);
  void readWeights(const Group& g, const cc::RefRows& rows, const cc::Slicer& cells, std::size_t n);

  std::string path_;
  ReadOptions options_;
  MsMetadata meta_;
  cc::Table main_;
  std::string data_column_;
  bool has_flag_ = false, has_flag_row_ = false;
  WeightSource weight_ = WeightSource::kWeight;
  SourceInfo info_;
  std::vector<Group> groups_;
  std::vector<ChunkRef> chunks_;
  std::size_t next_chunk_ = 0;
  bool pass_done_ = false;
  std::vector<std::string> open_warnings_;
  ProductCounts counts_;  // of the first pass only
  RawVisibilityBlock raw_;
};

void MsReader::readWeights(const Group& g, const cc::RefRows& rows, const cc::Slicer& cells,
                           std::size_t n) {
  WeightSource src = weight_;
  if (src == WeightSource::kWeightSpectrum) {
    cc::ArrayColumn<float> ws(main_, "WEIGHT_SPECTRUM");
    if (!ws.isDefined(g.rows[0]))
      src = has("WEIGHT") ? WeightSource::kWeight : WeightSource::kSigma;
  }
  const bool sigma = src == WeightSource::kSigma || src == WeightSource::kSigmaSpectrum;
  const bool spectral = src == WeightSource::kWeightSpectrum || src == WeightSource::kSigmaSpectrum;
  static const char* const names[] = {"WEIGHT_SPECTRUM", "WEIGHT", "SIGMA_SPECTRUM", "SIGMA"};
  cc::ArrayColumn<float> col(main_, names[static_cast<int>(src)]);
  const cc::Array<float> w = spectral ? col.getColumnCells(rows, cells) : col.getColumnCells(rows);
  const std::size_t per_row = spectral ? g.nchan * g.ncorr : g.ncorr;
  if (w.nelements() != n * per_row) {
    throw InputError(path_, std::string("inconsistent shapes: column ") +
                                names[static_cast<int>(src)] + " has " +
                                std::to_string(w.nelements()) + " values for " + std::to_string(n) +
                                " rows, expected " + std::to_string(per_row) + " per row");
  }
  bool del = false;
  const float* p = w.getStorage(del);
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < g.nchan; ++c) {
      for (std::size_t k = 0; k < g.ncorr; ++k) {
        float v = spectral ? p[(r * g.nchan + c) * g.ncorr + k] : p[r * g.ncorr + k];
        if (sigma)
          v = v > 0.0f ? 1.0f / (v * v) : 0.0f;
        raw_.weight[raw_.index(r, c, k)] = v;
      }
    }
  }
  w.freeStorage(p, del);
}

void MsReader::readChunk(const Group& g, const ChunkRef& ref, VisibilityChunk& chunk) {
  const std::size_t n = ref.end - ref.begin;
  cc::Vector<cc::rownr_t> rowvec(n);
  for (std::size_t i = 0; i < n; ++i)
    rowvec(i) = g.rows[ref.begin + i];
  const cc::RefRows rows(rowvec, false, true);
  const cc::Slicer cells(
      cc::IPosition(2, 0, static_cast<ssize_t>(g.chan0)),
      cc::IPosition(2, static_cast<ssize_t>(g.ncorr), static_cast<ssize_t>(g.nchan)));
  cc::ArrayColumn<cc::Complex> data_col(main_, data_column_);
  checkShape(data_col, rowvec(0), g);
  checkShape(data_col, rowvec(n - 1), g);
  raw_.resize(n, g.nchan, g.ncorr);

  const cc::Array<cc::Complex> data = data_col.getColumnCells(rows, cells);
  if (data.nelements() != raw_.vis.size()) {
    throw InputError(path_, "inconsistent shapes: " + data_column_ + " rows of DATA_DESC_ID " +
                                std::to_string(g.ddid) + " differ in shape");
  }
  std::copy(data.begin(), data.end(), raw_.vis.begin());
  std::fill(raw_.flag.begin(), raw_.flag.end(), 0);
  if (has_flag_) {
    const cc::Array<bool> flag = cc::ArrayColumn<bool>(main_, "FLAG").getColumnCells(rows, cells);
    if (flag.nelements() != raw_.flag.size()) {
      throw InputError(path_, "inconsistent shapes: FLAG and " + data_column_ +
                                  " differ in shape for DATA_DESC_ID " + std::to_string(g.ddid));
    }
    std::copy(flag.begin(), flag.end(), raw_.flag.begin());
  }
  if (has_flag_row_) {
    const cc::Vector<bool> fr = cc::ScalarColumn<bool>(main_, "FLAG_ROW").getColumnCells(rows);
    const std::size_t per_row = g.nchan * g.ncorr;
    for (std::size_t r = 0; r < n; ++r) {
      if (fr(r))
        std::fill_n(raw_.flag.begin() + static_cast<long>(r * per_row), per_row, 1);
    }
  }
  readWeights(g, rows, cells, n);

  const cc::Array<double> uvw = cc::ArrayColumn<double>(main_, "UVW").getColumnCells(rows);
  if (uvw.nelements() != 3 * n) {
    throw InputError(path_, "column UVW does not hold 3 values per row");
  }
  // The imaging convention is the negative of the file's UVW (see VisibilityChunk::uvw_m).
  chunk.uvw_m.resize(3 * n);
  std::transform(uvw.begin(), uvw.end(), chunk.uvw_m.begin(), [](double x) { return -x; });
  const cc::Vector<double> t = cc::ScalarColumn<double>(main_, "TIME").getColumnCells(rows);
  chunk.time_mjd_s.assign(t.begin(), t.end());
  const cc::Vector<int> a1 = cc::ScalarColumn<int>(main_, "ANTENNA1").getColumnCells(rows);
  const cc::Vector<int> a2 = cc::ScalarColumn<int>(main_, "ANTENNA2").getColumnCells(rows);
  chunk.antenna1.assign(a1.begin(), a1.end());
  chunk.antenna2.assign(a2.begin(), a2.end());
  ProductCounts counts;
  screenRowGeometry(chunk.uvw_m.data(), chunk.antenna1.data(), chunk.antenna2.data(), raw_,
                    uvwLimitMetres(meta_.max_antenna_separation_m), counts);
  chunk.source_rows.assign(rowvec.begin(), rowvec.end());

  chunk.field_id = g.field;
  chunk.spectral_window_id = g.spw;
  chunk.first_row = ref.first_row;
  const auto& f = meta_.channel_frequencies_hz[static_cast<std::size_t>(g.spw)];
  chunk.frequencies_hz.assign(f.begin() + static_cast<long>(g.chan0),
                              f.begin() + static_cast<long>(g.chan0 + g.nchan));
  chunk.visibilities.resize(n * g.nchan);
  chunk.weights.resize(n * g.nchan);
  formProduct(raw_, g.plan, 0, g.nchan, chunk.visibilities.data(), chunk.weights.data(), counts);
  if (!pass_done_)
    counts_ += counts;
}

}  // namespace

std::unique_ptr<VisibilitySource> openMeasurementSetReader(const std::string& path,
                                                           const ReadOptions& options) {
  return std::make_unique<MsReader>(path, options);
}

}  // namespace apertura
