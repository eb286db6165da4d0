#pragma once

#include <cstddef>
#include <vector>

#include "core/data/visibility_chunk.h"
#include "core/io/row_range.h"

namespace apertura {

// Copies rows [row_begin, row_end) of `in` (local indices) into `out`, with every per-row and
// per-sample array cut to match and first_row moved along; frequencies, field and window stay.
void copyChunkRows(const VisibilityChunk& in, std::size_t row_begin, std::size_t row_end,
                   VisibilityChunk& out);

// Keeps, in order, the rows of `chunks` whose first_row-based index lies in `range`: chunks
// outside it go, chunks across a boundary are cut. For sources that hold every chunk in memory
// anyway (plugin readers); the file readers skip the rows outside the range without reading them.
void clipChunksToRange(std::vector<VisibilityChunk>& chunks, const RowRange& range);

}  // namespace apertura
