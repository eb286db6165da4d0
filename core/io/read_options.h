#pragma once

#include <cstddef>
#include <optional>

#include "core/io/read_mode.h"
#include "core/io/row_range.h"
#include "core/io/selection.h"
#include "core/util/cancellation.h"

namespace apertura {

struct ReadOptions {
  VisibilitySelection selection;
  ReadMode mode = ReadMode::kAuto;
  // Rows per chunk; none: derived from memory_budget_bytes (see autoChunkRows).
  std::optional<std::size_t> chunk_rows;
  std::size_t memory_budget_bytes = std::size_t{1} << 30;
  // Chunks the I/O thread keeps ready ahead of the consumer (a bounded queue; 1 or 2).
  int prefetch_depth = 2;
  const CancellationToken* cancel = nullptr;  // not owned; must outlive the source
  // Only these rows of the selection's row sequence (one process's share of a distributed run;
  // see row_partition.h); chunk.first_row keeps its index in the whole sequence, and rows outside
  // the range are not read. Clipped to the selection; an empty range yields no chunks. None: all.
  // Ranges of the same sequence need the same options otherwise (the UVFITS row order depends
  // on the chunk size).
  std::optional<RowRange> row_range;
};

// Bytes a chunk of one row takes in memory while a reader forms it: the raw correlations
// (value, weight, flag) plus the product (value, weight) plus per-row metadata.
std::size_t bytesPerChunkRow(std::size_t channels, std::size_t correlations);

// Rows per chunk such that the chunks alive at once in streaming mode (the queue, the one being
// read and the one the consumer holds: prefetch_depth + 2) fit the budget; at least 1 row and at
// most 1,048,576.
std::size_t autoChunkRows(const ReadOptions& options, std::size_t channels,
                          std::size_t correlations);

}  // namespace apertura
