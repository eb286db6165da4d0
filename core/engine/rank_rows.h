#pragma once

#include <string>

#include "core/engine/communicator.h"
#include "core/io/read_options.h"
#include "core/io/row_range.h"

namespace apertura::engine {

// Collective: the rows of the selection in `options` that this rank reads in a distributed run,
// balanced across ranks by unflagged samples (row_partition.h). The counting pass is shared: each
// rank streams an equal share of the rows once, the per-block histograms are summed over ranks,
// and every rank computes the same boundaries. With one rank: every row, without a counting pass.
// Set the result as options.row_range for the run's source. options.row_range and options.mode
// are ignored (the counting pass always streams). A failure on any rank (missing file on one
// node...) throws on every rank (runOnEveryRank), never leaves one waiting.
RowRange balancedRowRangeForRank(const std::string& path, const ReadOptions& options,
                                 Communicator& comm);

// Collective: the balanced range with both ends moved forward to the nearest chunk boundary of a
// full read with `options` (chunks are cut as for a full read and then clipped to the range, so a
// boundary inside a chunk would give two ranks a piece each). Every rank then holds whole chunks,
// exactly those a single process would read: what the deterministic reduction needs to sum the
// same per-chunk partials as a single-process run. Finding a boundary reads one chunk per rank.
RowRange chunkAlignedRowRangeForRank(const std::string& path, const ReadOptions& options,
                                     Communicator& comm);

}  // namespace apertura::engine
