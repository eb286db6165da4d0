#include "core/io/chunk_rows.h"

#include <algorithm>
#include <stdexcept>

namespace apertura {
namespace {

template <typename T>
void cut(const std::vector<T>& in, std::size_t per_row, std::size_t b, std::size_t e,
         std::vector<T>& out) {
  out.assign(in.begin() + static_cast<long>(b * per_row),
             in.begin() + static_cast<long>(e * per_row));
}

}  // namespace

void copyChunkRows(const VisibilityChunk& in, std::size_t row_begin, std::size_t row_end,
                   VisibilityChunk& out) {
  if (row_begin > row_end || row_end > in.num_rows())
    throw std::out_of_range("copyChunkRows: rows outside the chunk");
  const std::size_t nc = in.num_channels();
  out.field_id = in.field_id;
  out.spectral_window_id = in.spectral_window_id;
  out.first_row = in.first_row + row_begin;
  out.frequencies_hz = in.frequencies_hz;
  cut(in.uvw_m, 3, row_begin, row_end, out.uvw_m);
  cut(in.visibilities, nc, row_begin, row_end, out.visibilities);
  cut(in.weights, nc, row_begin, row_end, out.weights);
  // Per-row metadata may be absent (empty) in synthetic chunks: cut what is there, clear the rest.
  const auto rows = in.num_rows();
  auto perRow = [&](const auto& src, auto& dst) {
    if (src.size() == rows)
      cut(src, 1, row_begin, row_end, dst);
    else
      dst.clear();
  };
  perRow(in.time_mjd_s, out.time_mjd_s);
  perRow(in.antenna1, out.antenna1);
  perRow(in.antenna2, out.antenna2);
  perRow(in.source_rows, out.source_rows);
}

void clipChunksToRange(std::vector<VisibilityChunk>& chunks, const RowRange& range) {
  std::vector<VisibilityChunk> kept;
  for (auto& c : chunks) {
    const std::uint64_t s = c.first_row, e = s + c.num_rows();
    const std::uint64_t lo = std::max<std::uint64_t>(s, range.begin);
    const std::uint64_t hi = std::min<std::uint64_t>(e, range.end);
    if (lo >= hi)
      continue;
    if (lo == s && hi == e) {
      kept.push_back(std::move(c));
      continue;
    }
    VisibilityChunk part;
    copyChunkRows(c, static_cast<std::size_t>(lo - s), static_cast<std::size_t>(hi - s), part);
    kept.push_back(std::move(part));
  }
  chunks = std::move(kept);
}

}  // namespace apertura
