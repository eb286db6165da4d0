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

}  // namespace apertura::engine
