#include "core/io/uvfits_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>

#include "core/io/row_geometry.h"
#include "core/io/stokes_product.h"
#include "core/io/uvfits_handle.h"
#include "core/io/uvfits_layout.h"
#include "core/util/input_error.h"

namespace apertura {
namespace {

struct Block {
  int field = 0;
  std::size_t begin = 0, end = 0;        // into groups_of_field_[field]
  std::size_t read_lo = 0, read_hi = 0;  // groups [begin + read_lo, begin + read_hi) are read
};

// One emitted chunk: rows [lo, hi) (offsets into its block's groups) of one IF.
struct Piece {
  std::size_t block = 0, if_pos = 0, lo = 0, hi = 0;
  std::uint64_t first_row = 0;  // index of row `lo` in the selection's row sequence
};

class UvfitsReader final : public VisibilitySource {
 public:
  UvfitsReader(const std::string& path, const ReadOptions& options)
      : options_(options), file_((requireFitsFile(path), path)), layout_(readUvfitsLayout(file_)) {
    open_warnings_ = layout_.warnings;
    plan();
  }

  const SourceInfo& info() const override { return info_; }

  void rewind() override {
    if (next_piece_ >= pieces_.size())
      pass_done_ = true;
    if (!pass_done_)
      counts_ = ProductCounts{};
    next_piece_ = 0;
  }

  std::vector<std::string> warnings() const override {
    std::vector<std::string> w = open_warnings_;
    for (auto& s : describeCounts(info_.path, counts_, {"random parameters UU, VV, WW", ""}))
      w.push_back(std::move(s));
    return w;
  }

  bool next(VisibilityChunk& chunk) override {
    throwIfCancelled(options_.cancel);
    if (next_piece_ >= pieces_.size()) {
      pass_done_ = true;
      return false;
    }
    const Piece& p = pieces_[next_piece_];
    if (next_piece_ == 0 || pieces_[next_piece_ - 1].block != p.block)
      readBlock(blocks_[p.block]);
    emit(blocks_[p.block], p, chunk);
    ++next_piece_;
    return true;
  }

 private:
  void readParams(long long g, std::vector<double>& raw) {
    int status = 0;
    fits_read_grppar_dbl(file_.get(), static_cast<long>(g + 1), 1, layout_.pcount, raw.data(),
                         &status);
    file_.check(status, "cannot read the random parameters of group " + std::to_string(g + 1));
  }

  void plan() {
    const auto& sel = options_.selection;
    std::vector<double> raw(static_cast<std::size_t>(layout_.pcount));
    std::map<int, std::vector<long long>> by_field;
    std::set<int> freqsel;
    for (long long g = 0; g < layout_.gcount; ++g) {
      readParams(g, raw);
      const GroupParams p = decodeGroupParams(layout_, raw.data(), g);
      freqsel.insert(p.freqsel);
      const int field = layout_.fieldIndex(p.source);
      if (p.antenna1 == p.antenna2 || !sel.wantsField(field))
        continue;
      by_field[field].push_back(g);
    }
    layout_.selectFrequencySetup(freqsel);
    for (std::size_t i = 0; i < layout_.nif; ++i) {
      if (sel.wantsSpectralWindow(static_cast<int>(i)))
        ifs_.push_back(i);
    }
    chan0_ = static_cast<std::size_t>(std::max(0, sel.channel_start));
    if (chan0_ >= layout_.nchan) {
      throw InputError(file_.path(), "channel " + std::to_string(chan0_) + " is beyond the " +
                                         std::to_string(layout_.nchan) + " channels per IF");
    }
    nchan_ = layout_.nchan - chan0_;
    if (sel.channel_count)
      nchan_ = std::min(nchan_, static_cast<std::size_t>(*sel.channel_count));
    auto plan = planProduct(sel.product, layout_.correlations, sel.single_hand);
    if (!plan) {
      std::string names;
      for (auto c : layout_.correlations)
        names += (names.empty() ? "" : " ") + correlationName(c);
      throw InputError(file_.path(),
                       "cannot form " + productName(sel.product) + " from correlations " + names);
    }
    plan_ = *plan;
    if (by_field.empty() || ifs_.empty() || nchan_ == 0) {
      throw InputError(file_.path(), "the selection matches no cross-correlation groups");
    }
    info_.chunk_rows = autoChunkRows(options_, layout_.nchan * layout_.nif, layout_.nstokes);
    for (auto& [field, groups] : by_field) {
      for (std::size_t b = 0; b < groups.size(); b += info_.chunk_rows) {
        blocks_.push_back({field, b, std::min(groups.size(), b + info_.chunk_rows), 0, 0});
      }
      info_.selection_rows += groups.size() * ifs_.size();
      groups_of_field_[field] = std::move(groups);
    }
    planPieces();
    info_.samples = info_.rows * nchan_;
    info_.max_channels = nchan_;
    info_.path = file_.path();
    info_.format = "UVFITS";
    info_.telescope = layout_.telescope;
    info_.weight_column = layout_.ncomplex == 3 ? "COMPLEX axis weight" : "unit";
    info_.product = sel.product;
    info_.fields = layout_.fields(by_field.rbegin()->first + 1);
    info_.spectral_windows = layout_.spectralWindows();
  }

  // The row sequence is block by block, IF by IF within a block. Each (block, IF) chunk of a full
  // read is clipped to the row range; only the groups some piece needs are read.
  void planPieces() {
    const RowRange range = options_.row_range.value_or(RowRange{0, UINT64_MAX});
    std::uint64_t seq = 0;
    for (std::size_t bi = 0; bi < blocks_.size(); ++bi) {
      Block& b = blocks_[bi];
      const std::size_t n = b.end - b.begin;
      b.read_lo = n;
      b.read_hi = 0;
      for (std::size_t k = 0; k < ifs_.size(); ++k, seq += n) {
        const std::uint64_t lo = std::max<std::uint64_t>(seq, range.begin);
        const std::uint64_t hi = std::min<std::uint64_t>(seq + n, range.end);
        if (lo >= hi)
          continue;
        const auto plo = static_cast<std::size_t>(lo - seq),
                   phi = static_cast<std::size_t>(hi - seq);
        pieces_.push_back({bi, k, plo, phi, lo});
        b.read_lo = std::min(b.read_lo, plo);
        b.read_hi = std::max(b.read_hi, phi);
        info_.rows += hi - lo;
      }
    }
  }

  // Reads the parameters and data of the needed groups of a block once; its IFs are cut from it.
  void readBlock(const Block& b) {
    const auto& groups = groups_of_field_.at(b.field);
    const std::size_t n = b.read_hi - b.read_lo;
    const std::size_t ge = layout_.group_elements;
    data_.resize(n * ge);
    params_.resize(n);
    std::vector<double> raw(static_cast<std::size_t>(layout_.pcount));
    for (std::size_t r = 0; r < n; ++r) {
      const long long g = groups[b.begin + b.read_lo + r];
      readParams(g, raw);
      params_[r] = decodeGroupParams(layout_, raw.data(), g);
      int status = 0, anynul = 0;
      fits_read_img_flt(file_.get(), static_cast<long>(g + 1), 1, static_cast<LONGLONG>(ge), 0.0f,
                        data_.data() + r * ge, &anynul, &status);
      file_.check(status, "cannot read the data of group " + std::to_string(g + 1));
    }
  }

  void emit(const Block& b, const Piece& piece, VisibilityChunk& chunk) {
    const std::size_t if_index = ifs_[piece.if_pos];
    const std::size_t n = piece.hi - piece.lo;
    const std::size_t skip = piece.lo - b.read_lo;  // rows of data_/params_ before this piece
    const std::size_t ge = layout_.group_elements;
    const std::size_t ncorr = layout_.nstokes;
    raw_.resize(n, nchan_, ncorr);
    ProductCounts counts;
    for (std::size_t r = 0; r < n; ++r) {
      const float* d = data_.data() + (skip + r) * ge;
      for (std::size_t c = 0; c < nchan_; ++c) {
        for (std::size_t k = 0; k < ncorr; ++k) {
          const std::size_t i = raw_.index(r, c, k);
          raw_.vis[i] = {d[layout_.offset(0, k, chan0_ + c, if_index)],
                         d[layout_.offset(1, k, chan0_ + c, if_index)]};
          raw_.weight[i] =
              layout_.ncomplex == 3 ? d[layout_.offset(2, k, chan0_ + c, if_index)] : 1.0f;
          raw_.flag[i] = 0;
        }
      }
    }
    chunk.field_id = b.field;
    chunk.spectral_window_id = static_cast<int>(if_index);
    chunk.first_row = piece.first_row;
    const auto freqs = layout_.channelFrequencies(if_index);
    chunk.frequencies_hz.assign(freqs.begin() + static_cast<long>(chan0_),
                                freqs.begin() + static_cast<long>(chan0_ + nchan_));
    chunk.uvw_m.resize(3 * n);
    chunk.time_mjd_s.resize(n);
    chunk.antenna1.resize(n);
    chunk.antenna2.resize(n);
    chunk.source_rows.resize(n);
    const auto& groups = groups_of_field_.at(b.field);
    for (std::size_t r = 0; r < n; ++r) {
      const GroupParams& p = params_[skip + r];
      // The imaging convention is the negative of the file's UVW (see VisibilityChunk::uvw_m).
      chunk.uvw_m[3 * r] = -p.u_m;
      chunk.uvw_m[3 * r + 1] = -p.v_m;
      chunk.uvw_m[3 * r + 2] = -p.w_m;
      chunk.time_mjd_s[r] = p.time_mjd_s;
      chunk.antenna1[r] = p.antenna1;
      chunk.antenna2[r] = p.antenna2;
      chunk.source_rows[r] = static_cast<std::uint64_t>(groups[b.begin + piece.lo + r]);
    }
    screenRowGeometry(chunk.uvw_m.data(), chunk.antenna1.data(), chunk.antenna2.data(), raw_,
                      uvwLimitMetres(layout_.max_antenna_separation_m), counts);
    chunk.visibilities.resize(n * nchan_);
    chunk.weights.resize(n * nchan_);
    formProduct(raw_, plan_, 0, nchan_, chunk.visibilities.data(), chunk.weights.data(), counts);
    if (!pass_done_)
      counts_ += counts;
  }

  ReadOptions options_;
  UvfitsHandle file_;
  UvfitsLayout layout_;
  SourceInfo info_;
  ProductPlan plan_;
  std::vector<std::size_t> ifs_;
  std::size_t chan0_ = 0, nchan_ = 0;
  std::map<int, std::vector<long long>> groups_of_field_;
  std::vector<Block> blocks_;
  std::vector<Piece> pieces_;
  std::size_t next_piece_ = 0;
  std::vector<float> data_;
  std::vector<GroupParams> params_;
  RawVisibilityBlock raw_;
  bool pass_done_ = false;
  std::vector<std::string> open_warnings_;
  ProductCounts counts_;
};

}  // namespace

std::unique_ptr<VisibilitySource> openUvfitsReader(const std::string& path,
                                                   const ReadOptions& options) {
  return std::make_unique<UvfitsReader>(path, options);
}

}  // namespace apertura
